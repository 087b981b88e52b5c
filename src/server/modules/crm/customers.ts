import type { FastifyInstance } from 'fastify'
import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { CRM_CUSTOMER_SCOPE as SCOPE, CRM_OWNER_CHANGE_TYPE as CHANGE } from '../../../shared/generated/enum-codes.js'
import { defineRoute } from '../../platform/routes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { crmCustomers, type CustomerRow } from '../../../shared/contracts/crm-customers.js'
import type { Page } from '../../../shared/contracts/call.js'
import { invalid, notFound } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import { followsParent } from '../../engine/parent-rows.js'
import type { Wire } from '../../engine/record-codec.js'
import type { Actor } from '../../platform/audit-columns.js'
import type { Services } from '../../engine/services.js'
import { CUSTOMER_KEYS } from '../../domain/crm/customer-keys.js'
import { ACTION_KEYS, crmActionsModule } from './customer-actions.js'
import { crmContactHooks, crmCustomerRowRule, customerScopePredicate } from '../../domain/crm/customer-visibility.js'
import {
  assignCustomers,
  claimCustomer,
  comingReturns,
  CUSTOMER_TABLE,
  dropOwnerHistory,
  IN_SEA,
  lockCustomers,
  lockPerson,
  ownerHistory,
  releaseCustomers,
  runAutomaticReturn,
  seaConfig,
  seaPredicate,
  type ExpectedOwners,
} from '../../domain/crm/public-sea.js'

/**
 * CRM customers (客户管理, 公海客户): the customer entity of base data with an owner. The calls of the
 * spec (`/basedata/customer/queryCustomerAss`, `queryPublicSea`, `getActionCustomer`, `transfer`,
 * `removePublicSea`) plus the ones it does not name, chosen here:
 * - `POST /basedata/customer/claimPublicSea` {ids}: claim sea customers (领取);
 * - `POST /basedata/customer/lock` {ids, locked}: lock or unlock (锁定 exempts from automatic return);
 * - `GET|POST|PUT /crm/customer`: read, create (the creator owns it) and modify a customer from CRM;
 * - `GET /crm/customer/ownerRecords?customerId`: owner history with release reasons;
 * - `GET /crm/customer/queryReturnRemind`: my customers that automatic return takes within the reminder days;
 * - `GET /crm/customer/owners?name`: people to transfer to;
 * - `POST /crm/sea/return`: run automatic return now (the scheduler calls `returnAllTenants`).
 *
 * Who sees which customers: `scope` 1 (mine: owner is me), 2 (my departments and below: key
 * crm:customer:dept), 3 (all owned customers: key crm:customer:all); the sea shows the unowned
 * customers of the caller's pools. Which customers a CRM user may open at all is the store's row rule of
 * the customer entity (domain/crm/customer-visibility.ts), under every read and write below.
 */

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

