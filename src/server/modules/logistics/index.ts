import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { logistics } from '../../../shared/contracts/logistics.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { defineRoute } from '../../platform/routes.js'
import { inTransaction } from '../../platform/db-tx.js'
import { documentModel } from '../../engine/document-routes.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import { maxLinesOf } from '../../../shared/metadata/document-model.js'
import { invalid } from '../../platform/errors.js'
import { idsFrom } from '../../engine/request-values.js'
import { measureShipped, shippableDocuments, SHIPPABLE_CONDITIONS } from '../../domain/logistics/documents.js'
import { deliver, deliveryInfo } from '../../domain/logistics/delivery.js'
import { registerLogisticsImports } from './imports.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { declaredCallOf } from '../../engine/declared-call-routes.js'

/**
 * The attached documents of a calc call: `bizIds` (repeated or comma-separated), or `bizOrders` [{bizId}]
 * as the ancestor posts; at most as many as one sheet may carry (its maxLines), so the lookup stays one
 * bounded statement on both databases.
 */
function bizIdsOf(doc: DocumentModel, query: Record<string, unknown>, body: unknown): string[] {
  const orders = body && typeof body === 'object' ? (body as Record<string, unknown>).bizOrders : undefined
  const ids = Array.isArray(orders)
    ? idsFrom(orders.map((o) => (o && typeof o === 'object' ? String((o as Record<string, unknown>).bizId ?? '') : '')))
    : idsFrom(query.bizIds ?? (body && typeof body === 'object' ? (body as Record<string, unknown>).bizIds : undefined))
  const most = maxLinesOf(doc.section)
  if (ids.length > most) throw invalid(`业务单据不能超过${most}个！`, 'bizIds')
  return ids
}

/**
 * 物流管理 (spec 001 §7 /logistics/sheet): the calls around the sheet (its family — query, get, create,
 * modify, delete, batch delete, export — comes from schemas/documents/logistics-sheet.json): the documents that may be attached (biz), their weight and volume, delivery, and the two
 * imports (sheets, delivery updates: ./imports.ts).
 */
export function logisticsModule(app: FastifyInstance, services: Services): void {
  const doc = documentModel(services, services.registry.get('logisticsSheet'))
  const key = (action: string) => `${doc.header.file.api!.permission}:${action}`
  const editing = [key('add'), key('modify')]

  defineCallListRoute(app, services, declaredCallOf.candidates(services, 'logisticsSheet'), {
    conditions: SHIPPABLE_CONDITIONS,
    access: editing,
    handler: async ({ ctx, params }) => shippableDocuments(services, ctx.db, ctx, params),
  })
  for (const measure of ['weight', 'volume'] as const)
    for (const method of ['GET', 'POST'] as const)
      defineRoute(app, {
        method,
        url: `/logistics/sheet/calc/${measure}`,
        access: editing,
        handler: async ({ ctx, query, body }) => measureShipped(services.store, ctx.db, ctx, bizIdsOf(doc, query, body), measure),
      })
  defineRoute(app, {
    method: 'GET',
    url: '/logistics/sheet/delivery',
    access: [key('delivery')],
    handler: async ({ ctx, query }) => deliveryInfo(services, ctx.db, ctx, doc, query.id),
  })
  defineCallRoute(app, logistics.deliver, {
    access: [key('delivery')],
    // The ancestor sends the delivery as form/query parameters; a JSON body works too.
    handler: async ({ ctx, query, body }) =>
      inTransaction(ctx.db, (trx) => deliver(services, trx, ctx, doc, { ...query, ...(body && typeof body === 'object' ? (body as object) : {}) } as { id: unknown })),
  })
  registerLogisticsImports(app, services, doc)
}
