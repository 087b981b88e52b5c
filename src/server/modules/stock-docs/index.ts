import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import { inTransaction } from '../../platform/db-tx.js'
import { documentModel } from '../../engine/document-routes.js'
import { objectBody } from '../../engine/request-values.js'
import { PRODUCT_SEARCH_CONDITIONS, searchProducts } from '../../domain/product/search.js'
import { receiveTransfer, transferReceipts } from '../../domain/stock/sc-transfer-order.js'
import { takeStockRoutes } from './take-stock.js'
import { inapplicableCallRoutes } from './inapplicable-calls.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { transfer as transferCalls } from '../../../shared/contracts/stock.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { declaredCallOf } from '../../engine/declared-call-routes.js'

/**
 * Stock documents (spec 001 §7 Stock; domain-rules §2.5-2.6): stock adjust, cost adjust, warehouse
 * transfer and stock-taking. The shared document family comes from the engine (document files in
 * schemas/documents); this module holds the calls beyond the family (their hooks: domain/documents/document-hooks.ts). Kept apart
 * from the stock queries module (src/server/modules/stock).
 */
export function stockDocsModule(app: FastifyInstance, services: Services): void {
  const { documents, registry } = services
  const cost = documentModel(services, registry.get('stockCostAdjustSheet'))
  const transfer = documentModel(services, registry.get('scTransferOrder'))
  const enabled = services.codec.toFilter(registry.get('product').byName.get('available')!, true)

  // Line-table product search and paged list (with stock and unit cost in the chosen warehouse).
  for (const [base, permission, doc] of [
    ['/stock/adjust/cost', 'stock:adjust:cost', 'stockCostAdjustSheet'],
    ['/stock/transfer/sc', 'stock:sc-transfer', 'scTransferOrder'],
  ] as const) {
    const access = [`${permission}:add`, `${permission}:modify`]
    defineCallListRoute(app, services, declaredCallOf.productSearch(services, doc), { access, conditions: PRODUCT_SEARCH_CONDITIONS, handler: async ({ ctx, params }) => searchProducts(ctx.db, params, false, enabled) })
    defineListRoute(app, services, { method: 'GET', url: `${base}/product/list`, access, conditions: PRODUCT_SEARCH_CONDITIONS, handler: async ({ ctx, query }) => searchProducts(ctx.db, query, true, enabled) })
  }

  defineRoute(app, {
    method: 'GET',
    url: '/stock/adjust/cost/detail',
    access: [PERMISSION.stock.adjust.cost.query, PERMISSION.stock.adjust.cost.modify, PERMISSION.stock.adjust.cost.approve],
    handler: async ({ ctx, query }) => documents.get(ctx.db, ctx, cost, query.id),
  })

  defineCallRoute(app, transferCalls.receive, {
    access: [PERMISSION.stock.scTransfer.receive],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, async (trx) => {
        const values = objectBody(body)
        const header = await documents.header(trx, ctx, transfer, values.id)
        await receiveTransfer(trx, ctx, transfer, header, values)
      }),
  })
  defineCallRoute(app, transferCalls.receiveDetail, {
    access: [PERMISSION.stock.scTransfer.query, PERMISSION.stock.scTransfer.receive],
    handler: async ({ ctx, query }) => {
      const header = await documents.header(ctx.db, ctx, transfer, query.id)
      return transferReceipts(ctx.db, String(header.id))
    },
  })

  takeStockRoutes(app, services)
  inapplicableCallRoutes(app, services)
}
