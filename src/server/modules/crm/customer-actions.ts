import type { FastifyInstance } from 'fastify'
import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { CRM_DEAL_STATUS } from '../../../shared/generated/enum-codes.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { crmActions, type ActionRow } from '../../../shared/contracts/crm-customers.js'
import type { Page } from '../../../shared/contracts/call.js'
import { invalid, notFound } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { clock, now } from '../../platform/clock.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import { exportCell, exportFields } from '../../engine/export-cells.js'
import { exportValues, sendWorkbook, EXPORT_LIMIT } from '../stock/xlsx-export.js'
import type { Services } from '../../engine/services.js'
import { comingReturns, CUSTOMER_TABLE, deptSubtree } from '../../domain/crm/public-sea.js'
import { CUSTOMER_KEYS } from '../../domain/crm/customer-keys.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * Follow-ups (跟进记录) of CRM customers: `POST /basedata/customerAction` and `/crm/action/createAction`
 * (the same call under the two names of the spec), `GET /basedata/customerAction/getActionDetail?id`,
 * `GET /crm/action/query`, `GET /crm/action/export` (xlsx), `DELETE /crm/action/delete`. A follow-up
 * moves its customer's 最后跟进时间 forward and sets 下次跟进时间 (a later follow-up may clear it).
 *
 * `GET /crm/data/query` answers the caller's CRM figures (customers owned, dealt, locked, follow-ups
 * today and this month, follow-ups due today, overdue, new customers this month, customers the sea
 * takes back soon, customers in the caller's sea); `GET /crm/data/queryAction` lists the caller's
 * customers whose next follow-up is due within `days` (default today), earliest first.
 *
 * Who sees which follow-ups: one's own, the department's (crm:customer:dept, followers in the caller's
 * departments) or all (crm:customer:all); one deletes one's own (or any with crm:customer:all).
 */

export const ACTION_KEYS = { query: PERMISSION.crm.action.query, add: PERMISSION.crm.action.add, remove: PERMISSION.crm.action.delete, export: PERMISSION.crm.action.export } as const

const PARAMS: QueryParam[] = [
  { field: 'customerId', op: 'eq' },
  { field: 'actionType', op: 'eq' },
  { field: 'content', op: 'contains' },
  { field: 'followerId', op: 'eq' },
  { field: 'actionTime', op: 'between' },
]

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

