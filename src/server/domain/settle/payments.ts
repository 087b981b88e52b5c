import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import type { RequestContext } from '../../platform/request-context.js'
import { invalid } from '../../platform/errors.js'
import { today } from '../../platform/clock.js'
import { newId } from '../../platform/ids.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { nextDocumentNumber } from '../../engine/document-number.js'
import type { Wire } from '../../engine/record-codec.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { PAYMENT_ORDER_KINDS, lockSettleDocument, type SettleDocument } from './documents.js'
import { fixed, giveBack, guardedAdd, money, remainderAtLeast } from './money.js'

/**
 * 收付款 and 收付款计划 (spec 001 §7 /settle/payments/*; the choices are written in the entity files
 * settle-payments-order-type.json, settle-payment-plan.json, settle-payment.json). Everything runs in the
 * caller's transaction through the entity hooks, so the generic family and the spec's calls share it.
 */

const PLAN = 'settle_payment_plan'
const PAYMENT = 'settle_payment'
const ITEM = 'settle_payment_item'

const kindOf = (services: Services, code: unknown) => {
  const kind = PAYMENT_ORDER_KINDS[Number(code)]
  if (!kind) throw invalid('请选择单据类型', 'orderKind')
  return { kind, label: services.registry.enums.label('SETTLE_PAYMENT_ORDER_KIND', Number(code)) ?? '单据' }
}

interface PlanRow {
  id: string
  order_kind: number
  order_code: string
  order_id: string
  direction: number
  supplier_id: string | null
  customer_id: string | null
  period: number
  plan_amount: string
  paid_amount: string
}

const remainOf = (p: PlanRow) => new Decimal(String(p.plan_amount)).minus(String(p.paid_amount ?? 0))

/** The enabled 收付款单据类型 of a kind, if any. */
async function orderType(trx: Db, kind: number) {
  return trx.selectFrom('settle_payments_order_type').select(['direction', 'available']).where('order_kind', '=', kind).executeTakeFirst()
}

/** Σ plan amounts of one document must stay within its total (read under the document's lock). */
async function checkPlanTotal(trx: Db, doc: SettleDocument, label: string) {
  const rows = await trx.selectFrom(PLAN).select('plan_amount').where('order_id', '=', doc.id).execute()
  const sum = rows.reduce((s, r) => s.plus(String(r.plan_amount)), new Decimal(0))
  if (sum.gt(doc.total))
    throw invalid(`${label}：${doc.code}的收付款计划合计${fixed(sum)}元超过单据金额${fixed(doc.total)}元，无法保存！`, 'planAmount')
}

export function paymentPlanHooks(services: Services) {
  const kind = services.databases.kind
  /** The document each plan write locked in beforeSave, by the write's values object. */
  const locked = new WeakMap<Wire, { doc: SettleDocument; label: string; direction: number }>()
  return {
    /**
     * The document is locked before the plan row is written: every writer of plans and payments takes
     * the document first, then plan rows, so two of them never wait on each other in opposite orders.
     */
    async beforeSave(e: { trx: Db; ctx: RequestContext; mode: 'create' | 'modify'; values: Wire; existing?: Wire }) {
      const orderKind = e.mode === 'create' ? e.values.orderKind : e.existing?.orderKind
      const { kind: k, label } = kindOf(services, orderKind)
      const type = await orderType(e.trx, Number(orderKind))
      if (e.mode === 'create' && (!type || !type.available || type.available === 0))
        throw invalid(`${label}未启用收付款计划，请先在收付款单据类型中设置！`, 'orderKind')
      const doc = await lockSettleDocument(services, e.trx, e.ctx, k, label, e.mode === 'create' ? e.values.orderCode : e.existing?.orderCode)
      locked.set(e.values, { doc, label, direction: type ? Number(type.direction) : k.direction })
    },
    async afterSave(e: { trx: Db; ctx: RequestContext; mode: 'create' | 'modify'; values: Wire; existing?: Wire; id: string }) {
      const { trx } = e
      const held = locked.get(e.values)
      if (!held) throw new Error('payment plan saved without its document lock')
      const { doc, label } = held
      if (e.mode === 'create') {
        await trx
          .updateTable(PLAN)
          .set({
            order_id: doc.id,
            order_code: doc.code,
            direction: held.direction,
            supplier_id: doc.supplierId,
            customer_id: doc.customerId,
            order_amount: fixed(doc.total),
            paid_amount: '0.00',
          })
          .where('id', '=', e.id)
          .execute()
      } else {
        const paid = new Decimal(String(e.existing?.paidAmount ?? 0))
        const planned = new Decimal(String(e.values.planAmount ?? e.existing?.planAmount))
        if (planned.lt(paid)) throw invalid(`计划金额不能小于已收付金额${fixed(paid)}元！`, 'planAmount')
        // The guard again as a statement: a payment committed since the read above is not lost.
        const stillFits = await trx
          .selectFrom(PLAN)
          .select('id')
          .where('id', '=', e.id)
          .where(remainderAtLeast(kind, 'plan_amount', 'paid_amount', new Decimal(0)))
          .executeTakeFirst()
        if (!stillFits) throw invalid('计划金额不能小于已收付金额！', 'planAmount')
      }
      await checkPlanTotal(trx, doc, label)
    },
    async beforeDelete(e: { trx: Db; ids: string[] }) {
      const paid = await e.trx.selectFrom(PLAN).select(['paid_amount', 'order_code', 'period']).where('id', 'in', e.ids).execute()
      const used = paid.find((p) => new Decimal(String(p.paid_amount ?? 0)).gt(0))
      if (used) throw invalid(`单据${used.order_code}第${used.period}期收付款计划已有收付款，不允许删除！`)
    },
    async decorate(rows: Wire[]) {
      const day = today()
      for (const r of rows) {
        const remain = new Decimal(String(r.planAmount ?? 0)).minus(String(r.paidAmount ?? 0))
        r.remainAmount = fixed(remain)
        r.overdue = remain.gt(0) && typeof r.dueDate === 'string' && r.dueDate < day
      }
    },
  }
}

