import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { crmReports, type Claim, type Statis, type WorkReport } from '../../../shared/contracts/crm-reports.js'
import type { Page } from '../../../shared/contracts/call.js'
import type { ConditionField } from '../../engine/condition-values.js'
import { inTransaction } from '../../platform/db-tx.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import { addReport, deleteReports, listReports, MONTHLY, reportKey, reportStatistics, WEEKLY, workReportRowRules } from '../../domain/crm/work-report.js'
import { addClaim, approveClaim, approverOf, claimDetail, listClaims, updateClaim } from '../../domain/crm/reimburse.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const STATIS: ConditionField[] = [
  { name: 'date', label: '报告日期', kind: 'datetime' },
  { name: 'startDate', label: '报告日期', kind: 'datetime' },
  { name: 'userId', label: '用户', kind: 'id' },
]
const CLAIMS: ConditionField[] = [
  { name: 'status', label: '审核状态', kind: 'enum', enum: 'CRM_REIMBURSE_STATUS' },
  { name: 'mine', label: '我的', kind: 'boolean' },
  { name: 'startTime', label: '开始时间', kind: 'datetime' },
  { name: 'endTime', label: '结束时间', kind: 'datetime' },
]

const both = (action: 'query' | 'add' | 'delete') => [reportKey(WEEKLY, action), reportKey(MONTHLY, action)]

/**
 * CRM work reports (`/crm/workReport/*`: weekly and monthly, statistics per person) and expense claims
 * (`/crm/cost/*`), spec 001 §7 CRM. The route admits either kind's key; the domain then checks the key
 * of the report's own kind. Rules: src/server/domain/crm/work-report.ts, reimburse.ts.
 */
export function crmReportsModule(app: FastifyInstance, services: Services): void {
  workReportRowRules(services)
  defineCallListRoute(app, services, crmReports.workReportList, {
    conditions: [
      { name: 'id', label: '报告', kind: 'id' },
      { name: 'reportType', label: '报告类型', kind: 'integer' },
      { name: 'unread', label: '未读', kind: 'boolean' },
      { name: 'userId', label: '用户', kind: 'id' },
      { name: 'startDate', label: '开始日期', kind: 'datetime' },
      { name: 'endDate', label: '结束日期', kind: 'datetime' },
    ],
    access: both('query'),
    // The detail (with `id`) marks the report read for a recipient: a write, so it runs in a transaction.
    // The domain reads the query's wire values (text) itself; the contract states the answer the screens read.
    handler: async ({ ctx, params }) =>
      schemaAnswer<WorkReport | Page<WorkReport>>(await inTransaction(ctx.db, (trx) => listReports(services, trx, ctx, params as Record<string, unknown>))),
  })
  defineCallListRoute(app, services, crmReports.weekStatis, {
    conditions: STATIS,
    access: [reportKey(WEEKLY, 'query')],
    handler: async ({ ctx, params }) => schemaAnswer<Statis>(await reportStatistics(services, ctx.db, ctx, WEEKLY, params)),
  })
  defineCallListRoute(app, services, crmReports.monthStatis, {
    conditions: STATIS,
    access: [reportKey(MONTHLY, 'query')],
    handler: async ({ ctx, params }) => schemaAnswer<Statis>(await reportStatistics(services, ctx.db, ctx, MONTHLY, params)),
  })
  defineCallRoute(app, crmReports.addWorkReport, {
    access: both('add'),
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => addReport(services, trx, ctx, objectBody(body))),
  })
  defineCallRoute(app, crmReports.deleteWorkReport, {
    access: both('delete'),
    handler: async ({ ctx, body, query }) => inTransaction(ctx.db, (trx) => deleteReports(services, trx, ctx, idsFrom(body, query))),
  })

  defineCallListRoute(app, services, crmReports.claims, {
    conditions: CLAIMS,
    access: [PERMISSION.crm.reimburse.query],
    handler: async ({ ctx, query }) => schemaAnswer<Page<Claim>>(await listClaims(services, ctx.db, ctx, 'mine', query)),
  })
  defineCallListRoute(app, services, crmReports.approveClaims, {
    conditions: CLAIMS,
    access: [PERMISSION.crm.reimburse.approve],
    handler: async ({ ctx, query }) => schemaAnswer<Page<Claim>>(await listClaims(services, ctx.db, ctx, 'approve', query)),
  })
  defineCallRoute(app, crmReports.claimManager, {
    access: [PERMISSION.crm.reimburse.add, PERMISSION.crm.reimburse.modify],
    // Always the caller's own approver: whom a claim goes to is not looked up for others.
    handler: async ({ ctx }) => approverOf(services, ctx.db, ctx.userId),
  })
  defineCallRoute(app, crmReports.claimDetail, {
    access: [PERMISSION.crm.reimburse.query, PERMISSION.crm.reimburse.modify, PERMISSION.crm.reimburse.approve],
    handler: async ({ ctx, params }) => schemaAnswer<Claim>(await claimDetail(services, ctx.db, ctx, params.id)),
  })
  defineCallRoute(app, crmReports.addClaim, {
    access: [PERMISSION.crm.reimburse.add],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => addClaim(services, trx, ctx, objectBody(body))),
  })
  defineCallRoute(app, crmReports.updateClaim, {
    access: [PERMISSION.crm.reimburse.modify],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, async (trx) => (await updateClaim(services, trx, ctx, objectBody(body)), null)),
  })
  defineCallRoute(app, crmReports.approveClaim, {
    access: [PERMISSION.crm.reimburse.approve],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, async (trx) => (await approveClaim(services, trx, ctx, objectBody(body)), null)),
  })
}