export function crmActionsModule(app: FastifyInstance, services: Services): void {
  const { store, registry } = services
  const action = registry.get('crmCustomerAction')
  const list = action.file.views?.list

  async function followerScope(db: Db, ctx: RequestContext): Promise<Expression<SqlBool>> {
    if (ctx.isAdmin || hasPermission(ctx, [CUSTOMER_KEYS.all])) return sql<SqlBool>`1 = 1`
    if (hasPermission(ctx, [CUSTOMER_KEYS.dept])) {
      const depts = await deptSubtree(services, db, ctx.userId)
      if (depts.length)
        return sql<SqlBool>`(t.follower_id = ${ctx.userId} or t.follower_id in (${db.selectFrom('sys_user_dept_ids as d').select('d.owner_id').where('d.ref_id', 'in', depts)}))`
    }
    return sql<SqlBool>`t.follower_id = ${ctx.userId}`
  }

  // The store's row rule of follow-ups, so every read of the table (these routes, the custom lists) carries it.
  services.hooks.on(action.name, { restrictRows: ({ db, ctx }) => followerScope(db, ctx) })

  /** The customer exists and the caller owns it (or manages it through the department/all keys). */
  async function requireFollowable(trx: Db, ctx: RequestContext, customerId: string) {
    const row = await trx.selectFrom(CUSTOMER_TABLE).select(['id', 'owner_id', 'dept_id']).where('id', '=', customerId).executeTakeFirst()
    if (!row) throw invalid('客户不存在', 'customerId')
    if (ctx.isAdmin || hasPermission(ctx, [CUSTOMER_KEYS.all]) || row.owner_id === ctx.userId) return
    if (row.owner_id && hasPermission(ctx, [CUSTOMER_KEYS.dept]) && (await deptSubtree(services, trx, ctx.userId)).includes(String(row.dept_id))) return
    if (!row.owner_id) throw invalid('公海客户不能跟进，请先领取', 'customerId')
    throw invalid('只能跟进自己负责的客户', 'customerId')
  }

  const create = async (ctx: RequestContext, body: unknown) =>
    inTransaction(ctx.db, async (trx) => {
      const values = { ...objectBody(body) }
      const customerId = text(values.customerId)
      if (!customerId) throw invalid('请选择客户', 'customerId')
      await requireFollowable(trx, ctx, customerId)
      if (!text(values.actionTime)) values.actionTime = now()
      if (text(values.nextTime) && text(values.nextTime) <= text(values.actionTime)) throw invalid('下次跟进时间必须晚于跟进时间', 'nextTime')
      if (text(values.actionTime) > clock().add(1, 'minute').format('YYYY-MM-DD HH:mm:ss')) throw invalid('跟进时间不能晚于当前时间', 'actionTime')
      const id = await store.create(trx, ctx, action, values)
      const actionTime = text(values.actionTime)
      await trx.updateTable('crm_customer_action').set({ follower_id: ctx.userId }).where('id', '=', id).execute()
      await trx
        .updateTable(CUSTOMER_TABLE)
        .set({
          last_follow_time: sql`case when last_follow_time is null or last_follow_time < ${actionTime} then ${actionTime} else last_follow_time end`,
          // Only the newest follow-up decides the next one; a back-dated entry leaves it alone.
          next_follow_time: sql`case when last_follow_time is null or last_follow_time <= ${actionTime} then ${text(values.nextTime) || null} else next_follow_time end`,
        })
        .where('id', '=', customerId)
        .execute()
      return id
    })

  defineRoute(app, { method: 'POST', url: '/basedata/customerAction', access: [ACTION_KEYS.add], handler: async ({ ctx, body }) => create(ctx, body) })
  defineCallRoute(app, crmActions.create, { access: [ACTION_KEYS.add], handler: async ({ ctx, body }) => create(ctx, body) })

  const page = async (ctx: RequestContext, values: Record<string, unknown>, paged: boolean) =>
    store.list(ctx.db, ctx, action, { params: PARAMS, columns: list?.columns, values, paged, sort: list?.sort })

  defineCallListRoute(app, services, crmActions.query, { access: [ACTION_KEYS.query], conditions: paramsOf(services, action, PARAMS), handler: async ({ ctx, query }) => schemaAnswer<Page<ActionRow>>(await page(ctx, query, true)) })

  defineRoute(app, {
    method: 'GET',
    url: '/basedata/customerAction/getActionDetail',
    access: [ACTION_KEYS.query],
    handler: async ({ ctx, query }) => {
      const id = text(query.id)
      if (!id) throw invalid('请选择跟进记录', 'id')
      const found = await page(ctx, { id }, false).then((p) => p.datas.find((d) => d.id === id))
      if (found) return found
      const byId = await store.list(ctx.db, ctx, action, { params: [{ field: 'id', op: 'eq' }], columns: list?.columns, values: { id }, paged: false })
      if (!byId.datas[0]) throw notFound('跟进记录不存在！')
      return byId.datas[0]
    },
  })

  defineListRoute(app, services, {
    method: 'GET',
    url: '/crm/action/export',
    conditions: paramsOf(services, action, PARAMS),
    access: [ACTION_KEYS.export],
    handler: async ({ ctx, query, body, reply }) => {
      const rows = (await page(ctx, { ...exportValues(query, body), pageIndex: 1, pageSize: EXPORT_LIMIT }, false)).datas.slice(0, EXPORT_LIMIT)
      const fields = exportFields(action)
      return sendWorkbook(
        reply,
        action.label,
        fields.map((f) => ({ header: f.label, key: f.name })),
        rows.map((r) => Object.fromEntries(fields.map((f) => [f.name, exportCell(f, r, registry.enums)]))),
      )
    },
  })

  defineCallRoute(app, crmActions.remove, {
    access: [ACTION_KEYS.remove],
    handler: async ({ ctx, body, query }) => {
      const ids = [...new Set(idsFrom(body, query))]
      await inTransaction(ctx.db, async (trx) => {
        let q = trx.selectFrom('crm_customer_action').select(['id', 'follower_id']).where('id', 'in', ids)
        if (!ctx.isAdmin && !hasPermission(ctx, [CUSTOMER_KEYS.all])) q = q.where('follower_id', '=', ctx.userId)
        const mine = await q.execute()
        if (mine.length !== ids.length) throw notFound('跟进记录不存在或不是您的跟进记录')
        await store.remove(trx, ctx, action, ids)
      })
    },
  })

  /* ---------- my CRM figures ---------- */

  const count = async (q: { executeTakeFirst(): Promise<{ n?: unknown } | undefined> }) => Number((await q.executeTakeFirst())?.n ?? 0)

  defineCallListRoute(app, services, crmActions.figures, {
    conditions: [],
    access: [CUSTOMER_KEYS.query, ACTION_KEYS.query],
    handler: async ({ ctx }) => {
      const db = ctx.db
      const me = ctx.userId
      const dayStart = `${clock().format('YYYY-MM-DD')} 00:00:00`
      const dayEnd = `${clock().format('YYYY-MM-DD')} 23:59:59`
      const monthStart = `${clock().format('YYYY-MM')}-01 00:00:00`
      const customers = () => db.selectFrom(CUSTOMER_TABLE).select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', me)
      const actions = () => db.selectFrom('crm_customer_action').select((eb) => eb.fn.countAll().as('n')).where('follower_id', '=', me)
      const locked = services.codec.toColumn(registry.get('customer').byName.get('locked')!, true)
      return {
        customerCount: await count(customers()),
        dealtCount: await count(customers().where('deal_status', '=', CRM_DEAL_STATUS.DEALT)),
        lockedCount: await count(customers().where('locked', '=', locked)),
        newCustomerMonth: await count(customers().where('receive_time', '>=', monthStart)),
        actionToday: await count(actions().where('action_time', '>=', dayStart)),
        actionMonth: await count(actions().where('action_time', '>=', monthStart)),
        dueToday: await count(customers().where('next_follow_time', '>=', dayStart).where('next_follow_time', '<=', dayEnd)),
        overdue: await count(customers().where('next_follow_time', '<', dayStart)),
        comingReturn: (await comingReturns(services, db, me)).length,
      }
    },
  })

  defineCallListRoute(app, services, crmActions.due, {
    conditions: [{ name: 'days', label: '天数', kind: 'integer' }],
    access: [CUSTOMER_KEYS.query, ACTION_KEYS.query],
    handler: async ({ ctx, query }) => {
      const days = query.days === undefined || query.days === '' ? 0 : Number(query.days)
      if (!Number.isInteger(days) || days < 0 || days > 365) throw invalid('天数必须为0到365之间的整数', 'days')
      const until = `${clock().add(days, 'day').format('YYYY-MM-DD')} 23:59:59`
      const rows = await ctx.db
        .selectFrom(CUSTOMER_TABLE)
        .select(['id', 'code', 'name', 'contact', 'telephone', 'level', 'last_follow_time', 'next_follow_time'])
        .where('owner_id', '=', ctx.userId)
        .where('next_follow_time', 'is not', null)
        .where('next_follow_time', '<=', until)
        .orderBy('next_follow_time')
        .limit(200)
        .execute()
      const nextContent = rows.length
        ? await ctx.db
            .selectFrom('crm_customer_action')
            .select(['customer_id', 'next_content', 'next_time'])
            .where('customer_id', 'in', rows.map((r) => r.id))
            .where('next_time', 'is not', null)
            .orderBy('action_time', 'desc')
            .execute()
        : []
      const dayStart = `${clock().format('YYYY-MM-DD')} 00:00:00`
      return rows.map((r) => ({
        customerId: r.id,
        code: r.code,
        name: r.name,
        contact: r.contact ?? null,
        telephone: r.telephone ?? null,
        level: r.level ?? null,
        lastFollowTime: r.last_follow_time ?? null,
        nextFollowTime: r.next_follow_time,
        nextContent: nextContent.find((a) => a.customer_id === r.id)?.next_content ?? null,
        overdue: String(r.next_follow_time) < dayStart,
      }))
    },
  })
}