// ---------------------------------------------------------------------------------------------------

interface Allocation {
  planId: string
  amount: Decimal
}

/** `items` of a payment: [{planId, amount}], each plan once, amounts > 0 with 2 places. */
function parseItems(value: unknown): Allocation[] | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const list = typeof value === 'string' ? safeJson(value) : value
  if (!Array.isArray(list)) throw invalid('收付款计划分配格式不正确', 'items')
  const seen = new Set<string>()
  return list.map((item, i) => {
    const n = i + 1
    if (!item || typeof item !== 'object') throw invalid(`第${n}行收付款计划分配格式不正确`, 'items')
    const { planId, amount } = item as Record<string, unknown>
    if (typeof planId !== 'string' || !planId) throw invalid(`第${n}行请选择收付款计划`, 'items')
    if (seen.has(planId)) throw invalid(`第${n}行收付款计划重复，请检查！`, 'items')
    seen.add(planId)
    const d = money(amount, `第${n}行分配金额`, 'items')
    if (d.lte(0)) throw invalid(`第${n}行分配金额必须大于0`, 'items')
    return { planId, amount: d }
  })
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw invalid('收付款计划分配格式不正确', 'items')
  }
}

const planName = (p: PlanRow) => `单号${p.order_code}第${p.period}期`

/**
 * Takes the allocations from their plan lines: plans in a stable order (by id, so two payments over
 * the same lines lock them in the same order), each with ONE guarded UPDATE; a line whose remainder is
 * smaller refuses the whole payment.
 */
async function allocate(
  services: Services,
  trx: Db,
  ctx: RequestContext,
  paymentId: string,
  payment: { direction: number; supplierId: string | null; customerId: string | null; orderId: string | null; orderCode: string | null },
  allocations: Allocation[],
  positions: Map<string, number>,
) {
  const kind = services.databases.kind
  const plans = allocations.length
    ? ((await trx.selectFrom(PLAN).selectAll().where('id', 'in', allocations.map((a) => a.planId)).execute()) as unknown as PlanRow[])
    : []
  const byId = new Map(plans.map((p) => [String(p.id), p]))
  for (const a of allocations) {
    const n = positions.get(a.planId) ?? 0
    const plan = byId.get(a.planId)
    if (!plan) throw invalid(`第${n}行收付款计划不存在`, 'items')
    if (
      Number(plan.direction) !== payment.direction ||
      (plan.supplier_id ?? null) !== payment.supplierId ||
      (plan.customer_id ?? null) !== payment.customerId
    )
      throw invalid(`第${n}行收付款计划（${planName(plan)}）的往来单位或收付方向与收付款不一致！`, 'items')
    if (payment.orderId && plan.order_id !== payment.orderId)
      throw invalid(`第${n}行收付款计划（${planName(plan)}）不属于单据${payment.orderCode}！`, 'items')
  }
  for (const a of [...allocations].sort((x, y) => (x.planId < y.planId ? -1 : x.planId > y.planId ? 1 : 0))) {
    const plan = byId.get(a.planId) as PlanRow
    if (!(await guardedAdd(trx, kind, PLAN, a.planId, 'paid_amount', 'plan_amount', a.amount))) {
      const now = (await trx.selectFrom(PLAN).selectAll().where('id', '=', a.planId).executeTakeFirst()) as unknown as PlanRow
      throw invalid(
        `第${positions.get(a.planId) ?? 0}行：收付款计划（${planName(plan)}）剩余未收付金额为${fixed(remainOf(now ?? plan))}元，本次金额为${fixed(a.amount)}元，无法登记！`,
        'items',
      )
    }
    await trx
      .insertInto(ITEM)
      .values({
        id: newId(),
        payment_id: paymentId,
        plan_id: a.planId,
        order_kind: Number(plan.order_kind),
        order_code: plan.order_code,
        period: Number(plan.period),
        amount: fixed(a.amount),
        ...auditColumns(ctx),
      })
      .execute()
  }
}

