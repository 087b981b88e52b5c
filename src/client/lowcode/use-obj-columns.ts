import { onFieldValueChange } from '@formily/core'
import { useForm, useFormEffects } from '@formily/react'
import { useState } from 'react'
import { useCall } from '../app/use-call.js'
import { lowcodeChoices, type ObjColumnOption } from '../../shared/contracts/lowcode.js'

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
  const { data } = useCall(id !== undefined && lowcodeChoices.objColumns, { id: id ?? '' }, { swr: { revalidateOnFocus: false } })
  return data ?? []
}
