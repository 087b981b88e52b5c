import type { AnyCall } from '../../shared/contracts/call.js'

/**
 * What a route says about itself for the OpenAPI document (platform/openapi.ts): the contract it serves,
 * or, for the engine's families, the entity whose records it reads and writes and the shape of its
 * answer, so the document is derived from the contracts and schemas/, never written beside them.
 */
export interface RouteDoc {
  contract?: AnyCall
  /** The entity (or document header) of an engine family route. */
  entity?: string
  /** For a document: its line entity, whose records are the `details` of one document. */
  lines?: string
  /** `json`: a JSON object sent as is, not in the envelope (the OpenAPI document itself). */
  answer?: 'page' | 'rows' | 'page-or-rows' | 'record' | 'id' | 'none' | 'file' | 'json'
  body?: 'record' | 'ids' | 'id'
  /** Wire names of the conditions a list route reads from its query. */
  conditions?: readonly string[]
}

/**
 * Who may call a route: `public` (no token), `login` (any signed-in user of the tenant), or the
 * permission keys of which the caller needs one (role permission `admin` passes everything).
 */
export type Access = 'public' | 'login' | readonly string[]

/** Fastify route config of an API route: who may call it and what the document says of it. */
export interface ApiRouteConfig {
  access?: Access
  doc?: RouteDoc
}
