import type { FastifyInstance } from 'fastify'
import type { Services } from '../../services.js'
import { defineRoute } from '../../platform/routes.js'
import { orderChart } from '../../domain/order-chart.js'

/** Home-page charts (spec 001 §7): GET /chart/order, open to every logged-in user. */
export function chartModule(app: FastifyInstance, _services: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/chart/order',
    access: 'login',
    handler: async ({ ctx }) => orderChart(ctx.db),
  })
}
