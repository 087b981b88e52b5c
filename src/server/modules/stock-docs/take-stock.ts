import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { inTransaction } from '../../platform/db-tx.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Db } from '../../db/dialect.js'
import { exportWorkbook } from '../../engine/master-data-routes.js'
import { documentModel } from '../../engine/document-routes.js'
import { objectBody } from '../../engine/request-values.js'
import { attachProducts } from '../../engine/line-products.js'
import { onStockMoved } from '../../domain/stock/stock-ledger.js'
import {
  cancelOverduePlans,
  cancelPlan,
  countMovement,
  createDiff,
  createPlan,
  deletePlan,
  handleDiff,
  modifyPlan,
  planHeader,
  planLines,
  takeStockConfig,
} from '../../domain/stock/take-stock-plan.js'
import { preSheetCounts } from '../../domain/stock/pre-take-stock-sheet.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { takeStock, type PlanDetail } from '../../../shared/contracts/stock.js'

const field = (body: unknown, name: string) => (body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined)

/**
 * Stock-taking plans (`/stock/take/plan`, spec 001 §7): hand-written calls over the `takeStockPlan`
 * entity (schemas/entities/take-stock-plan.json), since a plan is not an approval document. Overdue
 * plans are canceled before plans are listed or used (cancelOverduePlans: no scheduler yet).
 * The configuration `/stock/take/config` is a singleton entity served by the engine (GET/PUT); the rest of
 * the document family endpoints.tsv infers for it answers why it cannot apply (inapplicable-calls.ts).
 */
export function takeStockRoutes(app: FastifyInstance, services: Services): void {
  // Overdue plans are cancelled first (there is no scheduler yet), in the action's own transaction.
  const withCurrentPlans = <T>(ctx: RequestContext, work: (trx: Db) => Promise<T>) =>
    inTransaction(ctx.db, async (trx) => {
      await cancelOverduePlans(services, trx, ctx)
      return work(trx)
    })
  const { store, registry } = services
  const plan = registry.get('takeStockPlan')
  const preSheet = documentModel(services, registry.get('preTakeStockSheet'))
  const list = plan.file.views?.list
  const listRequest = (values: Record<string, unknown>, paged: boolean) => ({
    params: list?.query ?? [],
    columns: list?.columns,
    values,
    paged,
    sort: list?.sort ?? { field: 'createTime', order: 'desc' as const },
  })
  // Counting during a plan: the ledger tells every move; the listener is module-level, so registering
  // it from several apps of one process keeps one copy.
  onStockMoved(countMovement)

  const conditions = paramsOf(services, plan, list?.query ?? [])
  defineListRoute(app, services, {
    method: 'GET',
    url: '/stock/take/plan/query',
    conditions,
    access: [PERMISSION.stock.take.plan.query],
    handler: async ({ ctx, query }) => {
      await inTransaction(ctx.db, (trx) => cancelOverduePlans(services, trx, ctx))
      return store.list(ctx.db, ctx, plan, listRequest(query, true))
    },
  })
  for (const method of ['POST', 'GET'] as const)
    defineListRoute(app, services, {
      method,
      url: '/stock/take/plan/export',
      conditions,
      access: [PERMISSION.stock.take.plan.export],
      handler: async ({ ctx, query, body, reply }) => {
        const values = { ...query, ...(body && typeof body === 'object' ? (body as object) : {}) }
        const page = await store.list(ctx.db, ctx, plan, listRequest(values, false))
        reply
          .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent('盘点任务.xlsx')}`)
        reply.send(await exportWorkbook(services, plan, page.datas))
        return reply
      },
    })
  // The plan with its lines (snapshot, counts, movements) and the flags the diff screen echoes back.
  defineCallRoute(app, takeStock.planDetail, {
    access: [PERMISSION.stock.take.plan.query, PERMISSION.stock.take.plan.handleDiff],
    handler: async ({ ctx, query }) => {
      const answer = await store.get(ctx.db, ctx, plan, query.id)
      const config = await takeStockConfig(services, ctx.db, ctx)
      answer.details = await attachProducts(ctx.db, await planLines(ctx.db, String(answer.id)))
      answer.allowChangeNum = config.allowChangeNum
      answer.autoChangeStock = config.autoChangeStock
      return schemaAnswer<PlanDetail>(answer)
    },
  })
  // The products of a plan for a take sheet (`planId`), with the snapshot quantity when the config shows it.
  defineCallRoute(app, takeStock.planProducts, {
    access: [PERMISSION.stock.take.sheet.add, PERMISSION.stock.take.sheet.modify, PERMISSION.stock.take.plan.query],
    handler: async ({ ctx, query }) => {
      const header = await planHeader(ctx.db, query.planId ?? query.id)
      const config = await takeStockConfig(services, ctx.db, ctx)
      const lines = await attachProducts(ctx.db, await planLines(ctx.db, String(header.id)))
      return lines.map((l) => ({ ...l, stockNum: config.showStock ? l.stockNum : null }))
    },
  })
  defineCallRoute(app, takeStock.createPlan, {
    access: [PERMISSION.stock.take.plan.add],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => createPlan(services, trx, ctx, objectBody(body))),
  })
  defineRoute(app, {
    method: 'PUT',
    url: '/stock/take/plan',
    access: [PERMISSION.stock.take.plan.modify],
    handler: async ({ ctx, body }) =>
      withCurrentPlans(ctx, (trx) => modifyPlan(trx, ctx, objectBody(body))),
  })
  defineCallRoute(app, takeStock.createDiff, {
    access: [PERMISSION.stock.take.plan.createDiff],
    handler: async ({ ctx, body, query }) =>
      withCurrentPlans(ctx, (trx) => createDiff(trx, ctx, field(body, 'id') ?? query.id)),
  })
  defineCallRoute(app, takeStock.handleDiff, {
    access: [PERMISSION.stock.take.plan.handleDiff],
    handler: async ({ ctx, body }) =>
      withCurrentPlans(ctx, (trx) => handleDiff(services, trx, ctx, objectBody(body))),
  })
  defineCallRoute(app, takeStock.cancelPlan, {
    access: [PERMISSION.stock.take.plan.cancel],
    handler: async ({ ctx, body, query }) => inTransaction(ctx.db, (trx) => cancelPlan(trx, ctx, field(body, 'id') ?? query.id)),
  })
  defineCallRoute(app, takeStock.removePlan, {
    access: [PERMISSION.stock.take.plan.delete],
    handler: async ({ ctx, body, query }) =>
      withCurrentPlans(ctx, (trx) => deletePlan(trx, ctx, field(body, 'id') ?? query.id)),
  })
  // A pre-take sheet's counts for a take sheet (the number of its take status; only the plan's products).
  defineCallRoute(app, takeStock.preProducts, {
    access: [PERMISSION.stock.take.sheet.add, PERMISSION.stock.take.sheet.modify, PERMISSION.stock.take.pre.query],
    handler: async ({ ctx, query }) => {
      // Through the document store, so the pre-take sheet's data permission applies as to its detail.
      const sheet = await services.documents.header(ctx.db, ctx, preSheet, query.id)
      return preSheetCounts(ctx.db, String(sheet.id), typeof query.planId === 'string' && query.planId ? query.planId : undefined)
    },
  })
}
