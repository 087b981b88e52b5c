import { defineCall, defineRead, type FileAnswer, type Page, type PageParams, type QueryAndBody } from './call.js'
import type { CustomFormConfig, CustomListConfig, CustomPageConfig, CustomSelectorConfig, ListCondition, ListRow } from './lowcode-wire.js'

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
  /** The tenant's tables a data entity may be made from, searched by name or comment. */
  tables: defineCall<PageParams & { tableName?: string }, Page<GenTable>>('GET', '/selector/gen/table'),
  /** The data entity of a table, made from its columns; its id. */
  syncTable: defineCall<{ tableName: string; name?: string }, string>('POST', '/gen/data/entity/sync/table'),
}

export interface GenTable {
  tableName: string
  tableComment: string
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

export type Choice = { id: string; name: string }

/** The designers' pickers of data entities, custom forms and dictionaries. */
export const lowcodeChoices = {
  entities: defineCall<PageParams, Page<Choice>>('GET', '/selector/gen/data/entity'),
  forms: defineCall<PageParams, Page<Choice>>('GET', '/selector/gen/custom/form'),
  dics: defineCall<PageParams, Page<Choice & { code: string }>>('GET', '/selector/dic'),
  objColumns: defineCall<{ id: string }, ObjColumnOption[]>('GET', '/gen/data/obj/columns'),
}

/** The conditions of a custom list's run-time query (`?id` names the list). */
export type ListQueryBody = PageParams & { conditions: ListCondition[]; sortField?: string; sortOrder?: 'asc' | 'desc' }
export type ListQuery = QueryAndBody<{ id: string }, ListQueryBody>

/** The low-code run time (001 §3): the configs screens render and a custom list's rows. */
export const lowcodeRuntime = {
  listConfig: defineCall<{ id: string }, CustomListConfig>('GET', '/gen/api/custom/list/config'),
  formConfig: defineCall<{ id: string }, CustomFormConfig>('GET', '/gen/api/custom/form/config'),
  pageConfig: defineCall<{ id: string }, CustomPageConfig>('GET', '/gen/api/custom/page/config'),
  selectorConfig: defineCall<{ id: string }, CustomSelectorConfig>('GET', '/gen/api/custom/selector/config'),
  /** A page of rows (or all of them, as one page, when the list is not paged). */
  query: defineRead<ListQuery, Page<ListRow>>('/gen/api/custom/list/query', 'both'),
  queryList: defineRead<ListQuery, ListRow[]>('/gen/api/custom/list/query/list', 'both'),
  queryTree: defineRead<ListQuery, ListRow[]>('/gen/api/custom/list/query/tree', 'both'),
  /** The rows of the conditions as an .xlsx (lists that allow export). */
  exportList: defineCall<ListQuery, FileAnswer>('POST', '/gen/api/custom/list/query/list/export', 'both'),
  /** A form's initial values from its query handler (null when the form reads none). */
  formValues: defineRead<QueryAndBody<{ id: string }, Record<string, unknown>>, Record<string, unknown> | null>('/gen/api/custom/form/get', 'both'),
  /** The form's submit handler (its answer is the handler's). */
  submitForm: defineCall<QueryAndBody<{ id: string }, Record<string, unknown>>, unknown>('POST', '/gen/api/custom/form/handle', 'both'),
}
