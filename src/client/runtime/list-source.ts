import { defineCall, type CallContract, type CallMethod, type PageRows } from '../../shared/contracts/call.js'
import type { Action, Field, QueryParam } from '../../shared/generated/entity.js'
import type { FieldModel } from '../../shared/metadata/entity-model.js'
import type { Meta } from '../api/meta.js'
import { searchItems, type SearchContext, type SearchItem } from './query-params.js'

export interface SortState {
  field: string
  order: 'asc' | 'desc'
}

/** A search param of a declared view, with what only a view's own call needs. */
export interface SourceParam extends QueryParam {
  /** A boolean the user ticks (default `default`), sent as true or not at all. */
  check?: boolean
  /** A date range's wire names when the call does not take `{param}Start`/`{param}End`. */
  range?: readonly [string, string]
  /** A date range chosen by whole weeks or months. */
  picker?: 'week' | 'month'
  /** Shown only to holders of one of these keys (a picker the user may not open). */
  permission?: string | string[]
}

/** One column of a declared list: a field of the view (title and cell from it) or a plain value. */
export interface SourceColumn {
  key: string
  /** Marked with term(); by default the label of the field of the same name. */
  title?: string
  width?: number
  /** Grows with its content from this width on (a custom list's 最小宽度). */
  minWidth?: number
  numeric?: boolean
  /** Default true; a column whose cell is a link or a tag is not cut. */
  ellipsis?: boolean
  fixed?: 'left' | 'right'
  /** The server orders the rows by it (`sortField`, `sortOrder`) when its header is clicked. */
  sortable?: boolean
}

/**
 * A list screen over any paged call (`{datas, totalCount}`), declared once in `src/client/views/`: where
 * the rows come from, the fixed conditions, the search inputs and the columns. The page that shows it
 * adds only what is its own (row links, toolbar buttons, tabs), so a new list is a declaration.
 */
export interface ListSource {
  /** Names the rows in the cache (with the conditions). */
  name: string
  /** The call, as the api layer takes it (after the API base)... */
  path?: string
  method?: 'get' | 'post'
  /**
   * ...or its contract. One whose params travel in both places (a custom list's: `?id`, conditions
   * posted) takes the fixed `params` in the query and the conditions, paging and order in the body.
   */
  call?: ListCall
  /** Sent with every request and not shown in the search form. */
  params?: Record<string, unknown>
  /** The fields search inputs and columns are made of: an entity's... */
  entity?: string
  /** ...or the view's own, declared as an entity file declares its fields. */
  fields?: Record<string, Field>
  /** The search form, as `views.list.query` declares it; an entity source defaults to its list view's. */
  query?: readonly SourceParam[]
  /** Whose search it is: a picker's asks for enabled records by default and sends 全部 explicitly (default a list's). */
  context?: SearchContext
  /** The search form's 重置 and Enter-to-search (default both) and the columns of one input (of 24, default 6). */
  searchForm?: { reset?: boolean; enter?: boolean; span?: number }
  columns: readonly (string | SourceColumn)[]
  /** The row's key: a property, or several joined by '-' (default `id`). */
  rowKey?: string | readonly string[]
  /** The 序号 column (default shown). */
  seq?: boolean
  size?: 'small' | 'middle'
  /** 导出 with the conditions of the search, shown to holders of the permission (at its place in `actions.toolbar`, else last). */
  export?: { path: string; method: 'get' | 'post'; permission: string | string[] }
  /** False: the call answers every row at once (a plain array) and there is no pager. */
  paged?: boolean
  /** The rows nest by this field (an outline-numbered tree table, ids in `idField`, default `id`), shown expanded unless `expanded` is false. */
  tree?: { parentField: string; idField?: string; expanded: boolean }
  /** The order of the first request. */
  sort?: SortState
  /** Who may see the rows (any one of the keys); false: nobody (the entity has no list call). */
  permission?: string | string[] | false
  /** An entity's own buttons and row links (`views.list.toolbar`, `row`), run through its call family. */
  actions?: { toolbar: readonly Action[]; row: readonly Action[] }
}

/** A list call: a page of rows, or every row at once. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ListCall = CallContract<any, PageRows<Record<string, unknown>> | Record<string, unknown>[]>

/** The call of a source: its contract, or one made of its path and method. */
export function sourceCall(source: ListSource): ListCall {
  if (source.call) return source.call
  if (!source.path) throw new Error(`list source ${source.name} has neither call nor path`)
  return defineCall((source.method ?? 'get').toUpperCase() as CallMethod, source.path)
}

/** The params of one request of a source: fixed ones in the query of a call that posts its conditions. */
export function sourceParams(call: ListCall, fixed: Record<string, unknown> | undefined, params: Record<string, unknown>): unknown {
  if (call.paramsIn !== 'both') return { ...fixed, ...params }
  return { query: fixed ?? {}, body: params }
}

/** The search inputs of a source: the engine's, with a view's own kinds of param. */
export function sourceSearchItems(source: ListSource, fields: Map<string, FieldModel>, meta: Meta, can: (keys: string | string[]) => boolean): SearchItem[] {
  const params = sourceQuery(source, meta).filter((p) => !p.permission || can(p.permission))
  return searchItems({ byName: fields }, params, meta.enums, meta.entityOrUndefined, source.context ?? 'list').map((item) => {
    const param = item.param as SourceParam
    if (param.check) return { ...item, control: 'check' as const, initial: param.default === true }
    return param.range || param.picker ? { ...item, rangeNames: param.range, picker: param.picker } : item
  })
}

/** The fields of a source by name: the entity's (already in the shown language) or the view's, labels translated. */
export function sourceFields(source: ListSource, meta: Meta, tr: (text: string) => string): Map<string, FieldModel> {
  if (source.entity) return meta.entity(source.entity).byName
  return new Map(Object.entries(source.fields ?? {}).map(([name, field]) => [name, { ...field, name, column: name, label: tr(field.label) }]))
}

/** The search params of a source: declared, or the list view's of its entity. */
export function sourceQuery(source: ListSource, meta: Meta): readonly SourceParam[] {
  if (source.query) return source.query
  return source.entity ? (meta.entity(source.entity).file.views?.list?.query ?? []) : []
}
