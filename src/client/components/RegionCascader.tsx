import { Cascader } from 'antd'
import type { CSSProperties } from 'react'
import { regionCodes, regionPath, regions, type RegionNode } from '../../shared/region/regions.js'
import { useTr } from '../i18n/use-tr.js'

export { regionPath } from '../../shared/region/regions.js'

export interface RegionCascaderProps {
  /** The district code (the last level chosen). */
  value?: string | null
  onChange?: (code: string | undefined) => void
  disabled?: boolean
  readOnly?: boolean
  /** Show the path as text (Formily detail forms). */
  readPretty?: boolean
  placeholder?: string
  id?: string
  'aria-label'?: string
  style?: CSSProperties
}

const FIELD_NAMES = { label: 'name', value: 'code', children: 'children' } as const

/**
 * Province / city / district choice that stores only the district code (the supplier's cityId) and
 * shows the whole path.
 */
export default function RegionCascader({ value, onChange, disabled, readOnly, readPretty, placeholder, id, style, ...rest }: RegionCascaderProps) {
  const tr = useTr()
  if (readPretty) return <span>{regionPath(value, ' / ') || value || ''}</span>
  return (
    <Cascader<RegionNode>
      id={id}
      aria-label={rest['aria-label']}
      options={regions}
      fieldNames={FIELD_NAMES}
      value={regionCodes(value)}
      onChange={(codes) => onChange?.(codes?.length ? String(codes[codes.length - 1]) : undefined)}
      disabled={disabled || readOnly}
      placeholder={placeholder ?? tr('请选择地区')}
      showSearch={{ filter: (input, path) => path.some((n) => n.name.includes(input.trim())) }}
      style={{ width: '100%', ...style }}
    />
  )
}
