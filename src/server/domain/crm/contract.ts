import Decimal from 'decimal.js'
import { CRM_PAYMENT_PLAN_STATUS } from '../../../shared/generated/enum-codes.js'
import { sql } from 'kysely'
import type { Db, DbKind } from '../../db/dialect.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityHooks } from '../../engine/entity-hooks.js'
import type { EntityStore } from '../../engine/entity-store.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { wireDecimalText } from '../../../shared/metadata/decimal-grammar.js'
import { invalid, notFound } from '../../platform/errors.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { newId } from '../../platform/ids.js'
import { today } from '../../platform/clock.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import { pageArgs } from '../../platform/page-args.js'
import { approvalHooks, CRM_STATUS } from './approval.js'
import type { PaymentRow } from '../../../shared/contracts/contract-payment.js'

export const CONTRACT_SUBJECT = '合同'
const MAX_PLANS = 120
const money = (v: unknown) => new Decimal(String(v ?? 0))
const fixed = (d: Decimal) => d.toFixed(2)

/** CRM_PAYMENT_PLAN_STATUS, derived from received vs planned amount and the due date. */
export const PLAN_STATUS = CRM_PAYMENT_PLAN_STATUS

/** Row locks on PostgreSQL (SQLite runs one writing transaction at a time, so a read there is already current). */
const lock = <Q extends { forUpdate(): Q }>(kind: DbKind, q: Q): Q => (kind === 'postgres' ? q.forUpdate() : q)

async function plannedTotal(trx: Db, contractId: string): Promise<Decimal> {
  const rows = await trx.selectFrom('crm_contract_plan').select('plan_amount').where('contract_id', '=', contractId).execute()
  return rows.reduce((s, r) => s.plus(money(r.plan_amount)), new Decimal(0))
}

async function descendants(trx: Db, id: string): Promise<Set<string>> {
  const seen = new Set<string>([id])
  let frontier = [id]
  while (frontier.length) {
    const rows = await trx.selectFrom('crm_contract').select('id').where('parent_id', 'in', frontier).execute()
    frontier = rows.map((r) => String(r.id)).filter((x) => !seen.has(x))
    for (const x of frontier) seen.add(x)
  }
  return seen
}

/**
 * 合同 rules beyond the file: approval (approval.ts), the opportunity and signer belong to the
 * contract's customer, the parent is neither the contract nor one below it, and the amount never drops
 * below what its collection plans add up to. Deleting a (never approved) contract takes its plans and
 * attachments with it.
 */
export function crmContractHooks(): EntityHooks {
  const approval = approvalHooks(CONTRACT_SUBJECT, 'principalId')
  return {
    async beforeSave(e) {
      await approval.beforeSave?.(e)
      const { trx, values, existing, mode } = e
      const merged = { ...existing, ...values }
      const customerId = String(merged.customerId ?? '')
      if (!isBlank(merged.businessId)) {
        const b = await trx.selectFrom('crm_business').select('customer_id').where('id', '=', String(merged.businessId)).executeTakeFirst()
        if (b && String(b.customer_id) !== customerId) throw invalid('商机不属于该客户', 'businessId')
      }
      if (!isBlank(merged.contactId)) {
        const c = await trx.selectFrom('crm_contact').select('customer_id').where('id', '=', String(merged.contactId)).executeTakeFirst()
        if (c && String(c.customer_id) !== customerId) throw invalid('客户签约人不属于该客户', 'contactId')
      }
      if (!isBlank(merged.startDate) && !isBlank(merged.endDate) && String(merged.endDate) < String(merged.startDate))
        throw invalid('结束日期不能早于开始日期', 'endDate')
      if (mode === 'modify' && existing) {
        const id = String(existing.id)
        if (!isBlank(values.parentId) && (await descendants(trx, id)).has(String(values.parentId)))
          throw invalid('上级合同不能是自身或下级合同', 'parentId')
        if ('amount' in values) {
          const planned = await plannedTotal(trx, id)
          if (money(values.amount).lt(planned)) throw invalid(`合同金额不能小于回款计划总金额（${fixed(planned)}）！`, 'amount')
        }
      }
    },
    async afterSave(e) {
      await approval.afterSave?.(e)
      if (e.mode === 'create') await e.trx.updateTable('crm_contract').set({ received_amount: '0.00' }).where('id', '=', e.id).execute()
    },
    async beforeDelete(e) {
      await approval.beforeDelete?.(e)
      const received = await e.trx.selectFrom('crm_contract_receive').select('id').where('contract_id', 'in', e.ids).executeTakeFirst()
      if (received) throw invalid('合同已有回款记录，无法删除！')
      await e.trx.deleteFrom('crm_contract_plan').where('contract_id', 'in', e.ids).execute()
      await e.trx.deleteFrom('crm_contract_file').where('contract_id', 'in', e.ids).execute()
    },
  }
}

