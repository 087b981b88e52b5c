import { Input } from 'antd'
import type { Feedback } from './feedback.js'
import { tr } from '../i18n/use-tr.js'
import { term } from '../i18n/term.js'

/** The spec's default when a prompted text does not match its pattern (000 §5). */
export const PROMPT_FORMAT_ERROR = term('输入格式错误')

export interface TextPromptOptions {
  title: string
  /** A regular expression the whole text must match (its source, as a script or a schema states it). */
  pattern?: string | RegExp
  /** Shown when the text does not match; default 输入格式错误. */
  message?: string
  placeholder?: string
  initial?: string
}

/**
 * Why a prompted text is refused, or undefined when it is accepted: a pattern that is not a valid
 * regular expression refuses everything rather than letting any text through.
 */
export function promptError(text: string, options: Pick<TextPromptOptions, 'pattern' | 'message'>): string | undefined {
  if (options.pattern === undefined || options.pattern === '') return undefined
  let pattern: RegExp
  try {
    pattern = typeof options.pattern === 'string' ? new RegExp(options.pattern) : options.pattern
  } catch {
    return options.message || tr(PROMPT_FORMAT_ERROR)
  }
  pattern.lastIndex = 0
  return pattern.test(text) ? undefined : options.message || tr(PROMPT_FORMAT_ERROR)
}

/**
 * A small dialog asking for one line of text (a button script's `prompt`): resolves with the text
 * once it matches the pattern, undefined when cancelled. A refused text keeps the dialog open and
 * shows the message under the input.
 */
export function promptText(feedback: Feedback, options: TextPromptOptions): Promise<string | undefined> {
  return new Promise((resolve) => {
    let text = options.initial ?? ''
    let shown: string | undefined
    const content = () => (
      <div className="text-prompt">
        <Input
          autoFocus
          aria-label={options.title}
          defaultValue={text}
          placeholder={options.placeholder}
          status={shown ? 'error' : undefined}
          onChange={(e) => {
            text = e.target.value
            if (shown && !promptError(text, options)) update(undefined)
          }}
        />
        {shown && (
          <div role="alert" className="ant-form-item-explain-error text-prompt-error">
            {shown}
          </div>
        )}
      </div>
    )
    const dialog = feedback.modal.confirm({
      title: options.title,
      icon: null,
      content: content(),
      onOk: () => {
        const error = promptError(text, options)
        if (error) {
          update(error)
          // A rejected promise keeps antd's dialog open.
          return Promise.reject(new Error(error))
        }
        resolve(text)
        return undefined
      },
      onCancel: () => resolve(undefined),
    })
    function update(error: string | undefined) {
      shown = error
      dialog.update({ content: content() })
    }
  })
}
