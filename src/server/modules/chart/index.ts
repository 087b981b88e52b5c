import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { chart } from '../../../shared/contracts/lowcode.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { hasPermission } from '../../platform/request-context.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { ORDER_CHART_SOURCES, orderChart } from '../../domain/documents/order-chart.js'

/**
 * Home-page charts (spec 001 §7): GET /chart/order follows the documents it sums. It answers to whoever
 * may query one of them, and shows only the kinds the caller may query.
 */
export function chartModule(app: FastifyInstance, services: Services): void {
  const sources = ORDER_CHART_SOURCES.map((s) => {
    const doc = services.registry.documents().find((d) => d.table === s.table)
    if (!doc) throw new Error(`order chart: no document has table ${s.table}`)
    return { table: s.table, keys: operationKeys(doc, 'query') }
  })
  defineCallRoute(app, chart.order, {
    access: [...new Set(sources.flatMap((s) => s.keys))],
    handler: async ({ ctx }) => orderChart(ctx.db, new Set(sources.filter((s) => hasPermission(ctx, s.keys)).map((s) => s.table))),
  })
}
