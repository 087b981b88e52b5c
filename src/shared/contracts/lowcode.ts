import { defineCall } from './call.js'

/** Calls of the low-code designers (001 §7 Low code). */

export interface GeneratedFile {
  fileName: string
  content: string
}

/** A column of a data entity, as its join and query-field editors pick it. */
export interface EntityColumn {
  id: string
  columnName: string
  name: string
}

export interface DicItem {
  code: string
  name: string
}

export const lowcode = {
  /** The files generated from a data entity. */
  entityPreview: defineCall<{ id: string }, GeneratedFile[]>('GET', '/gen/data/entity/preview'),
  entityColumns: defineCall<{ id: string }, EntityColumn[]>('GET', '/gen/data/entity/columns'),
  /** The columns of a database table, as rows of a new data entity's columns. */
  tableColumns: defineCall<{ tableName: string }, Record<string, unknown>[]>('GET', '/gen/simpledb/columns'),
}

export const dictionary = {
  /** The items of one dictionary, by the dictionary's code. */
  itemsByDic: defineCall<{ code: string }, DicItem[]>('GET', '/system/dic/item/bydic'),
}

/** `GET /chart/order`: the workplace's order chart (read by pages/workplace/order-chart-data.ts). */
export const chart = {
  order: defineCall<void, unknown>('GET', '/chart/order'),
}

/** A custom form as the form designer reads and saves it (`/gen/custom/form`). */
export interface CustomFormRecord extends Record<string, unknown> {
  id: string
  name: string
  formConfig?: string
}

export const customForm = {
  get: defineCall<{ id: string }, CustomFormRecord>('GET', '/gen/custom/form'),
  create: defineCall<{ name: string; formConfig: string; isDialog: boolean; requireQuery: boolean; available: boolean }, string>('POST', '/gen/custom/form'),
  modify: defineCall<CustomFormRecord, null>('PUT', '/gen/custom/form'),
}
