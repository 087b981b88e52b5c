import type { FormControlProps } from '../components/form-controls.js'
import LazyMonaco from './LazyMonaco.js'

/**
 * The editor of a low-code script field (formatter, button script, prefix/suffix submit, page
 * script): Monaco in JavaScript mode. The text is stored as is; it only ever runs in the sandbox.
 */
export default function ScriptEditor({ value, onChange, readOnly, readPretty, disabled, height = 200, ...rest }: FormControlProps & { height?: number }) {
  const text = typeof value === 'string' ? value : ''
  return (
    <LazyMonaco
      language="javascript"
      value={text}
      height={height}
      readOnly={readOnly || readPretty || disabled}
      ariaLabel={rest['aria-label']}
      onChange={(v) => onChange?.(v)}
    />
  )
}
