import type { FastifyInstance } from 'fastify'
import type { AnyCall, CallContract, QueryAndBody } from '../../shared/contracts/call.js'
import type { RouteDoc } from './route-doc.js'
import { defineRoute, type Access, type AuthedInput, type RouteInput } from './routes.js'

type Input<A extends Access> = A extends 'public' ? RouteInput : AuthedInput
/** What a handler may return for answer R: R itself, checked against the contract (not inferred from the handler), or nothing where R may be null (the envelope sends null). */
type HandlerAnswer<R> = NoInfer<null extends R ? R | void : R>

/** The route of a contract: who may call it and the handler, whose params and answer the contract types. */
export interface CallRouteSpec<P, R, A extends Access> {
  access: A
  bodyLimit?: number
  /**
   * `params` is what the client sent where the contract says (query, body or both), typed as the
   * contract's params: the wire shape both sides agree on, not a check of the values (the domain reads them).
   */
  handler: (input: Input<A> & { params: P }) => Promise<HandlerAnswer<R>>
}

/** The params of a request where the contract says they travel. */
export function paramsOf<P>(contract: CallContract<P, unknown>, input: RouteInput): P {
  if (contract.paramsIn === 'both') return { query: input.query, body: input.body } as QueryAndBody<unknown, unknown> as P
  return (contract.paramsIn === 'query' ? input.query : input.body) as P
}

/** Registers the route of `contract`: method and path from it, the handler typed by it. */
export function defineCallRoute<P, R, A extends Access>(app: FastifyInstance, contract: CallContract<P, R>, spec: CallRouteSpec<P, R, A>): void {
  defineRoute<A>(app, {
    method: contract.method,
    url: contract.path,
    access: spec.access,
    doc: { contract },
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: (input) => spec.handler({ ...input, params: paramsOf(contract, input) } as Input<A> & { params: P }),
  })
}

/**
 * An answer built by the store from an entity's schema (its fields follow the schema, not a
 * TypeScript type): the contract states the shape the screens read, and this marks each route
 * where the schema, not the compiler, keeps the two in step.
 */
export const schemaAnswer = <R>(data: unknown): R => data as R

/**
 * Method and url of a contract, for the engine's families whose handlers read the request themselves
 * (the document store takes `id` from the body or the query): the path is still the contract's.
 */
export const routeOf = (contract: AnyCall, doc?: RouteDoc) => ({ method: contract.method, url: contract.path, doc: { contract, ...doc } })
