import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import dayjs from 'dayjs'
import type { Db } from '../../db/dialect.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { CRM_DEAL_STATUS, CRM_OWNER_CHANGE_TYPE as CHANGE, CRM_RETURN_CONDITION as COND, WEBHOOK_EVENT } from '../../../shared/generated/enum-codes.js'
import { emitWebhookEvents } from '../../webhooks/webhook-outbox.js'
import { readSingleton } from '../../engine/singletons.js'
import { treeDescendants } from '../../engine/list-conditions.js'
import { clock, now } from '../../platform/clock.js'
import { invalid, notFound } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import { auditColumns, type Actor } from '../../platform/audit-columns.js'
import type { Services } from '../../engine/services.js'
import { sendPersonalNotice } from '../../platform/notices.js'
import { addTodos, menuPathOf } from '../../platform/todos.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import type { ReturnResult } from '../../../shared/contracts/crm-customers.js'

/**
 * The public sea (公海) of CRM customers: who owns a customer, how it gets back to the sea and out of
 * it again. Every change of owner is one guarded statement plus a row of owner history
 * (crm_customer_owner_record); the rules come from the tenant's 公海规则 (crm_sea_config, pools and
 * return rules).
 *
 * Concurrency: every change of owner (create, claim, transfer, release, automatic return) is one UPDATE
 * naming the owner it expects (`owner_id = $expected`, `owner_id is null`), and its history row is written
 * from what that UPDATE returned (RETURNING: which row, the owner it replaced, the pool); an UPDATE whose
 * expectation no longer holds changes nothing and the caller is told why. A claim's UPDATE carries every
 * rule as a predicate (still unowned, protection period, the previous owner's cool-down, the claimer's
 * capacity and daily limit as sub-selects), so of two claims of one customer exactly one changes a row.
 * Capacity and the daily limit count other rows, which a concurrent claim of a *different* customer by
 * the same person could change unseen; so the changes of one person's ownership are serialised first
 * (PostgreSQL: a transaction advisory lock on the person; SQLite: writers are serialised by the
 * database), after which the statement reads the committed counts.
 *
 * Lock order: person locks first (several in id order), then customer rows in id order, then their
 * contacts; the automatic return, which takes no person lock, locks its customers in id order before it
 * updates them. History rows carry the customer's change number `seq`, taken after the UPDATE locked the
 * row, so it follows commit order and the history is a chain.
 */

export const CUSTOMER_TABLE = 'base_data_customer'
export const OWNER_RECORD_TABLE = 'crm_customer_owner_record'

/** A change of owner whose expected owner no longer holds (someone changed it first). */
export const OWNER_CHANGED = '客户负责人已变更，请刷新后重试'
/** Transfer, release or lock of a customer that is (back) in the sea. */
export const IN_SEA = '公海客户不能进行此操作'

/** The owner each customer is expected to have when the change is made (null: in the sea, or just created). */
export type ExpectedOwners = Map<string, string | null>

export interface SeaConfig {
  ownerLimit: number
  lockLimit: number
  dailyClaimLimit: number
  reclaimDays: number
  protectDays: number
  remindDays: number
  autoReturn: boolean
}

export async function seaConfig(services: Services, db: Db, ctx: RequestContext | null): Promise<SeaConfig> {
  const wire = await readSingleton(services, db, ctx, services.registry.get('crmSeaConfig'))
  const n = (v: unknown) => Math.max(0, Number(v ?? 0) || 0)
  return {
    ownerLimit: n(wire.ownerLimit),
    lockLimit: n(wire.lockLimit),
    dailyClaimLimit: n(wire.dailyClaimLimit),
    reclaimDays: n(wire.reclaimDays),
    protectDays: n(wire.protectDays),
    remindDays: n(wire.remindDays),
    autoReturn: wire.autoReturn !== false,
  }
}

const daysBefore = (days: number) => clock().subtract(days, 'day').format('YYYY-MM-DD HH:mm:ss')

/** A customer field's column value (booleans differ between SQLite and PostgreSQL). */
function customerColumn(services: Services, name: string, value: unknown): unknown {
  return services.codec.toColumn(services.registry.get('customer').byName.get(name) as FieldModel, value)
}

