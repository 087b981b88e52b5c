import { useEffect, useMemo, useState } from 'react'
import { Select, Space } from 'antd'
import { MenuIcon } from './MenuIcon.js'
import { useTr } from '../i18n/use-tr.js'
import { ICON_DROPDOWN_HEIGHT } from '../../shared/look/ui-constants.js'
import { ancestorIconName } from './icon-names.js'

export interface IconPickerProps {
  value?: string | null
  onChange?: (value: string | null) => void
  disabled?: boolean
  readOnly?: boolean
  readPretty?: boolean
  placeholder?: string
  id?: string
  'aria-label'?: string
  style?: React.CSSProperties
}

let names: string[] | undefined
let loading: Promise<string[]> | undefined

/** Icon names of the built-in set (antd's outlined, filled and two-tone), loaded with the icon chunk. */
const loadNames = () =>
  (loading ??= import('./all-icons.js').then((m) => (names = Object.keys(m).filter((n) => /(Outlined|Filled|TwoTone)$/.test(n)).sort())))

/**
 * The spec's icon picker (000 §2 "Icon picker"): a dropdown 200 px high (000 §9) with search over the
 * built-in names, found by antd's name or the ancestor's (`shopping-cart`), each drawn beside its name;
 * a saved name that is not a built-in one (a custom icon) shows under 自定义图标 and stays selectable as
 * is, so nothing is lost on save.
 */
export default function IconPicker({ value, onChange, disabled, readOnly, readPretty, placeholder, id, style, ...rest }: IconPickerProps) {
  const tr = useTr()
  const [all, setAll] = useState<string[] | undefined>(names)
  useEffect(() => {
    if (all) return
    let live = true
    void loadNames().then((n) => live && setAll(n))
    return () => {
      live = false
    }
  }, [all])
  const options = useMemo(() => {
    const list = all ?? []
    const own = value && !list.includes(value) ? [{ label: tr('自定义图标'), options: [option(value)] }] : []
    return [...own, { label: tr('内置图标'), options: list.map(option) }]
  }, [all, value])
  if (readPretty)
    return value ? (
      <Space size={6}>
        <MenuIcon name={value} />
        {value}
      </Space>
    ) : (
      <span>-</span>
    )
  return (
    <Select
      id={id}
      aria-label={rest['aria-label']}
      showSearch
      allowClear
      loading={!all}
      disabled={disabled || readOnly}
      placeholder={placeholder ?? tr('请选择图标')}
      style={{ width: '100%', ...style }}
      value={value || undefined}
      options={options}
      filterOption={(input, o) => {
        const name = (o as { value?: unknown } | undefined)?.value
        const typed = input.trim().toLowerCase()
        return typeof name === 'string' && (name.toLowerCase().includes(typed) || ancestorIconName(name).includes(typed))
      }}
      onChange={(v: string | undefined) => onChange?.(v ?? null)}
      popupMatchSelectWidth={false}
      listHeight={ICON_DROPDOWN_HEIGHT}
      popupClassName="icon-picker-dropdown"
    />
  )
}

function option(name: string) {
  return {
    value: name,
    label: (
      <Space size={6}>
        <MenuIcon name={name} />
        <span>{name}</span>
      </Space>
    ),
  }
}
