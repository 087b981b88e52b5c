import type { EntityFile, RowAction, SourceFollow } from '../generated/entity.js'
import { defineCall, type Page, type PageParams, type PageRows } from './call.js'

type DocumentSection = NonNullable<EntityFile['document']>
type LinePick = NonNullable<DocumentSection['lines']['pick']>

/** A document (or one of its list rows) as the server answers it: wire names, ref labels beside the ids. */
export type DocumentRow = Record<string, unknown> & { id: string }

/** One document as `GET {base}?id=` answers it: header values, `details` lines, maybe `payTypes`. */
export type DocumentRecord = DocumentRow & { details?: Record<string, unknown>[]; payTypes?: Record<string, unknown>[] }

/** What create and modify post: header values, `products` lines, maybe `payTypes` (and `id` to modify). */
export type DocumentBody = Record<string, unknown>

/** The conditions of a document list, as its list view declares them, with the paging params. */
export type DocumentQuery = PageParams & Record<string, unknown>

export interface RefuseParams {
  id: string
  refuseReason: string
}

export interface BatchRefuseParams {
  ids: string[]
  refuseReason: string
}

/**
 * The shared document family (spec 000 §7 "Document APIs") of one document kind, from its `api.base`:
 * the server registers its routes from these (engine/document-routes.ts) and the document pages call them,
 * so a path of the family is spelled here only.
 */
export function documentCalls(base: string) {
  return {
    query: defineCall<DocumentQuery, Page<DocumentRow>>('GET', `${base}/query`),
    /** Streams every matching document (served for GET too), conditions in the query. */
    export: defineCall<DocumentQuery, Blob>('POST', `${base}/export`, 'query'),
    get: defineCall<{ id: string }, DocumentRecord>('GET', base),
    create: defineCall<DocumentBody, string>('POST', base),
    modify: defineCall<DocumentBody, null>('PUT', base),
    remove: defineCall<{ id: string }, null>('DELETE', base),
    removeBatch: defineCall<string[], null>('DELETE', `${base}/batch`),
    /** Creates and approves in one transaction; answers the new id. */
    createAndApprove: defineCall<DocumentBody, string>('POST', `${base}/approve/pass/direct`),
    approvePass: defineCall<{ id: string; description?: string }, null>('PATCH', `${base}/approve/pass`),
    approveRefuse: defineCall<RefuseParams, null>('PATCH', `${base}/approve/refuse`),
    approvePassBatch: defineCall<{ ids: string[]; description?: string }, null>('PATCH', `${base}/approve/pass/batch`),
    approveRefuseBatch: defineCall<BatchRefuseParams, null>('PATCH', `${base}/approve/refuse/batch`),
    /** Where the file says `cancelApprove`. */
    approveCancel: defineCall<{ id: string }, null>('PATCH', `${base}/approve/cancel`),
  }
}

export type DocumentCalls = ReturnType<typeof documentCalls>

/**
 * The calls a document file declares beyond its family, each from the declaration that names its path,
 * so the page that makes a call and the module that serves it read the path from the same place.
 */
export const declaredCalls = {
  /** `follows.loader`: the source document in an allowed status with its open lines (`remainNum`). */
  sourceLoader: (follows: Pick<SourceFollow, 'loader'>) => defineCall<{ id: string }, DocumentRecord>('GET', follows.loader),
  /** `paymentDate`: the party's payment terms for the header's 付款日期. */
  paymentDate: (rule: NonNullable<DocumentSection['paymentDate']>) =>
    defineCall<Record<string, unknown> | undefined, { paymentDate?: string | null; allowModify?: boolean }>('GET', rule.path),
  /** `productSearch`: the line table's quick product search, each product with its stock at `scId`. */
  productSearch: (path: string) => defineCall<{ scId?: string; condition: string }, Record<string, unknown>[]>('GET', path),
  /** `lines.pick.candidates`: a page of rows that may become lines, of the header's party and date range. */
  candidates: (candidates: Pick<NonNullable<LinePick['candidates']>, 'path'>) =>
    defineCall<PageParams & Record<string, unknown>, PageRows<Record<string, unknown>>>('GET', candidates.path),
  /** `lineCalcs[]`: a header value derived from what the lines refer to (ids comma-separated in `param`). */
  lineCalc: (calc: NonNullable<DocumentSection['lineCalcs']>[number]) => defineCall<Record<string, string>, string>('GET', calc.path),
  /** `rowActions[].call`: the list's row action made with the row's id. */
  rowAction: (action: NonNullable<RowAction['call']>) =>
    defineCall<{ id: string }, unknown>(action.method === 'get' ? 'GET' : 'PATCH', action.path),
}
