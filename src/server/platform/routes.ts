import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { BizError, forbidden, relogin } from './errors.js'
import { hasPermission, type RequestContext } from './request-context.js'
import type { Access, RouteDoc } from './route-doc.js'

export const API_PREFIX = '/cloud-api'
export const OK_MSG = '操作成功！'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type { Access }

export interface RouteInput {
  query: Record<string, unknown>
  body: unknown
  req: FastifyRequest
  reply: FastifyReply
}

export interface AuthedInput extends RouteInput {
  ctx: RequestContext
}

export interface RouteSpec<A extends Access> {
  method: Method
  url: string
  access: A
  /** A larger JSON body than the app's default (e.g. a whole spreadsheet workbook). */
  bodyLimit?: number
  /** What the OpenAPI document says of the route (its contract, or the entity of an engine family). */
  doc?: RouteDoc
  /** Answer the data field; or send the reply yourself (downloads) and answer `reply`. */
  handler: (input: A extends 'public' ? RouteInput : AuthedInput) => Promise<unknown>
}

/** The envelope of the spec, produced in this one place. */
export const envelope = (data: unknown, msg = OK_MSG) => ({ code: 200, msg, data: data ?? null })

export function defineRoute<A extends Access>(app: FastifyInstance, spec: RouteSpec<A>): void {
  app.route({
    method: spec.method,
    url: API_PREFIX + spec.url,
    config: { access: spec.access, doc: spec.doc },
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: async (req, reply) => {
      const input: RouteInput = {
        query: (req.query ?? {}) as Record<string, unknown>,
        body: req.body ?? {},
        req,
        reply,
      }
      if (spec.access !== 'public') {
        if (!req.ctx) throw relogin()
        if (spec.access !== 'login' && !hasPermission(req.ctx, spec.access as readonly string[])) throw forbidden()
        ;(input as AuthedInput).ctx = req.ctx
      }
      const data = await (spec.handler as (i: RouteInput) => Promise<unknown>)(input)
      if (reply.sent || data === reply) return reply
      return envelope(data)
    },
  })
}

export { BizError }