/** Serialises the ownership changes of one person (see the file comment). */
export async function lockPerson(services: Services, trx: Db, userId: string): Promise<void> {
  if (services.databases.kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`crm-owner:${userId}`}))`.execute(trx)
}

/** The departments of a user (a user may sit in several). */
export async function userDepts(trx: Db, userId: string): Promise<string[]> {
  const rows = await trx.selectFrom('sys_user_dept_ids').select('ref_id').where('owner_id', '=', userId).execute()
  return rows.map((r) => String(r.ref_id))
}

/** The user's departments and everything below them: the department tab. */
export async function deptSubtree(services: Services, trx: Db, userId: string): Promise<string[]> {
  const dept = services.registry.get('dept')
  const out = new Set<string>()
  for (const id of await userDepts(trx, userId)) for (const d of await treeDescendants(trx, dept, id)) out.add(d)
  return [...out]
}

interface Pool {
  id: string
  /** Departments the pool serves, with their descendants; empty for a company-wide pool. */
  depts: string[]
}

/** Enabled pools with their departments expanded to the whole subtree. */
export async function pools(services: Services, trx: Db): Promise<Pool[]> {
  const entity = services.registry.get('crmCustomerPool')
  const rows = await trx
    .selectFrom('crm_customer_pool')
    .select(['id'])
    .where('available', '=', services.codec.toColumn(entity.byName.get('available') as FieldModel, true))
    .orderBy('create_time')
    .orderBy('id')
    .execute()
  const links = rows.length
    ? await trx.selectFrom('crm_customer_pool_dept_ids').select(['owner_id', 'ref_id']).where('owner_id', 'in', rows.map((r) => r.id)).execute()
    : []
  const dept = services.registry.get('dept')
  const out: Pool[] = []
  for (const r of rows) {
    const depts = new Set<string>()
    for (const l of links.filter((l) => l.owner_id === r.id)) for (const d of await treeDescendants(trx, dept, String(l.ref_id))) depts.add(d)
    out.push({ id: String(r.id), depts: [...depts] })
  }
  return out
}

/** Pools whose customers this user may see and claim: those of the user's departments and the company-wide ones. */
export async function poolsOfUser(services: Services, trx: Db, userId: string): Promise<string[]> {
  const mine = await userDepts(trx, userId)
  return (await pools(services, trx)).filter((p) => !p.depts.length || mine.some((d) => p.depts.includes(d))).map((p) => p.id)
}

/** The sea customers a user may see: no owner, in one of the user's pools or in no pool. */
export async function seaPredicate(services: Services, trx: Db, userId: string, alias = 't'): Promise<Expression<SqlBool>> {
  const visible = await poolsOfUser(services, trx, userId)
  const owner = sql.ref(`${alias}.owner_id`)
  const pool = sql.ref(`${alias}.pool_id`)
  return visible.length
    ? sql<SqlBool>`(${owner} is null and (${pool} is null or ${pool} in (${sql.join(visible)})))`
    : sql<SqlBool>`(${owner} is null and ${pool} is null)`
}

interface OwnerChange {
  customerId: string
  type: number
  from: string | null
  to: string | null
  poolId?: string | null
  reason?: string | null
}

/**
 * Owner history rows for changes `actor` just made, and the webhook events of claims and returns (to the
 * public sea by hand or by a rule) in the same transaction. Called after the guarded UPDATE of each customer,
 * which holds its row until commit, so no other change of it can write history meanwhile: the next `seq`
 * of each customer (one grouped read per 1,000 customers) and the time are taken here, inside that
 * transaction, and a later change of the customer always gets a greater number.
 */
async function recordOwnerChange(trx: Db, actor: Actor, changes: OwnerChange[]): Promise<void> {
  const audit = auditColumns(actor)
  const last = new Map<string, number>()
  for (const ids of chunks([...new Set(changes.map((c) => c.customerId))]))
    for (const r of await trx
      .selectFrom(OWNER_RECORD_TABLE)
      .select(['customer_id', (eb) => eb.fn.max('seq').as('seq')])
      .where('customer_id', 'in', ids)
      .groupBy('customer_id')
      .execute())
      last.set(String(r.customer_id), Number(r.seq ?? 0))
  const nextSeq = (customerId: string) => {
    const seq = (last.get(customerId) ?? 0) + 1
    last.set(customerId, seq)
    return seq
  }
  for (let i = 0; i < changes.length; i += 500)
    await trx
      .insertInto(OWNER_RECORD_TABLE)
      .values(
        changes.slice(i, i + 500).map((c) => ({
          id: newId(),
          customer_id: c.customerId,
          seq: nextSeq(c.customerId),
          change_type: c.type,
          from_owner_id: c.from,
          to_owner_id: c.to,
          pool_id: c.poolId ?? null,
          reason: c.reason ?? null,
          ...audit,
        })),
      )
      .execute()
  await emitWebhookEvents(
    trx,
    changes.flatMap((c) => {
      const event = c.type === CHANGE.CLAIM ? WEBHOOK_EVENT.CUSTOMER_CLAIMED : c.type === CHANGE.RELEASE || c.type === CHANGE.AUTO_RETURN ? WEBHOOK_EVENT.CUSTOMER_RETURNED : undefined
      if (!event) return []
      const data = { customerId: c.customerId, changeType: c.type, fromOwnerId: c.from, toOwnerId: c.to, poolId: c.poolId ?? null, reason: c.reason ?? null }
      return [{ event, data }]
    }),
    actor,
  )
}

/** The owner history, newest first: by change number (rows from before it existed last), then time. */
export function ownerHistory(db: Db, customerId: string) {
  return db
    .selectFrom(`${OWNER_RECORD_TABLE} as r`)
    .where('r.customer_id', '=', customerId)
    .orderBy(sql`coalesce(r.seq, 0)`, 'desc')
    .orderBy('r.create_time', 'desc')
    .orderBy('r.id', 'desc')
}

/**
 * Why a guarded change of `id` changed nothing although the caller expected `expected` as its owner:
 * the customer is gone, back in the sea, or has another owner now; undefined when the owner is still the
 * expected one (then another guard of the statement refused, e.g. a capacity).
 */
async function staleOwner(trx: Db, id: string, expected: string | null) {
  const row = await trx.selectFrom(CUSTOMER_TABLE).select('owner_id').where('id', '=', id).executeTakeFirst()
  if (!row) return notFound('客户不存在！')
  const owner = (row.owner_id as string | null) ?? null
  if (owner === expected) return undefined
  return expected !== null && owner === null ? invalid(IN_SEA) : invalid(OWNER_CHANGED)
}

/** The ids in lock order. */
const inIdOrder = (ids: Iterable<string>) => [...new Set(ids)].sort()

/** Sub-selects are query builders, not raw text: PostgreSQL tenants live in schemas the builder qualifies. */
const ownedCount = (db: Db, userId: string) =>
  db.selectFrom(`${CUSTOMER_TABLE} as o`).select((eb) => eb.fn.countAll().as('n')).where('o.owner_id', '=', userId)

/** The capacity predicate: the person owns fewer than `limit` customers (or `limit - adding + 1`). */
const underCapacity = (db: Db, limit: number, userId: string, adding = 1): RawBuilder<SqlBool> =>
  limit > 0 ? sql<SqlBool>`(${ownedCount(db, userId)}) <= ${limit - adding}` : sql<SqlBool>`1 = 1`

/**
 * Claims one sea customer for `ctx`'s user: the one guarded statement. Answers nothing, or the Chinese
 * reason it was refused (looked up only after the statement changed nothing).
 */
export async function claimCustomer(services: Services, trx: Db, ctx: RequestContext, customerId: string, cfg: SeaConfig): Promise<void> {
  const me = ctx.userId
  const time = now()
  const dayStart = `${clock().format('YYYY-MM-DD')} 00:00:00`
  const depts = await userDepts(trx, me)
  const visiblePools = await poolsOfUser(services, trx, me)
  const guards: RawBuilder<SqlBool>[] = [sql<SqlBool>`owner_id is null`]
  guards.push(visiblePools.length ? sql<SqlBool>`(pool_id is null or pool_id in (${sql.join(visiblePools)}))` : sql<SqlBool>`pool_id is null`)
  if (cfg.protectDays > 0) guards.push(sql<SqlBool>`(pool_time is null or pool_time <= ${daysBefore(cfg.protectDays)})`)
  if (cfg.reclaimDays > 0)
    guards.push(sql<SqlBool>`(pre_owner_id is null or pre_owner_id <> ${me} or pool_time is null or pool_time <= ${daysBefore(cfg.reclaimDays)})`)
  guards.push(underCapacity(trx, cfg.ownerLimit, me))
  if (cfg.dailyClaimLimit > 0)
    guards.push(
      sql<SqlBool>`(${trx
        .selectFrom(`${OWNER_RECORD_TABLE} as r`)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('r.to_owner_id', '=', me)
        .where('r.change_type', '=', CHANGE.CLAIM)
        .where('r.create_time', '>=', dayStart)}) < ${cfg.dailyClaimLimit}`,
    )
  const done = await trx
    .updateTable(CUSTOMER_TABLE)
    .set({
      owner_id: me,
      dept_id: depts[0] ?? null,
      receive_time: time,
      locked: customerColumn(services, 'locked', false),
      update_by: ctx.name,
      update_by_id: me,
      update_time: time,
    })
    .where('id', '=', customerId)
    .where(sql<SqlBool>`${sql.join(guards, sql` and `)}`)
    .returning(['id', 'pool_id'])
    .executeTakeFirst()
  if (done) {
    await recordOwnerChange(trx, ctx, [{ customerId, type: CHANGE.CLAIM, from: null, to: me, poolId: (done.pool_id as string | null) ?? null }])
    await contactsFollow(services, trx, [customerId], me)
    return
  }
  throw await claimRefusal(services, trx, ctx, customerId, cfg, visiblePools, dayStart)
}

async function claimRefusal(services: Services, trx: Db, ctx: RequestContext, customerId: string, cfg: SeaConfig, visiblePools: string[], dayStart: string) {
  const row = await trx
    .selectFrom(CUSTOMER_TABLE)
    .select(['owner_id', 'pool_id', 'pool_time', 'pre_owner_id'])
    .where('id', '=', customerId)
    .executeTakeFirst()
  if (!row) return notFound('客户不存在！')
  if (row.owner_id) return invalid('该客户已被领取')
  if (row.pool_id && !visiblePools.includes(String(row.pool_id))) return invalid('您不能领取该公海的客户')
  const poolTime = row.pool_time ? String(row.pool_time) : null
  if (cfg.protectDays > 0 && poolTime && poolTime > daysBefore(cfg.protectDays))
    return invalid(`该客户放入公海未满${cfg.protectDays}天，暂不能领取`)
  if (cfg.reclaimDays > 0 && row.pre_owner_id === ctx.userId && poolTime && poolTime > daysBefore(cfg.reclaimDays))
    return invalid(`您是该客户的前负责人，${cfg.reclaimDays}天内不能再次领取`)
  if (cfg.ownerLimit > 0) {
    const owned = Number((await trx.selectFrom(CUSTOMER_TABLE).select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ctx.userId).executeTakeFirst())?.n ?? 0)
    if (owned >= cfg.ownerLimit) return invalid(`您拥有的客户已达上限（${cfg.ownerLimit}个），不能再领取`)
  }
  if (cfg.dailyClaimLimit > 0) {
    const claimed = Number(
      (
        await trx
          .selectFrom(OWNER_RECORD_TABLE)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('to_owner_id', '=', ctx.userId)
          .where('change_type', '=', CHANGE.CLAIM)
          .where('create_time', '>=', dayStart)
          .executeTakeFirst()
      )?.n ?? 0,
    )
    if (claimed >= cfg.dailyClaimLimit) return invalid(`今日领取客户已达上限（${cfg.dailyClaimLimit}个）`)
  }
  return invalid('该客户已被领取')
}

/**
 * Gives customers to `toUserId` (transfer, or the creator of a new customer): per customer, in id order,
 * one UPDATE guarded by the owner the caller expects (read by its permission check, or none for a new
 * customer) and the receiver's capacity. Contacts of the customers follow when the contact entity exists.
 */
export async function assignCustomers(
  services: Services,
  trx: Db,
  ctx: RequestContext,
  expected: ExpectedOwners,
  toUserId: string,
  type: number,
  cfg: SeaConfig,
  reason?: string | null,
): Promise<void> {
  await lockPerson(services, trx, toUserId)
  const depts = await userDepts(trx, toUserId)
  const time = now()
  const changes: OwnerChange[] = []
  for (const id of inIdOrder(expected.keys())) {
    const from = expected.get(id) ?? null
    // Only a new customer comes from nobody: a transfer hands on an owned one, never a sea customer.
    if (from === null && type !== CHANGE.CREATE) throw invalid(IN_SEA)
    if (from === toUserId) continue
    const done = await trx
      .updateTable(CUSTOMER_TABLE)
      .set({
        owner_id: toUserId,
        pre_owner_id: sql.ref('owner_id'),
        dept_id: depts[0] ?? null,
        receive_time: time,
        update_by: ctx.name,
        update_by_id: ctx.userId,
        update_time: time,
      })
      .where('id', '=', id)
      .where(from === null ? sql<SqlBool>`owner_id is null` : sql<SqlBool>`owner_id = ${from}`)
      .where(underCapacity(trx, cfg.ownerLimit, toUserId))
      .returning(['id', 'pre_owner_id'])
      .executeTakeFirst()
    if (!done) {
      throw (
        (await staleOwner(trx, id, from)) ??
        invalid(type === CHANGE.CREATE ? `您拥有的客户已达上限（${cfg.ownerLimit}个），不能再新增` : `接收人拥有的客户已达上限（${cfg.ownerLimit}个）`)
      )
    }
    changes.push({ customerId: id, type, from: (done.pre_owner_id as string | null) ?? null, to: toUserId, reason })
  }
  await recordOwnerChange(trx, ctx, changes)
  await contactsFollow(services, trx, changes.map((c) => c.customerId), toUserId)
}

/** Contacts (crm_contact, built by the contacts feature) belong to whoever owns their customer. */
async function contactsFollow(services: Services, trx: Db, customerIds: string[], owner: string | null) {
  if (!customerIds.length || !services.registry.all().some((e) => e.table === 'crm_contact')) return
  for (const chunk of chunks(customerIds)) await trx.updateTable('crm_contact').set({ owner_id: owner }).where('customer_id', 'in', chunk).execute()
}

/**
 * The pool a released customer goes to, as SQL over its `dept_id` (so the release's one UPDATE decides it
 * from the row it changes): the pool naming the nearest department wins (a pool of the sales department
 * over one of the whole branch), then a company-wide pool; none is the company sea.
 */
function poolOfDeptColumn(all: Pool[]): RawBuilder<string | null> {
  const scoped = all.filter((p) => p.depts.length).sort((a, b) => a.depts.length - b.depts.length)
  const fallback = all.find((p) => !p.depts.length)?.id ?? null
  if (!scoped.length) return sql<string | null>`${fallback}`
  const arms = scoped.map((p) => sql`when dept_id in (${sql.join(p.depts)}) then ${p.id}`)
  return sql<string | null>`case ${sql.join(arms, sql` `)} else ${fallback} end`
}

/** The columns of a customer going back to the sea, into `pool`: its owner kept as the previous one, a lock ended. */
function backToSea(services: Services, pool: RawBuilder<string | null> | string | null, time: string, actor: Actor) {
  return {
    owner_id: null,
    pre_owner_id: sql.ref('owner_id'),
    pool_id: pool,
    pool_time: time,
    receive_time: null,
    locked: customerColumn(services, 'locked', false),
    update_by: actor.name,
    update_by_id: actor.userId,
    update_time: time,
  }
}

/** Releases owned customers to their pool (放入公海) with the reason, each guarded by the owner the caller expects. */
export async function releaseCustomers(services: Services, trx: Db, ctx: RequestContext, expected: ExpectedOwners, reason: string): Promise<void> {
  const pool = poolOfDeptColumn(await pools(services, trx))
  const time = now()
  const changes: OwnerChange[] = []
  for (const id of inIdOrder(expected.keys())) {
    const from = expected.get(id) ?? null
    if (from === null) throw invalid(IN_SEA)
    const done = await trx
      .updateTable(CUSTOMER_TABLE)
      .set(backToSea(services, pool, time, ctx))
      .where('id', '=', id)
      .where('owner_id', '=', from)
      .returning(['id', 'pre_owner_id', 'pool_id'])
      .executeTakeFirst()
    if (!done) throw (await staleOwner(trx, id, from)) ?? invalid(OWNER_CHANGED)
    changes.push({ customerId: id, type: CHANGE.RELEASE, from: String(done.pre_owner_id), to: null, poolId: (done.pool_id as string | null) ?? null, reason })
  }
  await recordOwnerChange(trx, ctx, changes)
  await contactsFollow(services, trx, changes.map((c) => c.customerId), null)
}

/**
 * Locks or unlocks owned customers, each guarded by the owner the caller expects; the lock limit counts
 * the owner's locked customers in the statement (the owners' person locks first, in id order).
 */
export async function lockCustomers(services: Services, trx: Db, ctx: RequestContext, expected: ExpectedOwners, locked: boolean, cfg: SeaConfig) {
  const yes = customerColumn(services, 'locked', true)
  const owners = inIdOrder([...expected.values()].filter((o): o is string => o !== null))
  for (const owner of owners) await lockPerson(services, trx, owner)
  for (const id of inIdOrder(expected.keys())) {
    const owner = expected.get(id) ?? null
    if (owner === null) throw invalid('公海客户不能锁定')
    let q = trx
      .updateTable(CUSTOMER_TABLE)
      .set({ locked: customerColumn(services, 'locked', locked), update_by: ctx.name, update_by_id: ctx.userId, update_time: now() })
      .where('id', '=', id)
      .where('owner_id', '=', owner)
    if (locked && cfg.lockLimit > 0)
      q = q.where(
        sql<SqlBool>`(locked = ${yes} or (${ownedCount(trx, owner).where('o.locked', '=', yes)}) < ${cfg.lockLimit})`,
      )
    const done = await q.returning('id').executeTakeFirst()
    if (!done) throw (await staleOwner(trx, id, owner)) ?? invalid(`锁定客户已达上限（${cfg.lockLimit}个）`)
  }
}

/**
 * The customers' owner history goes with them when they are deleted. Their rows are locked first (the
 * row before what it holds): a change of owner writes its history only after its UPDATE of the row, so
 * none can slip in between this delete and the customer's.
 */
export async function dropOwnerHistory(services: Services, trx: Db, ids: string[]): Promise<void> {
  if (services.databases.kind === 'postgres')
    await trx.selectFrom(CUSTOMER_TABLE).select('id').where('id', 'in', inIdOrder(ids)).orderBy('id').forUpdate().execute()
  await trx.deleteFrom(OWNER_RECORD_TABLE).where('customer_id', 'in', ids).execute()
}

/* ---------- automatic return ---------- */

interface ReturnRule {
  id: string
  poolId: string
  level: number | null
  condition: number
  days: number
  exemptDealt: boolean
  exemptLocked: boolean
}

async function returnRules(services: Services, trx: Db): Promise<ReturnRule[]> {
  const entity = services.registry.get('crmSeaRule')
  const rows = await trx
    .selectFrom('crm_sea_rule as r')
    .innerJoin('crm_customer_pool as p', 'p.id', 'r.pool_id')
    .selectAll('r')
    .where('r.available', '=', services.codec.toColumn(entity.byName.get('available') as FieldModel, true))
    .where('p.available', '=', services.codec.toColumn(entity.byName.get('available') as FieldModel, true))
    .orderBy('r.create_time')
    .orderBy('r.id')
    .execute()
  return rows.map((r) => {
    const w = services.codec.fromRow(entity, r)
    return {
      id: String(w.id),
      poolId: String(w.poolId),
      level: w.level === null || w.level === undefined ? null : Number(w.level),
      condition: Number(w.returnCondition),
      days: Number(w.days),
      exemptDealt: w.exemptDealt !== false,
      exemptLocked: w.exemptLocked !== false,
    }
  })
}

/** The business (opportunity) table, when the opportunities feature is installed. */
function businessTable(services: Services): string | undefined {
  return services.registry.all().find((e) => e.table === 'crm_business')?.table
}

/**
 * Owned customers a rule returns when the clock reads `at` (a cutoff `days` before it): the rule's pool
 * departments, level and exemptions, and its condition, as one predicate over `c`.
 */
function rulePredicate(services: Services, db: Db, rule: ReturnRule, all: Pool[], at: dayjs.Dayjs): RawBuilder<SqlBool> {
  const cutoff = at.subtract(rule.days, 'day').format('YYYY-MM-DD HH:mm:ss')
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`c.owner_id is not null`]
  const pool = all.find((p) => p.id === rule.poolId)
  if (pool?.depts.length) parts.push(sql<SqlBool>`c.dept_id in (${sql.join(pool.depts)})`)
  else {
    // A company-wide pool takes the customers no departmental pool serves.
    const covered = [...new Set(all.flatMap((p) => p.depts))]
    if (covered.length) parts.push(sql<SqlBool>`(c.dept_id is null or c.dept_id not in (${sql.join(covered)}))`)
  }
  if (rule.level !== null) parts.push(sql<SqlBool>`c.level = ${rule.level}`)
  if (rule.exemptDealt) parts.push(sql<SqlBool>`(c.deal_status is null or c.deal_status <> ${CRM_DEAL_STATUS.DEALT})`)
  if (rule.exemptLocked) parts.push(sql<SqlBool>`(c.locked is null or c.locked = ${customerColumn(services, 'locked', false)})`)
  // Held for the rule's days by this owner: a fresh claim or transfer starts the count again.
  parts.push(sql<SqlBool>`coalesce(c.receive_time, c.create_time) <= ${cutoff}`)
  if (rule.condition === COND.NO_FOLLOW) parts.push(sql<SqlBool>`(c.last_follow_time is null or c.last_follow_time <= ${cutoff})`)
  if (rule.condition === COND.NO_DEAL) parts.push(sql<SqlBool>`(c.deal_status is null or c.deal_status <> ${CRM_DEAL_STATUS.DEALT})`)
  if (rule.condition === COND.NO_BUSINESS) {
    const table = businessTable(services)
    if (table)
      parts.push(
        sql<SqlBool>`not exists (${db.selectFrom(`${table} as b`).select(sql`1`.as('x')).whereRef('b.customer_id', '=', 'c.id').where('b.create_time', '>', cutoff)})`,
      )
  }
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`
}

