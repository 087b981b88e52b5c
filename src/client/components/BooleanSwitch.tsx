import { Switch, Tag } from 'antd'
import { useTr } from '../i18n/use-tr.js'

export interface BooleanSwitchProps {
  value?: boolean | null
  onChange?: (value: boolean) => void
  disabled?: boolean
  readOnly?: boolean
  readPretty?: boolean
  /** Labels of true/false (启用/停用 for the status enumeration, 是/否 otherwise). */
  trueLabel?: string
  falseLabel?: string
  /** Tag colours of true/false in detail forms (the enumeration's colours), plain text without them. */
  trueColor?: string
  falseColor?: string
  id?: string
  'aria-label'?: string
}

/** A switch for boolean fields that reads as its label (coloured for status) in detail forms. */
export default function BooleanSwitch({ value, onChange, disabled, readOnly, readPretty, trueLabel: trueText, falseLabel: falseText, trueColor, falseColor, id, ...rest }: BooleanSwitchProps) {
  const tr = useTr()
  const trueLabel = trueText ?? tr('是')
  const falseLabel = falseText ?? tr('否')
  if (readPretty) {
    if (value === null || value === undefined) return null
    const color = value ? trueColor : falseColor
    const label = value ? trueLabel : falseLabel
    return color ? <Tag color={color}>{label}</Tag> : <span>{label}</span>
  }
  return (
    <Switch
      id={id}
      aria-label={rest['aria-label']}
      checked={Boolean(value)}
      onChange={(checked) => onChange?.(checked)}
      disabled={disabled || readOnly}
      checkedChildren={trueLabel}
      unCheckedChildren={falseLabel}
    />
  )
}
