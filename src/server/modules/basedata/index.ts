import type { FastifyInstance } from 'fastify'
import type { Services } from '../../services.js'

/** Base-data rules beyond the generic family (products, bundles, regions) are registered here. */
export function basedataModule(app: FastifyInstance, services: Services): void {
  void app
  void services
}
