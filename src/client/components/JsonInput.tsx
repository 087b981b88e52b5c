import { useEffect, useState } from 'react'
import { Input } from 'antd'

export interface JsonInputProps {
  /** Any JSON value; text that does not parse is passed on as the raw string. */
  value?: unknown
  onChange?: (value: unknown) => void
  disabled?: boolean
  readOnly?: boolean
  readPretty?: boolean
  placeholder?: string
  id?: string
  'aria-label'?: string
}

const toText = (value: unknown) =>
  value === undefined || value === null || value === '' ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2)

/**
 * The fallback editor of `json` fields: the value as indented JSON text. Feature modules replace it
 * with a real editor through `registerFormControl`.
 */
export default function JsonInput({ value, onChange, disabled, readOnly, readPretty, placeholder, id, ...rest }: JsonInputProps) {
  const [text, setText] = useState(() => toText(value))
  useEffect(() => {
    // Follow outside changes (form reset, a new record) without fighting the user's half-typed text.
    setText((current) => {
      try {
        if (current.trim() && JSON.stringify(JSON.parse(current)) === JSON.stringify(value)) return current
      } catch {
        if (current === value) return current
      }
      return toText(value)
    })
  }, [value])
  if (readPretty) return <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{text}</pre>
  return (
    <Input.TextArea
      id={id}
      aria-label={rest['aria-label']}
      value={text}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholder}
      autoSize={{ minRows: 2, maxRows: 10 }}
      style={{ fontFamily: 'monospace' }}
      onChange={(e) => {
        const next = e.target.value
        setText(next)
        if (next.trim() === '') return onChange?.(null)
        try {
          onChange?.(JSON.parse(next))
        } catch {
          onChange?.(next)
        }
      }}
    />
  )
}
