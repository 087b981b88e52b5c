import { defineCall, defineRead, type Page } from './call.js'

/** Product calls of the hand-written product form controls (001 §7 Base data; server: modules/basedata/product-property.ts, the pickers' routes). */

/** A product property a category's products fill in (`GET /basedata/product/property/modelor/category`). */
export interface PropertyDef {
  id: string
  code: string
  name: string
  isRequired: unknown
  /** COLUMN_TYPE */
  columnType: number
  /** COLUMN_DATA_TYPE */
  columnDataType: number | null
  propertyType: number
  items?: { id: string; code: string; name: string }[]
}

/** A picker row (wire names of the entity's schema). */
export type PickerRow = Record<string, unknown> & { id: string }

export const product = {
  /** The properties of a category: common ones and those appointed to it or an ancestor. */
  categoryProperties: defineCall<{ categoryId: string }, PropertyDef[]>('GET', '/basedata/product/property/modelor/category'),
  /** Sale property groups by id (the picker's load: a JSON array of ids). */
  salePropGroups: defineRead<string[], PickerRow[]>('/selector/salepropgroup/load'),
  /** The items of a sale property group, enabled or not with `available: 'all'`. */
  saleProps: defineCall<{ groupId: string; available: 'all'; pageSize: number }, Page<PickerRow>>('GET', '/selector/saleprop'),
}
