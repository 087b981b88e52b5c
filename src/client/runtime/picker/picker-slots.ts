import type { ComponentType } from 'react'
import type { Meta } from '../../api/meta.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'

/** The entity form a picker opens for 新增, closed while `dialog` is null. */
export interface PickerAddFormProps {
  meta: Meta
  entity: EntityModel
  dialog: { mode: 'add' } | null
  onClose: () => void
  onSaved: (id?: string) => void
}

/** A picker field of a search form (Form.Item gives it value and onChange). */
export interface SearchPickerProps {
  kind: string
  multiple?: boolean
  placeholder?: string
  'aria-label'?: string
}

let addForm: ComponentType<PickerAddFormProps> | undefined
let searchPicker: ComponentType<SearchPickerProps> | undefined

/*
 * Pickers nest: a form renders pickers and a picker opens a form to add a row; a picker's dialog has a
 * search form whose fields may be pickers. So neither side imports the other: the signed-in app fills
 * these slots (root/SignedIn.tsx) before any form, list or picker shows.
 */

export function providePickerAddForm(component: ComponentType<PickerAddFormProps>): void {
  addForm = component
}

export const pickerAddForm = (): ComponentType<PickerAddFormProps> | undefined => addForm

export function provideSearchPicker(component: ComponentType<SearchPickerProps>): void {
  searchPicker = component
}

export const searchPickerInput = (): ComponentType<SearchPickerProps> | undefined => searchPicker