export function crmCustomersModule(app: FastifyInstance, services: Services): void {
  crmActionsModule(app, services)
  const { store, registry } = services
  const customer = registry.get('customer')
  // The CRM customer lists (mine/department/all and the sea) are the customer file's `crm` list.
  const crmList = customer.file.views?.lists?.crm
  if (!crmList) throw new Error('schemas/entities/customer.json: views.lists.crm is missing')
  const listParams = crmList.query ?? []

  // A deleted customer's owner history goes with it (follow-ups, like documents, still refuse the delete).
  services.hooks.on('customer', {
    async beforeDelete({ trx, ids }) {
      await dropOwnerHistory(services, trx, ids)
    },
  })

  // The CRM rule is the store's row rule of customers (domain/crm/customer-visibility.ts): every read and
  // write of a customer below goes through the store, which narrows a CRM user's rows to it.
  // The keys that open a customer on the CRM screens (the list, the sea, a follow-up) and those of the tabs.
  const readKeys = [CUSTOMER_KEYS.query, CUSTOMER_KEYS.sea, ACTION_KEYS.query, ACTION_KEYS.add]
  services.hooks.on('customer', crmCustomerRowRule(services, [...readKeys, CUSTOMER_KEYS.dept, CUSTOMER_KEYS.claim]))
  services.hooks.on('crmCustomerOwnerRecord', followsParent(store, customer, 'customer_id'))
  services.hooks.on('crmContact', crmContactHooks(services))
  const scopePredicate = (db: Db, ctx: RequestContext, scope: number) => customerScopePredicate(services, db, ctx, scope)
  /** The ids exist and are among the caller's customers (one outside answers as a missing one). */
  async function requireVisible(db: Db, ctx: RequestContext, ids: string[]) {
    const found = await store.visibleRows(db, ctx, customer, ids)
    if (found.length !== new Set(ids).size) throw notFound('客户不存在！')
  }

  /**
   * Owned customers the caller may hand on (transfer, release, lock): own ones, or the department's/all
   * with those keys. Answers the owner each was found with (none for a sea customer an admin may edit):
   * a change of owner expects exactly it and refuses a sea customer.
   */
  async function requireManaged(db: Db, ctx: RequestContext, ids: string[]): Promise<ExpectedOwners> {
    const wanted = [...new Set(ids)]
    let predicate: Expression<SqlBool> = sql<SqlBool>`t.owner_id = ${ctx.userId}`
    if (ctx.isAdmin || hasPermission(ctx, [CUSTOMER_KEYS.all])) predicate = sql<SqlBool>`1 = 1`
    else if (hasPermission(ctx, [CUSTOMER_KEYS.dept])) predicate = await scopePredicate(db, ctx, SCOPE.DEPT)
    const found = await (await store.rows(db, ctx, customer)).select(['t.id', 't.owner_id']).where('t.id', 'in', wanted).where(predicate).execute()
    if (found.length !== wanted.length) {
      const exist = await db.selectFrom(CUSTOMER_TABLE).select(['id', 'owner_id']).where('id', 'in', wanted).execute()
      if (exist.length === wanted.length && exist.some((r) => !r.owner_id)) throw invalid(IN_SEA)
      throw notFound('客户不存在！')
    }
    return new Map(found.map((r) => [String(r.id), (r.owner_id as string | null) ?? null]))
  }

  const listOf = (ctx: RequestContext, db: Db, values: Record<string, unknown>, where: Expression<SqlBool>) =>
    store.list(db, ctx, customer, { params: listParams, columns: crmList.columns, values, paged: true, sort: crmList.sort, where })

  defineCallListRoute(app, services, crmCustomers.mine, {
    conditions: [...paramsOf(services, customer, listParams), { name: 'scope', label: '客户范围', kind: 'integer' }],
    access: [CUSTOMER_KEYS.query],
    handler: async ({ ctx, query }) => {
      const scope = isBlank(query.scope) ? SCOPE.MINE : Number(query.scope)
      if (![SCOPE.MINE, SCOPE.DEPT, SCOPE.ALL].includes(scope as 1)) throw invalid('客户范围不正确', 'scope')
      return schemaAnswer<Page<CustomerRow>>(await listOf(ctx, ctx.db, query, await scopePredicate(ctx.db, ctx, scope)))
    },
  })

  defineListRoute(app, services, {
    method: 'GET',
    url: '/basedata/customer/queryPublicSea',
    conditions: paramsOf(services, customer, listParams),
    access: [CUSTOMER_KEYS.sea],
    handler: async ({ ctx, query }) => listOf(ctx, ctx.db, query, await seaPredicate(services, ctx.db, ctx.userId)),
  })

  /** One customer with its owner, for the customer page and the follow-up dialog. */
  async function customerOf(db: Db, ctx: RequestContext, id: unknown): Promise<Wire> {
    if (!text(id)) throw invalid('请选择客户', 'id')
    return store.get(db, ctx, customer, text(id))
  }

  defineRoute(app, {
    method: 'GET',
    url: '/basedata/customer/getActionCustomer',
    access: readKeys,
    handler: async ({ ctx, query }) => customerOf(ctx.db, ctx, query.id),
  })
  defineCallRoute(app, crmCustomers.get, {
    access: readKeys,
    handler: async ({ ctx, query }) => schemaAnswer<CustomerRow>(await customerOf(ctx.db, ctx, query.id)),
  })

  defineCallRoute(app, crmCustomers.create, {
    access: [CUSTOMER_KEYS.add],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, async (trx) => {
        const values = objectBody(body)
        const id = await store.create(trx, ctx, customer, values)
        const cfg = await seaConfig(services, trx, ctx)
        await assignCustomers(services, trx, ctx, new Map([[id, null]]), ctx.userId, CHANGE.CREATE, cfg)
        return id
      }),
  })

  defineCallRoute(app, crmCustomers.modify, {
    access: [CUSTOMER_KEYS.modify],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, async (trx) => {
        const values = objectBody(body)
        if (!text(values.id)) throw invalid('请选择客户', 'id')
        await requireManaged(trx, ctx, [text(values.id)])
        await store.modify(trx, ctx, customer, values)
      }),
  })

  defineCallRoute(app, crmCustomers.ownerRecords, {
    access: readKeys,
    handler: async ({ ctx, query }) => {
      const id = text(query.customerId ?? query.id)
      await requireVisible(ctx.db, ctx, [id || '-'])
      const rows = await ownerHistory(ctx.db, id)
        .leftJoin('sys_user as f', 'f.id', 'r.from_owner_id')
        .leftJoin('sys_user as u', 'u.id', 'r.to_owner_id')
        .leftJoin('crm_customer_pool as p', 'p.id', 'r.pool_id')
        .select(['r.id', 'r.change_type', 'r.from_owner_id', 'f.name as from_name', 'r.to_owner_id', 'u.name as to_name', 'r.pool_id', 'p.name as pool_name', 'r.reason', 'r.create_by', 'r.create_time'])
        .execute()
      return rows.map((r) => ({
        id: r.id,
        changeType: Number(r.change_type),
        fromOwnerId: r.from_owner_id ?? null,
        fromOwnerName: r.from_name ?? null,
        toOwnerId: r.to_owner_id ?? null,
        toOwnerName: r.to_name ?? null,
        poolId: r.pool_id ?? null,
        poolName: r.pool_name ?? null,
        reason: r.reason ?? null,
        createBy: r.create_by ?? null,
        createTime: r.create_time ?? null,
      }))
    },
  })

  defineCallRoute(app, crmCustomers.transfer, {
    access: [CUSTOMER_KEYS.transfer],
    handler: async ({ ctx, body }) => {
      const values = objectBody(body)
      const ids = idsFrom(values)
      const to = text(values.ownerId ?? values.userId ?? values.toUserId)
      if (!to) throw invalid('请选择接收人', 'ownerId')
      const reason = text(values.reason).slice(0, 200) || null
      await inTransaction(ctx.db, async (trx) => {
        const user = await trx.selectFrom('sys_user').select(['id', 'available']).where('id', '=', to).executeTakeFirst()
        if (!user) throw invalid('接收人不存在', 'ownerId')
        if (!services.codec.fromRow(registry.get('user'), user).available) throw invalid('接收人已停用', 'ownerId')
        const expected = await requireManaged(trx, ctx, ids)
        await assignCustomers(services, trx, ctx, expected, to, CHANGE.TRANSFER, await seaConfig(services, trx, ctx), reason)
        await writeOpLog(trx, ctx, '转移客户', OpLogType.OTHER, { ids, to })
      })
    },
  })

  defineCallRoute(app, crmCustomers.release, {
    access: [CUSTOMER_KEYS.release],
    handler: async ({ ctx, body }) => {
      const values = objectBody(body)
      const ids = idsFrom(values)
      const reason = text(values.reason)
      if (!reason) throw invalid('请输入放入公海的原因', 'reason')
      if (reason.length > 200) throw invalid('原因不能超过200个字符', 'reason')
      await inTransaction(ctx.db, async (trx) => {
        await releaseCustomers(services, trx, ctx, await requireManaged(trx, ctx, ids), reason)
        await writeOpLog(trx, ctx, '客户放入公海', OpLogType.OTHER, { ids, reason })
      })
    },
  })

  defineCallRoute(app, crmCustomers.claim, {
    access: [CUSTOMER_KEYS.claim],
    handler: async ({ ctx, body }) => {
      const ids = [...new Set(idsFrom(objectBody(body)))]
      if (ids.length > 100) throw invalid('一次最多领取100个客户')
      await inTransaction(ctx.db, async (trx) => {
        await lockPerson(services, trx, ctx.userId)
        const cfg = await seaConfig(services, trx, ctx)
        // In id order: the lock order of customer rows.
        for (const id of [...ids].sort()) await claimCustomer(services, trx, ctx, id, cfg)
      })
    },
  })

  defineCallRoute(app, crmCustomers.lock, {
    access: [CUSTOMER_KEYS.lock],
    handler: async ({ ctx, body }) => {
      const values = objectBody(body)
      const ids = idsFrom(values)
      const locked = values.locked !== false && values.locked !== 'false' && values.locked !== 0
      await inTransaction(ctx.db, async (trx) => {
        await lockCustomers(services, trx, ctx, await requireManaged(trx, ctx, ids), locked, await seaConfig(services, trx, ctx))
      })
    },
  })

  defineCallRoute(app, crmCustomers.returnRemind, {
    access: [CUSTOMER_KEYS.query],
    handler: async ({ ctx }) => {
      const coming = await comingReturns(services, ctx.db, ctx.userId)
      if (!coming.length) return []
      const rows = await ctx.db.selectFrom(CUSTOMER_TABLE).select(['id', 'code', 'name', 'last_follow_time']).where('id', 'in', coming.map((c) => c.id)).execute()
      return coming.map((c) => {
        const r = rows.find((x) => x.id === c.id)
        return { id: c.id, code: r?.code ?? null, name: r?.name ?? null, lastFollowTime: r?.last_follow_time ?? null, returnDate: c.returnDate }
      })
    },
  })

  /** People a customer can be transferred to (the transfer dialog): enabled users, by name or code. */
  defineCallRoute(app, crmCustomers.owners, {
    access: [CUSTOMER_KEYS.transfer],
    handler: async ({ ctx, query }) => {
      const user = registry.get('user')
      let q = ctx.db
        .selectFrom('sys_user')
        .select(['id', 'code', 'name'])
        .where('available', '=', services.codec.toColumn(user.byName.get('available')!, true))
      const word = text(query.name)
      if (word) {
        // Wildcards are dropped rather than escaped: SQLite and PostgreSQL escape LIKE differently.
        const pattern = `%${word.replace(/[\\%_]/g, '')}%`
        q = q.where((eb) => eb.or([eb('name', 'like', pattern), eb('code', 'like', pattern)]))
      }
      return q.orderBy('code').limit(50).execute()
    },
  })

  defineCallRoute(app, crmCustomers.runReturn, {
    access: [CUSTOMER_KEYS.runReturn],
    handler: async ({ ctx }) => runAutomaticReturn(services, ctx.db, ctx),
  })
}

/** The scheduler's entry: automatic return in every tenant, as the system. */
export async function returnAllTenants(services: Services): Promise<Record<string, number>> {
  const actor: Actor = { userId: 'system', name: '系统' }
  const out: Record<string, number> = {}
  for (const tenantId of await services.tenantIds()) {
    const result = await runAutomaticReturn(services, services.databases.tenant(tenantId), actor)
    out[tenantId] = result.total
  }
  return out
}
