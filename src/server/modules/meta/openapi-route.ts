import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { openApiDocument, type ApiRoute } from '../../platform/openapi.js'
import { APP_VERSION } from '../../backup/app-version.js'

export const OPENAPI_PATH = '/openapi.json'

/**
 * `GET /cloud-api/openapi.json`: the OpenAPI document of every call, for any signed-in user (an integrator
 * or the 接口文档 page): it names paths, shapes and permission keys, no data, and a call it lists still
 * refuses a caller without the key. Built once, when first asked, from the routes as registered.
 */
export function openApiRoute(app: FastifyInstance, services: Services, routes: readonly ApiRoute[]): void {
  let document: Record<string, unknown> | undefined
  defineRoute(app, {
    method: 'GET',
    url: OPENAPI_PATH,
    access: 'login',
    doc: { answer: 'json' },
    handler: async ({ reply }) => {
      document ??= openApiDocument(routes, services.registry, APP_VERSION)
      return reply.type('application/json').send(document)
    },
  })
}
