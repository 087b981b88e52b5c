import { useLayoutEffect, useRef } from 'react'
import { Input } from 'antd'
import { onFieldInputValueChange } from '@formily/core'
import { useForm } from '@formily/react'
import type { FormControlProps } from './form-controls.js'

let forms = 0

export interface ProposedInputProps extends FormControlProps {
  placeholder?: string
  /** The fields (a Formily path pattern) whose change by the user asks for a new proposal. */
  watch: string
  /** The proposal from the form's values; undefined leaves the value as it is. */
  propose: (values: Record<string, unknown>) => Promise<string | undefined>
}

/**
 * A text field that proposes its value from other fields of the form (a menu's 路由路径, a data
 * object's 主表别名) while the user has not typed one; what the user types, or a stored value, stays.
 * Only the proposal of the latest change is taken.
 */
export default function ProposedInput({ value, onChange, disabled, readPretty, id, placeholder, watch, propose, 'aria-label': ariaLabel }: ProposedInputProps) {
  const form = useForm()
  const own = useRef(typeof value === 'string' && value !== '')
  const latest = useRef({ onChange, propose })
  latest.current = { onChange, propose }

  useLayoutEffect(() => {
    const key = `proposed-input:${++forms}`
    let asked = 0
    form.addEffects(key, () => {
      onFieldInputValueChange(watch, async () => {
        if (own.current) return
        const ask = ++asked
        const proposed = await latest.current.propose(form.values as Record<string, unknown>)
        if (own.current || ask !== asked || proposed === undefined) return
        latest.current.onChange?.(proposed)
      })
    })
    return () => form.removeEffects(key)
  }, [form, watch])

  if (readPretty) return <span>{typeof value === 'string' ? value : ''}</span>
  return (
    <Input
      id={id}
      aria-label={ariaLabel}
      disabled={disabled}
      value={typeof value === 'string' ? value : ''}
      placeholder={placeholder}
      onChange={(e) => {
        own.current = e.target.value !== ''
        onChange?.(e.target.value)
      }}
    />
  )
}
