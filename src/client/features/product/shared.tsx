import { useLayoutEffect, type CSSProperties, type ReactNode } from 'react'
import { InputNumber, Typography } from 'antd'
import { isField, onFieldInputValueChange, onFieldReact, type Form } from '@formily/core'
import { useField, useForm } from '@formily/react'

/** Form values of an entity form, as the controls read them. */
export type Values = Record<string, unknown>

const installed = new WeakMap<Form, Set<string>>()

/**
 * Shows the control's whole form item only while `shown(values)` holds (the bundle lines for a
 * BUNDLE, the values of a choice property). Formily's display `none` takes the value out of the
 * form's values (so it is not sent) and brings it back when the item shows again. The reaction lives
 * on the form, not in this component, since a hidden field renders nothing.
 */
export function useShownWhen(name: string, shown: (values: Values) => boolean): void {
  const form = useForm()
  const field = useField()
  const address = field.address.toString()
  useLayoutEffect(() => {
    let done = installed.get(form)
    if (!done) installed.set(form, (done = new Set()))
    if (done.has(address)) return
    done.add(address)
    form.addEffects(`product:${name}:${address}`, () => {
      onFieldReact(address, (target) => {
        target.display = shown(form.values as Values) ? 'visible' : 'none'
      })
    })
    // Installed once per form and field: the reaction must outlive this component.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, address])
}

/**
 * Takes server messages off the form's fields once the user changes what they are about. The form
 * puts a refused save's message on the field the server named (a Formily `EffectError`), which
 * nothing else removes, so the form would refuse every later save with the same stale message.
 */
export function clearServerErrors(form: Form, match: (message: string) => boolean): void {
  for (const field of Object.values(form.fields)) {
    if (!isField(field)) continue
    const own = field.feedbacks.filter((f) => f.type === 'error' && f.code === 'EffectError').flatMap((f) => f.messages ?? [])
    if (own.some((m) => match(String(m))))
      field.setFeedback({ type: 'error', code: 'EffectError', messages: own.filter((m) => !match(String(m))) })
  }
}

/** Clears matching server messages when the user edits one of these fields (installed once per form). */
export function useClearOnInput(name: string, patterns: readonly string[], match: (message: string) => boolean): void {
  const form = useForm()
  useLayoutEffect(() => {
    let done = installed.get(form)
    if (!done) installed.set(form, (done = new Set()))
    const key = `clear:${name}`
    if (done.has(key)) return
    done.add(key)
    form.addEffects(`product:${key}`, () => {
      for (const p of patterns) onFieldInputValueChange(p, () => clearServerErrors(form, match))
    })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form])
}

/** Money as the product fields edit it: decimal text, two places, not negative. */
export function PriceInput(props: {
  value: string | null | undefined
  onChange: (value: string | null) => void
  disabled?: boolean
  'aria-label': string
  placeholder?: string
  style?: CSSProperties
}) {
  return (
    <InputNumber<string>
      stringMode
      precision={2}
      min="0"
      value={props.value ?? null}
      disabled={props.disabled}
      aria-label={props['aria-label']}
      placeholder={props.placeholder}
      style={{ width: '100%', ...props.style }}
      onChange={(v) => props.onChange(v === null || v === undefined || v === '' ? null : String(v))}
    />
  )
}

/**
 * The box of a control that holds a wide table: as wide as the form item, never wider. Formily's
 * item control is a flex item with `min-width: auto`, so a table's own width would otherwise stretch
 * the item past the dialog; `contain: inline-size` keeps the table's width out of that sum and the
 * table scrolls inside instead.
 */
export const FILL: CSSProperties = { width: '100%', minWidth: 0, contain: 'inline-size' }

/** The ids of a multiple ref value. */
export const idsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : typeof value === 'string' && value ? [value] : []

export const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true'

/** Grey helper text under or inside a control. */
export const Hint = ({ children, type }: { children: ReactNode; type?: 'secondary' | 'warning' | 'danger' }) => (
  <Typography.Text type={type ?? 'secondary'} style={{ fontSize: 12 }}>
    {children}
  </Typography.Text>
)

/** A read-only value the way detail forms show an empty one. */
export const shown = (v: unknown) => (v === undefined || v === null || v === '' ? '-' : String(v))