/**
 * Automatic return of one tenant (the scheduler calls this; admins through POST /crm/sea/return), one
 * transaction per enabled rule: lock the eligible customers in id order, then per owner one UPDATE that
 * names the owner it found (the rows stay held, so the rule need not be asked twice) and answers what it
 * returned; the history rows come from that answer. Runs at the same moment (the job and the button, on any process) return each
 * customer once: the later one waits for the row, then finds it no longer eligible.
 */
export async function runAutomaticReturn(services: Services, db: Db, actor: Actor): Promise<ReturnResult> {
  const cfg = await seaConfig(services, db, null)
  const result: ReturnResult = { returned: {}, total: 0, reminded: 0 }
  if (!cfg.autoReturn) return result
  const rules = await returnRules(services, db)
  if (!rules.length) return result
  const all = await pools(services, db)
  for (const rule of rules) {
    const count = await inTransaction(db, async (trx) => {
      const at = clock()
      const time = at.format('YYYY-MM-DD HH:mm:ss')
      let eligible = trx.selectFrom(`${CUSTOMER_TABLE} as c`).select(['c.id', 'c.owner_id']).where(rulePredicate(services, trx, rule, all, at)).orderBy('c.id')
      if (services.databases.kind === 'postgres') eligible = eligible.forUpdate()
      const byOwner = new Map<string, string[]>()
      for (const r of await eligible.execute()) byOwner.set(String(r.owner_id), [...(byOwner.get(String(r.owner_id)) ?? []), String(r.id)])
      const changes: OwnerChange[] = []
      for (const [owner, ids] of byOwner)
        for (const chunk of chunks(ids)) {
          const returned = await trx
            .updateTable(`${CUSTOMER_TABLE} as c`)
            .set(backToSea(services, rule.poolId, time, actor))
            .where('c.id', 'in', chunk)
            // The rule is not asked twice: the rows it chose are held since the SELECT (FOR UPDATE on
            // PostgreSQL; SQLite runs one transaction at a time), so what can still differ is the owner.
            .where('c.owner_id', '=', owner)
            .returning(['id', 'pre_owner_id'])
            .execute()
          for (const r of returned)
            changes.push({ customerId: String(r.id), type: CHANGE.AUTO_RETURN, from: String(r.pre_owner_id), to: null, poolId: rule.poolId, reason: returnReason(rule) })
        }
      await recordOwnerChange(trx, actor, changes)
      await contactsFollow(services, trx, changes.map((c) => c.customerId), null)
      return changes.length
    })
    result.returned[rule.id] = count
    result.total += count
  }
  result.reminded = await sendReturnReminders(services, db, cfg)
  return result
}

