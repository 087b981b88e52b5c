import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../platform/routes.js'

export const OPENAPI_PATH = '/openapi.json'

/**
 * `GET /cloud-api/openapi.json`: the OpenAPI document of every call (app.openApi), for any signed-in
 * user (an integrator or the 接口文档 page): it names paths, shapes and permission keys, no data, and
 * a call it lists still refuses a caller without the key.
 */
export function openApiRoute(app: FastifyInstance): void {
  defineRoute(app, {
    method: 'GET',
    url: OPENAPI_PATH,
    access: 'login',
    doc: { answer: 'json' },
    handler: async ({ reply }) => reply.type('application/json').send(app.openApi()),
  })
}