export interface PlanInput {
  id?: unknown
  planDate?: unknown
  planAmount?: unknown
  remindDays?: unknown
  description?: unknown
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

function planAmountOf(raw: unknown, period: number): Decimal {
  const text = wireDecimalText(raw)
  if (text === undefined) throw invalid(`第${period}期计划回款金额格式不正确`, 'planAmount')
  const d = new Decimal(text)
  if (!d.isFinite() || d.decimalPlaces() > 2) throw invalid(`第${period}期计划回款金额最多两位小数`, 'planAmount')
  if (d.lte(0)) throw invalid(`第${period}期计划回款金额必须大于0`, 'planAmount')
  if (d.gte('1e20')) throw invalid(`第${period}期计划回款金额过大`, 'planAmount')
  return d
}

/**
 * Replaces a contract's collection plan by the given periods (numbered 1..n in the given order). A period
 * that already has collections keeps its row (matched by id), may not be removed, and may not be planned
 * below what was collected; all periods together never exceed the contract amount. The contract row is
 * locked first, as the collection path does, so plan edits and collections serialise per contract.
 */
export async function savePlans(trx: Db, kind: DbKind, ctx: RequestContext, store: EntityStore, contract: EntityModel, contractId: unknown, plans: unknown) {
  const record = await store.get(trx, ctx, contract, contractId)
  const id = String(record.id)
  if (!Array.isArray(plans)) throw invalid('请填写回款计划', 'plans')
  if (plans.length > MAX_PLANS) throw invalid(`回款计划不能超过${MAX_PLANS}期`, 'plans')
  const head = await lock(kind, trx.selectFrom('crm_contract').select(['amount']).where('id', '=', id)).executeTakeFirst()
  if (!head) throw notFound('合同不存在！')
  const existing = await lock(kind, trx.selectFrom('crm_contract_plan').selectAll().where('contract_id', '=', id).orderBy('id')).execute()
  const byId = new Map(existing.map((p) => [String(p.id), p]))
  const kept = new Set<string>()
  let total = new Decimal(0)
  const rows = (plans as PlanInput[]).map((p, i) => {
    const period = i + 1
    if (!p || typeof p !== 'object') throw invalid('回款计划格式不正确', 'plans')
    const planDate = typeof p.planDate === 'string' ? p.planDate.trim().slice(0, 10) : ''
    if (!DATE.test(planDate)) throw invalid(`第${period}期计划回款日期不能为空`, 'planDate')
    const amount = planAmountOf(p.planAmount, period)
    total = total.plus(amount)
    const remind = isBlank(p.remindDays) ? null : Number(p.remindDays)
    if (remind !== null && (!Number.isInteger(remind) || remind < 0 || remind > 365)) throw invalid(`第${period}期提前提醒天数必须在0到365之间`, 'remindDays')
    const description = typeof p.description === 'string' ? p.description.trim() : ''
    if (description.length > 200) throw invalid(`第${period}期备注长度不能超过200个字符`, 'description')
    const previous = typeof p.id === 'string' ? byId.get(p.id) : undefined
    if (typeof p.id === 'string' && p.id && !previous) throw invalid(`第${period}期回款计划不存在`, 'plans')
    if (previous) {
      kept.add(String(previous.id))
      const received = money(previous.received_amount)
      if (amount.lt(received)) throw invalid(`第${period}期计划回款金额不能小于已回款金额（${fixed(received)}）`, 'planAmount')
    }
    return { id: previous ? String(previous.id) : undefined, period, planDate, amount, remind, description }
  })
  if (total.gt(money(head.amount)))
    throw invalid(`回款计划总金额（${fixed(total)}）不能超过合同金额（${fixed(money(head.amount))}）！`, 'plans')
  for (const p of existing) {
    if (kept.has(String(p.id))) continue
    if (money(p.received_amount).gt(0)) throw invalid(`第${p.period}期已有回款记录，不能删除`, 'plans')
  }
  const removed = existing.filter((p) => !kept.has(String(p.id))).map((p) => String(p.id))
  if (removed.length) await trx.deleteFrom('crm_contract_plan').where('id', 'in', removed).execute()
  // Periods are renumbered: move kept rows out of the way of the (contract, period) unique index first.
  for (const p of rows) if (p.id) await trx.updateTable('crm_contract_plan').set({ period: -Number(p.period) }).where('id', '=', p.id).execute()
  for (const p of rows) {
    const values = { period: p.period, plan_date: p.planDate, plan_amount: fixed(p.amount), remind_days: p.remind, description: p.description || null }
    if (p.id) {
      // Guarded: never below what a concurrent collection has already added.
      const done = await trx
        .updateTable('crm_contract_plan')
        .set({ ...values, ...updateColumns(ctx) })
        .where('id', '=', p.id)
        .where(sql`cast(received_amount as numeric)`, '<=', fixed(p.amount))
        .executeTakeFirst()
      if (!Number(done.numUpdatedRows)) throw invalid(`第${p.period}期计划回款金额不能小于已回款金额`, 'planAmount')
    } else {
      await trx
        .insertInto('crm_contract_plan')
        .values({ id: newId(), contract_id: id, received_amount: '0.00', ...values, ...auditColumns(ctx) })
        .execute()
    }
  }
  await writeOpLog(trx, ctx, '保存回款计划', OpLogType.OTHER, { id })
}

export interface ReceiveInput {
  planId?: unknown
  amount?: unknown
  receiveDate?: unknown
  payMethod?: unknown
  description?: unknown
}

/**
 * Records money collected against one plan period. The period's received amount moves by one guarded
 * statement: on PostgreSQL `received = received + ?` only where the sum stays within the plan (NUMERIC
 * arithmetic, exact); on SQLite (decimal text, one writer at a time) the sum is computed with decimal.js
 * and written only if the amount read is still the one stored. Either way the period never exceeds its
 * plan, however many collections race; the contract's received total follows in the same transaction.
 */
export async function recordReceive(trx: Db, kind: DbKind, ctx: RequestContext, store: EntityStore, contract: EntityModel, input: ReceiveInput): Promise<string> {
  if (isBlank(input.planId) || typeof input.planId !== 'string') throw invalid('请选择回款期数', 'planId')
  const plan = await trx.selectFrom('crm_contract_plan').select(['id', 'contract_id']).where('id', '=', input.planId).executeTakeFirst()
  if (!plan) throw notFound('回款计划不存在！')
  const record = await store.get(trx, ctx, contract, String(plan.contract_id))
  if (Number(record.status) !== CRM_STATUS.APPROVE_PASS) throw invalid('合同未审核通过，无法登记回款！')
  const text = wireDecimalText(input.amount)
  if (text === undefined) throw invalid('回款金额格式不正确', 'amount')
  const amount = new Decimal(text)
  if (!amount.isFinite() || amount.decimalPlaces() > 2) throw invalid('回款金额最多两位小数', 'amount')
  if (amount.lte(0)) throw invalid('回款金额必须大于0', 'amount')
  const receiveDate = typeof input.receiveDate === 'string' ? input.receiveDate.trim().slice(0, 10) : ''
  if (!DATE.test(receiveDate)) throw invalid('回款日期不能为空', 'receiveDate')
  const payMethod = typeof input.payMethod === 'string' ? input.payMethod.trim() : ''
  if (payMethod.length > 50) throw invalid('付款方式长度不能超过50个字符', 'payMethod')
  const description = typeof input.description === 'string' ? input.description.trim() : ''
  if (description.length > 200) throw invalid('备注长度不能超过200个字符', 'description')
  const contractId = String(record.id)
  const value = fixed(amount)

  await lock(kind, trx.selectFrom('crm_contract').select('id').where('id', '=', contractId)).executeTakeFirst()
  const refuse = async () => {
    const now = await trx.selectFrom('crm_contract_plan').select(['period', 'plan_amount', 'received_amount']).where('id', '=', plan.id).executeTakeFirst()
    const left = money(now?.plan_amount).minus(money(now?.received_amount))
    return invalid(`回款金额不能超过第${now?.period}期未回款金额（${fixed(left)}）！`, 'amount')
  }
  if (kind === 'postgres') {
    const done = await trx
      .updateTable('crm_contract_plan')
      .set({ received_amount: sql`received_amount + ${value}::numeric`, ...updateColumns(ctx) })
      .where('id', '=', plan.id)
      .where(sql`received_amount + ${value}::numeric`, '<=', sql.ref('plan_amount'))
      .executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw await refuse()
    await trx
      .updateTable('crm_contract')
      .set({ received_amount: sql`coalesce(received_amount, 0) + ${value}::numeric` })
      .where('id', '=', contractId)
      .execute()
  } else {
    const row = await trx.selectFrom('crm_contract_plan').select(['plan_amount', 'received_amount']).where('id', '=', plan.id).executeTakeFirstOrThrow()
    const next = money(row.received_amount).plus(amount)
    if (next.gt(money(row.plan_amount))) throw await refuse()
    const done = await trx
      .updateTable('crm_contract_plan')
      .set({ received_amount: fixed(next), ...updateColumns(ctx) })
      .where('id', '=', plan.id)
      .where('received_amount', '=', row.received_amount)
      .executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw await refuse()
    const head = await trx.selectFrom('crm_contract').select('received_amount').where('id', '=', contractId).executeTakeFirstOrThrow()
    await trx
      .updateTable('crm_contract')
      .set({ received_amount: fixed(money(head.received_amount).plus(amount)) })
      .where('id', '=', contractId)
      .where('received_amount', head.received_amount === null ? 'is' : '=', head.received_amount)
      .execute()
  }
  const id = newId()
  await trx
    .insertInto('crm_contract_receive')
    .values({
      id,
      contract_id: contractId,
      plan_id: plan.id,
      receive_date: receiveDate,
      amount: value,
      pay_method: payMethod || null,
      description: description || null,
      ...auditColumns(ctx),
    })
    .execute()
  await writeOpLog(trx, ctx, '登记回款', OpLogType.OTHER, { id, contractId })
  return id
}

/** Takes a collection record back: its period and contract totals drop by its amount (never below 0). */
export async function removeReceive(trx: Db, kind: DbKind, ctx: RequestContext, store: EntityStore, contract: EntityModel, receiveId: unknown) {
  if (isBlank(receiveId) || typeof receiveId !== 'string') throw invalid('请选择回款记录', 'id')
  const row = await trx.selectFrom('crm_contract_receive').selectAll().where('id', '=', receiveId).executeTakeFirst()
  if (!row) throw notFound('回款记录不存在！')
  const record = await store.get(trx, ctx, contract, String(row.contract_id))
  const contractId = String(record.id)
  const amount = money(row.amount)
  await lock(kind, trx.selectFrom('crm_contract').select('id').where('id', '=', contractId)).executeTakeFirst()
  const planRow = await lock(kind, trx.selectFrom('crm_contract_plan').select(['received_amount']).where('id', '=', String(row.plan_id))).executeTakeFirst()
  const head = await trx.selectFrom('crm_contract').select('received_amount').where('id', '=', contractId).executeTakeFirstOrThrow()
  const gone = await trx.deleteFrom('crm_contract_receive').where('id', '=', receiveId).executeTakeFirst()
  if (!Number(gone.numDeletedRows)) throw notFound('回款记录不存在！')
  if (planRow)
    await trx
      .updateTable('crm_contract_plan')
      .set({ received_amount: fixed(Decimal.max(0, money(planRow.received_amount).minus(amount))), ...updateColumns(ctx) })
      .where('id', '=', String(row.plan_id))
      .execute()
  await trx
    .updateTable('crm_contract')
    .set({ received_amount: fixed(Decimal.max(0, money(head.received_amount).minus(amount))) })
    .where('id', '=', contractId)
    .execute()
  await writeOpLog(trx, ctx, '删除回款记录', OpLogType.OTHER, { id: receiveId, contractId })
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

/**
 * Collection plans with their periods, due dates, received and unreceived amounts and overdue state
 * (`GET /crm/contract/queryPayment`), narrowed to the contracts the caller may see; by contract, customer,
 * status (CRM_PAYMENT_PLAN_STATUS) or overdue only. Each row carries its collection records; the answer
 * also sums the page's filter as a whole.
 */
export async function queryPayment(db: Db, ctx: RequestContext, store: EntityStore, contract: EntityModel, query: Record<string, unknown>) {
  const { pageIndex, pageSize } = pageArgs(query, 500, 50)
  const visible = (await store.rows(db, ctx, contract)).select('t.id')
  const day = today()
  let base = db
    .selectFrom('crm_contract_plan as p')
    .innerJoin('crm_contract as c', 'c.id', 'p.contract_id')
    .leftJoin('base_data_customer as cu', 'cu.id', 'c.customer_id')
    .where('p.contract_id', 'in', visible)
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')
  const contractId = text(query.contractId) || text(query.id)
  if (contractId) base = base.where('p.contract_id', '=', contractId)
  if (text(query.customerId)) base = base.where('c.customer_id', '=', text(query.customerId))
  const numeric = (col: string) => sql<string>`cast(${sql.ref(col)} as numeric)`
  const open = numeric('p.received_amount')
  const overdueOnly = ['true', '1'].includes(text(query.overdue))
  const status = text(query.status)
  if (overdueOnly || status === String(PLAN_STATUS.OVERDUE))
    base = base.where('p.plan_date', '<', day).where(open, '<', numeric('p.plan_amount'))
  else if (status === String(PLAN_STATUS.RECEIVED)) base = base.where(open, '>=', numeric('p.plan_amount'))
  else if (status === String(PLAN_STATUS.PARTIAL))
    base = base.where(open, '>', sql<string>`0`).where(open, '<', numeric('p.plan_amount')).where('p.plan_date', '>=', day)
  else if (status === String(PLAN_STATUS.UNRECEIVED)) base = base.where(open, '=', sql<string>`0`).where('p.plan_date', '>=', day)
  else if (status) throw invalid('回款状态不正确', 'status')

  const all = await base.select(['p.plan_amount', 'p.received_amount']).execute()
  const planTotal = all.reduce((s, r) => s.plus(money(r.plan_amount)), new Decimal(0))
  const receivedTotal = all.reduce((s, r) => s.plus(money(r.received_amount)), new Decimal(0))
  const rows = await base
    .select([
      'p.id', 'p.contract_id', 'p.period', 'p.plan_date', 'p.plan_amount', 'p.received_amount', 'p.remind_days', 'p.description',
      'c.contract_no', 'c.name as contract_name', 'c.customer_id', 'cu.name as customer_name',
    ])
    .orderBy('p.plan_date', 'asc')
    .orderBy('c.contract_no', 'asc')
    .orderBy('p.period', 'asc')
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize)
    .execute()
  const planIds = rows.map((r) => String(r.id))
  const records = planIds.length
    ? await db.selectFrom('crm_contract_receive').selectAll().where('plan_id', 'in', planIds).orderBy('receive_date').orderBy('create_time').execute()
    : []
  const datas: PaymentRow[] = rows.map((r) => {
    const plan = money(r.plan_amount)
    const received = money(r.received_amount)
    const unreceived = Decimal.max(0, plan.minus(received))
    const planDate = String(r.plan_date)
    const overdue = unreceived.gt(0) && planDate < day
    const statusCode = unreceived.lte(0) ? PLAN_STATUS.RECEIVED : overdue ? PLAN_STATUS.OVERDUE : received.gt(0) ? PLAN_STATUS.PARTIAL : PLAN_STATUS.UNRECEIVED
    return {
      id: String(r.id),
      contractId: String(r.contract_id),
      contractNo: String(r.contract_no),
      contractName: String(r.contract_name),
      customerId: String(r.customer_id),
      customerName: (r.customer_name as string | null) ?? null,
      period: Number(r.period),
      planDate,
      planAmount: fixed(plan),
      receivedAmount: fixed(received),
      unreceivedAmount: fixed(unreceived),
      status: statusCode,
      overdue,
      overdueDays: overdue ? daysBetween(planDate, day) : 0,
      remindDays: r.remind_days === null ? null : Number(r.remind_days),
      description: (r.description as string | null) ?? null,
      records: records
        .filter((x) => x.plan_id === r.id)
        .map((x) => ({
          id: String(x.id),
          receiveDate: String(x.receive_date),
          amount: fixed(money(x.amount)),
          payMethod: (x.pay_method as string | null) ?? null,
          description: (x.description as string | null) ?? null,
          createBy: (x.create_by as string | null) ?? null,
          createTime: (x.create_time as string | null) ?? null,
        })),
    }
  })
  return {
    pageIndex,
    pageSize,
    totalCount: all.length,
    datas,
    planAmount: fixed(planTotal),
    receivedAmount: fixed(receivedTotal),
    unreceivedAmount: fixed(Decimal.max(0, planTotal.minus(receivedTotal))),
  }
}

/** The parent chain of a contract, nearest first (上级合同), each within the caller's rows. */
export async function parentChain(db: Db, ctx: RequestContext, store: EntityStore, contract: EntityModel, id: unknown) {
  const record = await store.get(db, ctx, contract, id)
  const chain: Record<string, unknown>[] = []
  const seen = new Set<string>([String(record.id)])
  let parentId = record.parentId as string | null
  while (parentId && !seen.has(parentId) && chain.length < 50) {
    seen.add(parentId)
    const rows = await store.loadByIds(db, ctx, contract, [parentId], contract.file.views?.list?.columns)
    if (!rows[0]) break
    chain.push(rows[0])
    parentId = rows[0].parentId as string | null
  }
  return chain
}
