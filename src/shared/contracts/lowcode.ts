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
