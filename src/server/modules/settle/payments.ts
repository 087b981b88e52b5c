import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { schemaAnswer } from '../../platform/call-routes.js'
import { settle, type PaymentPlanLine } from '../../../shared/contracts/settle.js'
import type { Page } from '../../../shared/contracts/call.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { inTransaction } from '../../platform/db-tx.js'
import { forbidden } from '../../platform/errors.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { objectBody } from '../../engine/request-values.js'
import type { Wire } from '../../engine/record-codec.js'
import { paymentHooks, paymentPlanHooks } from '../../domain/settle/payments.js'
import { allOrNothing, entityList, manyBodies } from './settle-calls.js'
import { settleInvoicesModule } from './invoices.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * 收付款管理 (spec 001 §7 /settle/payments/*): order types, plans and payments. The generic families of
 * the three entity files serve the screens and the spec's plain spellings (their `api.paths`); these are
 * the calls with a rule of their own, over the same store and hooks.
 * The invoices of settlement (invoices.ts) register from here, so app.ts lists one settlement plugin.
 */
export function settlePaymentsModule(app: FastifyInstance, services: Services): void {
  const { registry, store, hooks } = services
  const plan = registry.get('settlePaymentPlan')
  const payment = registry.get('settlePayment')
  const item = registry.get('settlePaymentItem')
  hooks.on(plan.name, paymentPlanHooks(services))
  hooks.on(payment.name, paymentHooks(services))

  // Plans: whoever registers payments picks plan lines, so the payment keys read them too.
  defineCallListRoute(app, services, settle.paymentPlans, {
    conditions: paramsOf(services, plan, plan.file.views?.list?.query ?? []),
    access: [PERMISSION.settle.paymentsPlan.query, PERMISSION.settle.payments.add, PERMISSION.settle.payments.modify, PERMISSION.purchase.receive.addPayments],
    handler: async ({ ctx, query }) => schemaAnswer<Page<PaymentPlanLine>>(await entityList(services, ctx, plan, query)),
  })

  // Allocation lines, of one payment (?paymentId) or one plan line (?planId), or all of them paged.
  const itemParams: QueryParam[] = [{ field: 'paymentId', op: 'eq' }, { field: 'planId', op: 'eq' }, { field: 'orderCode', op: 'contains' }]
  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/payments/queryPaymentsItem',
    access: [PERMISSION.settle.payments.query, PERMISSION.settle.paymentsPlan.query],
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
    if (!hasPermission(ctx, [PERMISSION.settle.payments.add]) && (Number(record.orderKind) !== 2 || !record.orderCode)) throw forbidden()
    return store.create(trx, ctx, payment, record)
  }
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/create',
    access: [PERMISSION.settle.payments.add, PERMISSION.purchase.receive.addPayments],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => createOne(trx, ctx, objectBody(body))),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/settle/payments/createMore',
    access: [PERMISSION.settle.payments.add, PERMISSION.purchase.receive.addPayments],
    handler: async ({ ctx, body }) => allOrNothing(ctx, manyBodies(body, '收付款'), (trx, record) => createOne(trx, ctx, record)),
  })

  settleInvoicesModule(app, services)
}