/** The plan lines of a document by period; a document without any gets one for its whole total first. */
async function plansOfDocument(trx: Db, ctx: RequestContext, orderKind: number, doc: SettleDocument, direction: number) {
  let plans = (await trx.selectFrom(PLAN).selectAll().where('order_id', '=', doc.id).orderBy('period').execute()) as unknown as PlanRow[]
  if (!plans.length) {
    await trx
      .insertInto(PLAN)
      .values({
        id: newId(),
        order_kind: orderKind,
        order_code: doc.code,
        order_id: doc.id,
        direction,
        supplier_id: doc.supplierId,
        customer_id: doc.customerId,
        order_amount: fixed(doc.total),
        period: 1,
        due_date: doc.dueDate,
        plan_amount: fixed(doc.total),
        paid_amount: '0.00',
        description: '登记收付款时按单据金额生成',
        ...auditColumns(ctx),
      })
      .execute()
    plans = (await trx.selectFrom(PLAN).selectAll().where('order_id', '=', doc.id).orderBy('period').execute()) as unknown as PlanRow[]
  }
  return plans
}

/** The direction of a document kind: its enabled 收付款单据类型, else the kind's natural one. */
async function directionOf(trx: Db, orderKind: number) {
  const type = await orderType(trx, orderKind)
  return type && type.available && type.available !== 0 ? Number(type.direction) : PAYMENT_ORDER_KINDS[orderKind].direction
}

