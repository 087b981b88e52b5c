/**
 * The kinds of user script and what each receives. The ancestor ran them with `new Function(names…,
 * body)`; stored scripts are bodies, so each kind names its parameters. A script may also be written
 * as a function expression (`(cellValue, row) => …`); then the names are not needed.
 * Every argument is JSON: a script sees data, never a host object (no list component, no router).
 */
import type { JSONValue } from './json-value.js'

export const SCRIPT_PARAMS = {
  /** list formatter: display value of one cell */
  formatter: ['cellValue', 'row'],
  /** toolbar button script and toolbar request-param script: `_this` is a JSON snapshot of the list */
  toolbar: ['_this'],
  /** row button request-param script */
  row: ['row'],
  /** custom form prefix/suffix submit hooks */
  submitHook: ['formData', '_this'],
  /** custom page config: a body that returns the page's configuration object */
  pageConfig: [],
} as const satisfies Record<string, readonly string[]>

export type ScriptKind = keyof typeof SCRIPT_PARAMS

export interface FormatterCell {
  value: unknown
  row: unknown
}

/** What a formatter's result looks like in a cell: text, '' for nothing, JSON for objects. */
export function cellText(value: JSONValue): string {
  if (value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/**
 * What a button script may ask of its host, as data (the ancestor's scripts called the list component
 * directly; ours return a request that the list runtime carries out). Unknown fields are ignored.
 */
export interface ButtonScriptAction {
  /** a message to show */
  message?: string
  messageType?: 'success' | 'info' | 'warning' | 'error'
  /** reload the list */
  reload?: boolean
  /** go to a route of the app */
  navigate?: string
  /** open an external link in a new window */
  openUrl?: string
  /**
   * ask the user for a line of text first (spec 000 §5: a text prompt can enforce a pattern; default
   * message 输入格式错误); the script then runs again with the text as `_this.input`
   */
  prompt?: { title: string; pattern?: string; message?: string; placeholder?: string }
}

const MESSAGE_TYPES = new Set(['success', 'info', 'warning', 'error'])

export function readButtonAction(result: JSONValue): ButtonScriptAction {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    return typeof result === 'string' && result !== '' ? { message: result } : {}
  }
  const action: ButtonScriptAction = {}
  if (typeof result.message === 'string') action.message = result.message
  if (typeof result.messageType === 'string' && MESSAGE_TYPES.has(result.messageType)) {
    action.messageType = result.messageType as ButtonScriptAction['messageType']
  }
  if (result.reload === true) action.reload = true
  if (typeof result.navigate === 'string' && result.navigate.startsWith('/')) action.navigate = result.navigate
  if (typeof result.openUrl === 'string' && /^https?:\/\//i.test(result.openUrl)) action.openUrl = result.openUrl
  const prompt = result.prompt
  if (prompt && typeof prompt === 'object' && !Array.isArray(prompt) && typeof prompt.title === 'string' && prompt.title) {
    action.prompt = { title: prompt.title }
    for (const key of ['pattern', 'message', 'placeholder'] as const) if (typeof prompt[key] === 'string') action.prompt[key] = prompt[key]
  }
  return action
}
