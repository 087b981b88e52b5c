import { Select } from 'antd'
import { useCall } from '../app/use-call.js'
import { dictionary } from '../../shared/contracts/lowcode.js'

export interface DictionarySelectProps {
  /** the dictionary's code (`GET /system/dic/item/bydic?code`) */
  dicCode?: string
  /** What a choice stores: the item's code (custom forms and lists) or its name (an entity field's `dictionary`). */
  stores?: 'code' | 'name'
  multiple?: boolean
  allowClear?: boolean
  placeholder?: string
  value?: unknown
  onChange?: (v: unknown) => void
  disabled?: boolean
  id?: string
  'aria-label'?: string
}

/**
 * A select over the enabled items of one data dictionary. A stored value that is no item (text kept
 * from before the field offered the dictionary) is still shown as it is.
 */
export default function DictionarySelect({ dicCode, stores = 'code', multiple = false, allowClear = true, ...rest }: DictionarySelectProps) {
  const { data } = useCall(Boolean(dicCode) && dictionary.itemsByDic, { code: dicCode ?? '' }, { swr: { revalidateOnFocus: false } })
  const options = (data ?? []).map((i) => ({ label: i.name, value: i[stores] }))
  const kept = typeof rest.value === 'string' && rest.value && !options.some((o) => o.value === rest.value) ? [{ label: rest.value, value: rest.value }] : []
  return <Select {...rest} style={{ width: '100%' }} mode={multiple ? 'multiple' : undefined} allowClear={allowClear} options={[...options, ...kept]} />
}
