import { Select } from 'antd'
import useSWR from 'swr'
import { api } from '../api/http.js'

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
  const { data } = useSWR(dicCode ? ['dic-items', dicCode] : null, () => api.get<{ code: string; name: string }[]>('/system/dic/item/bydic', { code: dicCode }), { revalidateOnFocus: false })
  return <Select {...rest} style={{ width: '100%' }} mode={multiple ? 'multiple' : undefined} allowClear options={(data ?? []).map((i) => ({ label: i.name, value: i.code }))} />
}
