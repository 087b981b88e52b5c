
import { tr } from '../i18n/use-tr.js'/**
 * The Formily JSON schema stored as a custom form's formConfig: what it may contain and how it is
 * checked. Only the whitelisted components render (no arbitrary React from users), and Formily's
 * `{{expression}}` strings and `x-reactions` are refused: Formily would compile them with
 * `new Function` on the page, outside the sandbox.
 */

/** Components a stored form may name in `x-component` / `x-decorator`. */
export const FORM_COMPONENTS = [
  'FormItem',
  'FormGrid',
  'FormLayout',
  'Space',
  'Input',
  'Input.TextArea',
  'Password',
  'NumberPicker',
  'Select',
  'Radio.Group',
  'Checkbox',
  'Checkbox.Group',
  'Switch',
  'DatePicker',
  'DatePicker.RangePicker',
  'TimePicker',
  'CustomSelector',
  'DataDicSelect',
  'VideoUpload',
] as const

const ALLOWED = new Set<string>(FORM_COMPONENTS)
const FORBIDDEN_KEYS = new Set(['x-reactions', 'x-linkages', 'x-effect', 'x-compile-omitted', 'dangerouslySetInnerHTML', '__proto__'])
const SCHEMA_TYPES = ['object', 'void', 'string', 'number', 'boolean', 'array', 'date', 'datetime']
const MAX_DEPTH = 20
const MAX_NODES = 500

export interface FormSchemaNode {
  type?: string
  title?: string
  properties?: Record<string, FormSchemaNode>
  [key: string]: unknown
}

export type FormSchemaCheck = { ok: true; schema: FormSchemaNode } | { ok: false; errors: string[] }

/** Parses (if text) and checks a stored form schema; errors name the JSON path. */
export function checkFormSchema(input: unknown): FormSchemaCheck {
  let value = input
  if (typeof input === 'string') {
    if (!input.trim()) return { ok: false, errors: [tr('表单配置为空')] }
    try {
      value = JSON.parse(input)
    } catch (e) {
      return { ok: false, errors: [tr(`JSON格式不正确：${e instanceof Error ? e.message : String(e)}`)] }
    }
  }
  const errors: string[] = []
  let nodes = 0
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

  const scan = (v: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH * 3) return errors.push(tr(`${path}：层级过深`))
    if (typeof v === 'string') {
      if (/\{\{[\s\S]*\}\}/.test(v)) errors.push(tr(`${path}：不允许使用表达式 {{ }}`))
      return
    }
    if (Array.isArray(v)) return v.forEach((x, i) => scan(x, `${path}[${i}]`, depth + 1))
    if (isObject(v))
      for (const [k, x] of Object.entries(v)) {
        if (FORBIDDEN_KEYS.has(k)) errors.push(tr(`${path}.${k}：不允许的配置项`))
        else scan(x, `${path}.${k}`, depth + 1)
      }
  }

  const node = (v: unknown, path: string, depth: number) => {
    if (!isObject(v)) return errors.push(tr(`${path}：必须是对象`))
    if (++nodes > MAX_NODES) return errors.push(tr(`字段数量不能超过${MAX_NODES}个`))
    if (depth > MAX_DEPTH) return errors.push(tr(`${path}：层级过深`))
    if (v.type !== undefined && (typeof v.type !== 'string' || !SCHEMA_TYPES.includes(v.type))) errors.push(tr(`${path}.type：不支持的类型`))
    for (const key of ['x-component', 'x-decorator']) {
      const c = v[key]
      if (c === undefined) continue
      if (typeof c !== 'string' || !ALLOWED.has(c)) errors.push(tr(`${path}.${key}：不支持的组件 ${String(c)}`))
    }
    for (const key of ['x-component-props', 'x-decorator-props']) {
      const p = v[key]
      if (p !== undefined && !isObject(p)) errors.push(tr(`${path}.${key}：必须是对象`))
    }
    if (v.properties !== undefined) {
      if (!isObject(v.properties)) errors.push(tr(`${path}.properties：必须是对象`))
      else for (const [name, child] of Object.entries(v.properties)) node(child, `${path}.properties.${name}`, depth + 1)
    }
    if (v.items !== undefined) node(v.items, `${path}.items`, depth + 1)
  }

  if (!isObject(value)) return { ok: false, errors: [tr('表单配置必须是JSON对象')] }
  if (value.type !== 'object') errors.push(tr('根节点的 type 必须是 object'))
  node(value, '$', 0)
  scan(value, '$', 0)
  return errors.length ? { ok: false, errors } : { ok: true, schema: value as FormSchemaNode }
}

/** The JSON Schema Monaco validates the editor's text against (completion and squiggles). */
export function formSchemaJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'lowcode://formily-schema.json',
    $ref: '#/definitions/node',
    definitions: {
      node: {
        type: 'object',
        properties: {
          type: { enum: SCHEMA_TYPES },
          title: { type: 'string' },
          description: { type: 'string' },
          default: {},
          enum: { type: 'array' },
          required: { type: ['boolean', 'array'] },
          'x-component': { enum: [...FORM_COMPONENTS] },
          'x-decorator': { enum: [...FORM_COMPONENTS] },
          'x-component-props': { type: 'object' },
          'x-decorator-props': { type: 'object' },
          'x-validator': {},
          'x-disabled': { type: 'boolean' },
          'x-hidden': { type: 'boolean' },
          'x-display': { enum: ['visible', 'hidden', 'none'] },
          'x-index': { type: 'number' },
          properties: { type: 'object', additionalProperties: { $ref: '#/definitions/node' } },
          items: { $ref: '#/definitions/node' },
        },
        not: { anyOf: [{ required: ['x-reactions'] }, { required: ['x-linkages'] }, { required: ['x-effect'] }] },
      },
    },
  }
}

/** An example form for a new custom form. */
export const EXAMPLE_FORM_SCHEMA = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      title: '名称', // i18n-ignore (an example the admin edits, stored as typed)
      required: true,
      'x-decorator': 'FormItem',
      'x-component': 'Input',
    },
  },
}
