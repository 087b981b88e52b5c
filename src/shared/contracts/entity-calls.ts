import { defineCall, type Page, type PageParams } from './call.js'

/** One record of an entity as the server answers it (wire names, ref labels beside the ids). */
export type EntityRecord = Record<string, unknown> & { id: string }

/** The conditions of an entity list: its view's search params by wire name, paging and order. */
export type EntityQuery = PageParams & Record<string, unknown> & { sortField?: string; sortOrder?: 'asc' | 'desc' }

/** What 删除 names: one record, or several (the batch button). */
export interface EntityIds {
  id?: string
  ids?: string[]
}

/**
 * The generic calls of an entity's master-data family, all under its `api.base` (spec 000 §7): the
 * engine registers its routes from these (`engine/master-data-routes.ts`) and the list, the form and
 * the pickers call through them, so a path or a method is written once.
 */
export function entityCalls(base: string) {
  return {
    /** A page of rows; a list declared `paged: false` answers every row as a plain array. */
    query: defineCall<EntityQuery, Page<EntityRecord> | EntityRecord[]>('GET', `${base}/query`),
    /** Every row of a tree entity that has no `/query`. */
    trees: defineCall<EntityQuery, EntityRecord[]>('GET', `${base}/trees`),
    get: defineCall<{ id: string }, EntityRecord>('GET', base),
    /** Answers the new record's id. */
    create: defineCall<Record<string, unknown>, string>('POST', base),
    modify: defineCall<Record<string, unknown> & { id: string }>('PUT', base),
    delete: defineCall<EntityIds>('DELETE', base),
    enable: defineCall<string[]>('PATCH', `${base}/enable/batch`),
    unable: defineCall<string[]>('PATCH', `${base}/unable/batch`),
    /** The rows of the search as a workbook (a blob, not the envelope), conditions in the query; served for GET too. */
    export: defineCall<EntityQuery, Blob>('POST', `${base}/export`, 'query'),
  }
}

export type EntityCalls = ReturnType<typeof entityCalls>