export function paymentHooks(services: Services) {
  const kind = services.databases.kind

  /** (Re)allocates a saved payment: explicit items, else its document's plans by period, else nothing. */
  async function settle(trx: Db, ctx: RequestContext, id: string, record: Wire, items: Allocation[] | undefined) {
    const direction = Number(record.direction)
    const supplierId = isBlank(record.supplierId) ? null : String(record.supplierId)
    const customerId = isBlank(record.customerId) ? null : String(record.customerId)
    if (!supplierId && !customerId) throw invalid('请选择供应商或客户', 'supplierId')
    if (supplierId && customerId) throw invalid('供应商和客户只能选择一个', 'customerId')
    const amount = money(record.amount, '金额', 'amount')
    let orderId: string | null = null
    let allocations = items ?? []
    if (!isBlank(record.orderCode) || !isBlank(record.orderKind)) {
      const { kind: k, label } = kindOf(services, record.orderKind)
      const doc = await lockSettleDocument(services, trx, ctx, k, label, record.orderCode)
      if ((doc.supplierId ?? null) !== supplierId || (doc.customerId ?? null) !== customerId)
        throw invalid(`${label}：${doc.code}的往来单位与收付款不一致！`, 'orderCode')
      const natural = await directionOf(trx, Number(record.orderKind))
      if (natural !== direction)
        throw invalid(`${label}：${doc.code}的收付方向为${services.registry.enums.label('SETTLE_FEE_SHEET_TYPE', natural)}，与收付款不一致！`, 'direction')
      orderId = doc.id
      if (!items) {
        const plans = await plansOfDocument(trx, ctx, Number(record.orderKind), doc, direction)
        const open = plans.reduce((s, p) => s.plus(remainOf(p)), new Decimal(0))
        if (open.lt(amount))
          throw invalid(`${label}：${doc.code}剩余未收付金额为${fixed(open)}元，本次金额为${fixed(amount)}元，无法登记！`, 'amount')
        let left = amount
        allocations = []
        for (const p of plans) {
          if (left.lte(0)) break
          const take = Decimal.min(left, remainOf(p))
          if (take.lte(0)) continue
          allocations.push({ planId: String(p.id), amount: take })
          left = left.minus(take)
        }
      }
    }
    const allocated = allocations.reduce((s, a) => s.plus(a.amount), new Decimal(0))
    if (allocated.gt(amount)) throw invalid(`分配金额合计${fixed(allocated)}元不能超过收付款金额${fixed(amount)}元！`, 'items')
    const positions = new Map((items ?? allocations).map((a, i) => [a.planId, i + 1]))
    await allocate(services, trx, ctx, id, { direction, supplierId, customerId, orderId, orderCode: orderId ? String(record.orderCode).trim() : null }, allocations, positions)
    await trx.updateTable(PAYMENT).set({ order_id: orderId, allocated_amount: fixed(allocated) }).where('id', '=', id).execute()
  }

  /** Gives every allocation of a payment back to its plan line and forgets it. */
  async function release(trx: Db, id: string) {
    const items = await trx.selectFrom(ITEM).select(['plan_id', 'amount']).where('payment_id', '=', id).orderBy('plan_id').execute()
    for (const it of items) await giveBack(trx, kind, PLAN, String(it.plan_id), 'paid_amount', new Decimal(String(it.amount)))
    await trx.deleteFrom(ITEM).where('payment_id', '=', id).execute()
    return items.map((it) => ({ planId: String(it.plan_id), amount: new Decimal(String(it.amount)) }))
  }

  return {
    async afterSave(e: { trx: Db; ctx: RequestContext; mode: 'create' | 'modify'; values: Wire; existing?: Wire; id: string }) {
      const { trx, ctx, id } = e
      const items = parseItems(e.values.items)
      if (e.mode === 'create') {
        await settle(trx, ctx, id, e.values, items)
        // The number after the plan lines: every payment takes plan rows before the day counter, one order.
        await trx
          .updateTable(PAYMENT)
          .set({ code: await nextDocumentNumber(trx), invoiced_amount: '0.00' })
          .where('id', '=', id)
          .execute()
        return
      }
      const record = { ...e.existing, ...e.values }
      // Document first, then plan rows (the order every plan and payment writer keeps; settle locks it again, a no-op).
      if (!isBlank(record.orderCode)) {
        const { kind: k, label } = kindOf(services, record.orderKind)
        await lockSettleDocument(services, trx, ctx, k, label, record.orderCode)
      }
      const before = await release(trx, id)
      // Without new items a payment keeps its allocation: its document's plans again, or the same lines.
      const again = items ?? (isBlank(record.orderCode) ? before : undefined)
      await settle(trx, ctx, id, record, again)
      const invoiced = new Decimal(String(e.existing?.invoicedAmount ?? 0))
      if (money(record.amount, '金额').lt(invoiced)) throw invalid(`金额不能小于已开票金额${fixed(invoiced)}元！`, 'amount')
      await trx.updateTable(PAYMENT).set(updateColumns(ctx)).where('id', '=', id).execute()
    },
    async decorate(rows: Wire[], e: { db: Db }) {
      if (!rows.length) return
      const items = await e.db
        .selectFrom(`${ITEM} as i`)
        .leftJoin(`${PLAN} as p`, 'p.id', 'i.plan_id')
        .select(['i.id', 'i.payment_id', 'i.plan_id', 'i.order_kind', 'i.order_code', 'i.period', 'i.amount', 'p.due_date', 'p.plan_amount', 'p.paid_amount'])
        .where('i.payment_id', 'in', rows.map((r) => String(r.id)))
        .orderBy('i.order_code')
        .orderBy('i.period')
        .execute()
      for (const r of rows)
        r.items = items
          .filter((i) => i.payment_id === r.id)
          .map((i) => ({
            id: i.id,
            planId: i.plan_id,
            orderKind: Number(i.order_kind),
            orderCode: i.order_code,
            period: Number(i.period),
            dueDate: i.due_date,
            amount: fixed(String(i.amount)),
            planAmount: fixed(String(i.plan_amount ?? 0)),
            paidAmount: fixed(String(i.paid_amount ?? 0)),
          }))
    },
  }
}