/** Id lists cut to a size every database binds in one statement. */
function chunks(ids: string[], size = 1000): string[][] {
  const out: string[][] = []
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size))
  return out
}

/**
 * The bell notice before automatic return: one personal notice a day per owner listing the customers
 * the sea takes back within the reminder days (sent again the next day while they are still due).
 */
export async function sendReturnReminders(services: Services, db: Db, cfg: SeaConfig): Promise<number> {
  const coming = cfg.remindDays <= 0 ? [] : await comingReturns(services, db, null)
  // The 待办 of an owner with nothing due any more (followed up, returned, reassigned) is closed.
  let stale = db.deleteFrom('sys_todo').where('biz_key', 'like', 'crm-sea-return:%')
  if (coming.length) stale = stale.where('user_id', 'not in', [...new Set(coming.map((c) => c.ownerId))])
  await stale.execute()
  if (!coming.length) return 0
  const names = new Map(
    (await db.selectFrom(CUSTOMER_TABLE).select(['id', 'name']).where('id', 'in', coming.map((c) => c.id)).execute()).map((r) => [String(r.id), String(r.name)]),
  )
  const byOwner = new Map<string, typeof coming>()
  for (const c of coming) byOwner.set(c.ownerId, [...(byOwner.get(c.ownerId) ?? []), c])
  const day = clock().format('YYYY-MM-DD')
  const customerPath = await menuPathOf(db, PERMISSION.crm.customer.query)
  await inTransaction(db, async (trx) => {
    for (const [owner, list] of byOwner) {
      const lines = list.map((c) => `${names.get(c.id) ?? c.id}（${c.returnDate}）`).join('、')
      await sendPersonalNotice(services, trx, owner, `crm-sea-return:${day}`, `您有${list.length}个客户即将被收回公海`, `以下客户将被自动收回公海，请及时跟进：${lines}`)
      // and a 待办 that opens 我的客户, refreshed each day while customers are still due
      if (customerPath) await addTodos(trx, [owner], { key: `crm-sea-return:${owner}`, title: `您有${list.length}个客户即将被收回公海`, jumpUrl: customerPath })
    }
  })
  return byOwner.size
}

