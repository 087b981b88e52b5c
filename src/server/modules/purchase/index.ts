import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { schemaAnswer } from '../../platform/call-routes.js'
import { settle, type InvoiceSheet } from '../../../shared/contracts/settle.js'
import type { Page } from '../../../shared/contracts/call.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid } from '../../platform/errors.js'
import { updateColumns } from '../../platform/audit-columns.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { addTimeline, TimelineType } from '../../engine/document-timeline.js'
import { documentModel } from '../../engine/document-routes.js'
import { PurchaseOrderStatus } from '../../domain/purchase/purchase-order.js'
import { supplierTerms } from '../../domain/purchase/supplier-terms.js'
import { PRODUCT_SEARCH_CONDITIONS, searchProducts } from '../../domain/product/search.js'
import { requirePayTypes } from '../../domain/documents/agreed-payments.js'
import { LINES_OUT } from '../../../shared/metadata/document-model.js'
import type { Wire } from '../../engine/record-codec.js'
import { registerPurchaseImports } from './purchase-imports.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { declaredCallOf } from '../../engine/declared-call-routes.js'

/** Sums the lines of a document by product (`queryGroupProduct`): one row per product with its quantities. */
function groupByProduct(lines: Wire[], counters: string[]) {
  const groups = new Map<string, Wire>()
  for (const line of lines) {
    const key = String(line.productId)
    const g = groups.get(key) ?? { ...line, orderNum: 0, ...Object.fromEntries(counters.map((c) => [c, 0])) }
    g.orderNum = Number(g.orderNum) + Number(line.orderNum)
    for (const c of counters) g[c] = Number(g[c]) + Number(line[c] ?? 0)
    groups.set(key, g)
  }
  return [...groups.values()].map(({ id: _id, orderNo: _no, ...rest }) => rest)
}

/**
 * Purchase (spec 001 §7): the calls around orders, receipts and returns that are not the shared
 * document family.
 */
