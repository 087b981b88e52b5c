import type { EntityFile } from '../generated/entity.js'
import type { EnumsFile } from '../generated/enums.js'
import { defineCall, type Page, type PageParams } from './call.js'

/** What the browser runtime renders from: every entity file and the enumerations, as the server loaded them. */
export interface MetaBundle {
  entities: Record<string, EntityFile>
  enums: EnumsFile
}

export const meta = {
  bundle: defineCall<void, MetaBundle>('GET', '/meta/bundle'),
}

/** One call of the OpenAPI document (`GET /openapi.json`), as 接口文档 lists them. */
export interface ApiCallRow {
  /** The method and the path: `GET /sale/out/sheet/query`. */
  id: string
  /** Its group in the document: the path's first segment (`sale`). */
  tag: string
  method: string
  path: string
  summary: string
  /** Any one of these keys lets a caller through; empty when `access` is not `permission`. */
  permissions: string[]
  /** Who may call it: `permission` (one of the keys), `login` (anyone signed in), `public`. */
  access: string
}

export interface ApiCallParams extends PageParams {
  /** Part of the method and path (`post /sale/`), the summary or a permission key, in any case. */
  keyword?: string
}

/** 接口文档 (开发管理): the calls of the OpenAPI document, searched and paged; the document itself is `GET /openapi.json`. */
export const apiDocs = {
  query: defineCall<ApiCallParams, Page<ApiCallRow>>('GET', '/development/api-docs/query'),
}
