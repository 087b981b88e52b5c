import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { inTransaction } from '../../platform/db-tx.js'
import { forbidden } from '../../platform/errors.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { objectBody } from '../../engine/request-values.js'
import type { Wire } from '../../engine/record-codec.js'
import { paymentHooks, paymentPlanHooks } from '../../domain/settle/payments.js'
import { allOrNothing, entityList, manyBodies } from './settle-calls.js'
import { settleInvoicesModule } from './invoices.js'

/**
 * 收付款管理 (spec 001 §7 /settle/payments/*): order types, plans and payments. The generic families of
 * the three entity files serve the screens; these are the spec's calls over the same store and hooks.
 * The invoices of settlement (invoices.ts) register from here, so app.ts lists one settlement plugin.
 */
export function settlePaymentsModule(app: FastifyInstance, services: Services): void {
  const { registry, store, hooks } = services
  const orderType = registry.get('settlePaymentsOrderType')
  const plan = registry.get('settlePaymentPlan')
  const payment = registry.get('settlePayment')
  const item = registry.get('settlePaymentItem')
  hooks.on(plan.name, paymentPlanHooks(services))
  hooks.on(payment.name, paymentHooks(services))

  // Order types
  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/payments/listOrderType',
    conditions: paramsOf(services, orderType, orderType.file.views?.list?.query ?? []),
    access: ['settle:payments-order-type:query'],
    handler: async ({ ctx, query }) => entityList(services, ctx, orderType, query),
  })
  defineRoute(app, {
    method: 'GET',
    url: '/settle/payments/showOrderType',
    access: ['settle:payments-order-type:query', 'settle:payments-order-type:modify'],
    handler: async ({ ctx, query }) => store.get(ctx.db, ctx, orderType, query.id),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/createOrderType',
    access: ['settle:payments-order-type:add'],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => store.create(trx, ctx, orderType, objectBody(body))),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/updateOrderType',
    access: ['settle:payments-order-type:modify'],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => store.modify(trx, ctx, orderType, objectBody(body))),
  })

  // Plans: whoever registers payments picks plan lines, so the payment keys read them too.
  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/payments/queryPaymentPlan',
    conditions: paramsOf(services, plan, plan.file.views?.list?.query ?? []),
    access: ['settle:payments-plan:query', 'settle:payments:add', 'settle:payments:modify', 'purchase:receive:add-payments'],
    handler: async ({ ctx, query }) => entityList(services, ctx, plan, query),
  })

  // Payments
  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/payments/showList',
    conditions: paramsOf(services, payment, payment.file.views?.list?.query ?? []),
    access: ['settle:payments:query'],
    handler: async ({ ctx, query }) => entityList(services, ctx, payment, query),
  })
  defineRoute(app, {
    method: 'GET',
    url: '/settle/payments/show',
    access: ['settle:payments:query', 'settle:payments:modify'],
    handler: async ({ ctx, query }) => store.get(ctx.db, ctx, payment, query.id),
  })
  // Allocation lines, of one payment (?paymentId) or one plan line (?planId), or all of them paged.
  const itemParams: QueryParam[] = [{ field: 'paymentId', op: 'eq' }, { field: 'planId', op: 'eq' }, { field: 'orderCode', op: 'contains' }]
  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/payments/queryPaymentsItem',
    access: ['settle:payments:query', 'settle:payments-plan:query'],
    conditions: paramsOf(services, item, itemParams),
    handler: async ({ ctx, query }) =>
      store.list(ctx.db, ctx, item, {
        params: itemParams,
        values: query,
        paged: true,
        sort: { field: 'createTime', order: 'asc' },
      }),
  })

  /**
   * 采购收货单 登记付款 (purchase:receive:add-payments) reaches create too, but only for a payment against a
   * receive sheet; settle:payments:add registers any.
   */
  const createOne = async (trx: RequestContext['db'], ctx: RequestContext, record: Wire) => {
    if (!hasPermission(ctx, ['settle:payments:add']) && (Number(record.orderKind) !== 2 || !record.orderCode)) throw forbidden()
    return store.create(trx, ctx, payment, record)
  }
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/create',
    access: ['settle:payments:add', 'purchase:receive:add-payments'],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => createOne(trx, ctx, objectBody(body))),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/update',
    access: ['settle:payments:modify'],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => store.modify(trx, ctx, payment, objectBody(body))),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/createMore',
    access: ['settle:payments:add', 'purchase:receive:add-payments'],
    handler: async ({ ctx, body }) => allOrNothing(ctx, manyBodies(body, '收付款'), (trx, record) => createOne(trx, ctx, record)),
  })

  settleInvoicesModule(app, services)
}