export function purchaseModule(app: FastifyInstance, services: Services): void {
  const { documents, registry } = services
  const order = documentModel(services, registry.get('purchaseOrder'))
  const receive = documentModel(services, registry.get('receiveSheet'))
  const enabled = services.codec.toFilter(registry.get('product').byName.get('available')!, true)
  registerPurchaseImports(app, services)

  // The order, receive and return sheets declare the same search.
  defineCallListRoute(app, services, declaredCallOf.productSearch(services, 'purchaseOrder'), {
    conditions: PRODUCT_SEARCH_CONDITIONS,
    access: [PERMISSION.purchase.order.add, PERMISSION.purchase.order.modify, PERMISSION.purchase.receive.add, PERMISSION.purchase.receive.modify, PERMISSION.purchase.return.add, PERMISSION.purchase.return.modify],
    handler: async ({ ctx, params }) => searchProducts(ctx.db, params, false, enabled),
  })
  defineListRoute(app, services, {
    method: 'GET',
    url: '/purchase/order/product/list',
    conditions: PRODUCT_SEARCH_CONDITIONS,
    access: [PERMISSION.purchase.order.add, PERMISSION.purchase.order.modify, PERMISSION.purchase.receive.add, PERMISSION.purchase.receive.modify, PERMISSION.purchase.return.add, PERMISSION.purchase.return.modify],
    handler: async ({ ctx, query }) => searchProducts(ctx.db, query, true, enabled),
  })

  // The loaders of receive sheets (/purchase/order/receive) and returns (/purchase/receive/sheet/return)
  // come from the files' `document.follows` (registerSourceLoaders).
  defineListRoute(app, services, {
    method: 'GET',
    url: '/purchase/order/queryGroupProduct',
    conditions: [{ name: 'id', label: '采购订单', kind: 'id' }],
    access: [PERMISSION.purchase.order.query],
    handler: async ({ ctx, query }) => groupByProduct((await documents.get(ctx.db, ctx, order, query.id))[LINES_OUT] as Wire[], ['receiveNum']),
  })
  defineListRoute(app, services, {
    method: 'GET',
    url: '/purchase/receive/sheet/queryGroupProduct',
    conditions: [{ name: 'id', label: '采购收货单', kind: 'id' }],
    access: [PERMISSION.purchase.receive.query],
    handler: async ({ ctx, query }) => groupByProduct((await documents.get(ctx.db, ctx, receive, query.id))[LINES_OUT] as Wire[], ['returnNum']),
  })
  defineRoute(app, {
    method: 'GET',
    url: '/purchase/receive/sheet/paymentdate',
    access: [PERMISSION.purchase.receive.add, PERMISSION.purchase.receive.modify, PERMISSION.purchase.return.add, PERMISSION.purchase.return.modify],
    handler: async ({ ctx, query }) => {
      if (typeof query.supplierId !== 'string' || !query.supplierId) throw invalid('请选择供应商', 'supplierId')
      const terms = await supplierTerms(ctx.db, query.supplierId)
      return { allowModify: terms.allowModify, paymentDate: terms.paymentDate }
    },
  })
  // Approved receipts still to be invoiced/settled, for the settlement screens (same filters as the list).
  defineCallListRoute(app, services, settle.invoiceCandidates[2], {
    conditions: paramsOf(services, receive.header, receive.header.file.views?.list?.query ?? []),
    access: [PERMISSION.purchase.receive.query],
    handler: async ({ ctx, query }) =>
      schemaAnswer<Page<InvoiceSheet>>(
        await services.store.list(ctx.db, ctx, receive.header, {
          params: [...(receive.header.file.views?.list?.query ?? []), { field: 'status', op: 'eq', forced: PurchaseOrderStatus.APPROVE_PASS }],
          columns: receive.header.file.views?.list?.columns,
          values: query,
          paged: true,
          sort: { field: 'createTime', order: 'desc' },
        }),
      ),
  })
  defineRoute(app, {
    method: 'GET',
    url: '/purchase/order/print',
    access: [PERMISSION.purchase.order.query],
    handler: async ({ ctx, query }) => documents.get(ctx.db, ctx, order, query.id),
  })
  // Can this order be approved now? Answers true, or the reason it cannot (shown before the approve dialog).
  defineRoute(app, {
    method: 'GET',
    url: '/purchase/order/approveJudge',
    access: [PERMISSION.purchase.order.approve],
    handler: async ({ ctx, query }) => {
      const header = await documents.header(ctx.db, ctx, order, query.id)
      if (![PurchaseOrderStatus.CREATED, PurchaseOrderStatus.APPROVE_REFUSE].includes(Number(header.status) as 0))
        throw invalid('采购订单已审核通过，不允许继续执行审核！')
      await requirePayTypes(ctx.db, String(header.id), header.totalAmount)
      return true
    },
  })
  // End early (提前结束): an approved or partly received order stops waiting for the rest (status 10).
  defineRoute(app, {
    method: 'GET',
    url: '/purchase/order/endEarly',
    access: [PERMISSION.purchase.order.endEarly],
    handler: async ({ ctx, query }) =>
      inTransaction(ctx.db, async (trx) => {
        const header = await documents.header(trx, ctx, order, query.id)
        const done = await trx
          .updateTable('tbl_purchase_order')
          .set({ status: PurchaseOrderStatus.TERMINATED, ...updateColumns(ctx) })
          .where('id', '=', String(header.id))
          .where('status', 'in', [PurchaseOrderStatus.APPROVE_PASS, PurchaseOrderStatus.PART_RECEIVED])
          .executeTakeFirst()
        if (!Number(done.numUpdatedRows)) throw invalid('只有审核通过或部分收货的采购订单才允许提前结束！')
        await addTimeline(trx, ctx, String(header.id), TimelineType.NORMAL, '提前结束')
        await writeOpLog(trx, ctx, `提前结束采购订单，单号：${header.code}`, OpLogType.OTHER, { id: header.id })
      }),
  })
}
