import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { meta } from '../../../shared/contracts/meta.js'

/**
 * The metadata the browser runtime renders from: every entity file and the enumerations, as loaded
 * and validated by the server (so a new entity file needs no client build).
 */
export function metaModule(app: FastifyInstance, services: Services): void {
  defineCallRoute(app, meta.bundle, {
    access: 'login',
    handler: async () => ({
      entities: Object.fromEntries(services.registry.all().map((e) => [e.name, e.file])),
      enums: services.registry.enumsFile,
    }),
  })
}