const CONDITION_TEXT: Record<number, string> = { [COND.NO_FOLLOW]: '未跟进', [COND.NO_BUSINESS]: '未新增商机', [COND.NO_DEAL]: '未成交' }
const returnReason = (rule: ReturnRule) => `超过${rule.days}天${CONDITION_TEXT[rule.condition] ?? ''}，自动回收公海`

/**
 * Owned customers that a rule will return within `remindDays` (the reminder before return), for one
 * owner or everyone: id, owner and the date of return, computed by the same predicates moved forward.
 */
export async function comingReturns(services: Services, db: Db, ownerId: string | null): Promise<{ id: string; ownerId: string; returnDate: string }[]> {
  const cfg = await seaConfig(services, db, null)
  if (!cfg.autoReturn) return []
  const rules = await returnRules(services, db)
  const all = await pools(services, db)
  const found = new Map<string, { id: string; ownerId: string; returnDate: string }>()
  for (let ahead = 0; ahead <= cfg.remindDays; ahead++) {
    const at = clock().add(ahead, 'day')
    for (const rule of rules) {
      let q = db.selectFrom(`${CUSTOMER_TABLE} as c`).select(['c.id', 'c.owner_id']).where(rulePredicate(services, db, rule, all, at))
      if (ownerId) q = q.where('c.owner_id', '=', ownerId)
      for (const r of await q.limit(500).execute())
        if (!found.has(String(r.id))) found.set(String(r.id), { id: String(r.id), ownerId: String(r.owner_id), returnDate: at.format('YYYY-MM-DD') })
    }
  }
  return [...found.values()]
}
