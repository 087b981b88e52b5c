import { Select } from 'antd'
import { useCall } from '../app/use-call.js'
import { dictionary } from '../../shared/contracts/lowcode.js'

export interface DataDicSelectProps {
  /** the dictionary's code (`GET /system/dic/item/bydic?code`) */
  dicCode?: string
  multiple?: boolean
  placeholder?: string
  value?: unknown
  onChange?: (v: unknown) => void
  disabled?: boolean
  id?: string
  'aria-label'?: string
}

/** A select over the items of one data dictionary (value: the item's code), for query forms and custom forms. */
export default function DataDicSelect({ dicCode, multiple = false, ...rest }: DataDicSelectProps) {
  const { data } = useCall(Boolean(dicCode) && dictionary.itemsByDic, { code: dicCode ?? '' }, { swr: { revalidateOnFocus: false } })
  return <Select {...rest} style={{ width: '100%' }} mode={multiple ? 'multiple' : undefined} allowClear options={(data ?? []).map((i) => ({ label: i.name, value: i.code }))} />
}
