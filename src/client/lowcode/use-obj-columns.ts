import { onFieldValueChange } from '@formily/core'
import { useForm, useFormEffects } from '@formily/react'
import { useState } from 'react'
import useSWR from 'swr'
import { api } from '../api/http.js'

/** One column a data object offers (`GET /gen/data/obj/columns?id`). */
export interface ObjColumnOption {
  id: string
  relaId: string
  columnName: string
  tableAlias: string
  dbColumnName: string
  name: string
  dataType: number
  viewType: number
  fixEnum: boolean
  enumFront: string | null
  dataDicId: string | null
  customSelectorId: string | null
  isKey?: boolean
}

/** A sibling value of the Formily form being edited, followed live. */
export function useSiblingValue(name: string, fallback?: unknown): unknown {
  const form = useForm()
  const [value, setValue] = useState<unknown>(() => form?.values?.[name] ?? fallback)
  useFormEffects(() => onFieldValueChange(name, (field) => setValue((field as { value?: unknown }).value)))
  return value ?? fallback
}

/** The columns of the data object chosen in the same form (`dataObjId`). */
export function useObjColumns(dataObjId: unknown): ObjColumnOption[] {
  const id = typeof dataObjId === 'string' && dataObjId ? dataObjId : undefined
  const { data } = useSWR(id ? ['/gen/data/obj/columns', id] : null, () => api.get<ObjColumnOption[]>('/gen/data/obj/columns', { id }), { revalidateOnFocus: false })
  return data ?? []
}
