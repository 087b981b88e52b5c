import Decimal from 'decimal.js'
import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { decimalAdd, decimalColumn, decimalCompare, decimalValue } from '../../db/exact-decimal.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { EntityStore } from '../../engine/entity-store.js'
import type { Wire } from '../../engine/record-codec.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { DocumentStatus } from '../../../shared/metadata/document-model.js'
import { updateColumns } from '../../platform/audit-columns.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import { appendLedger } from './ledger.js'
import { sideOfSheet, type AmountWords, type SettleSide } from './parties.js'
import { approveRange, pageOf, partyOf, withinRange } from './candidates.js'
import { lockRows } from '../../db/row-locks.js'
import { settleCheckSheets } from './settle-check-sheet.js'
import { SettleStatus } from './settle-status.js'

const HELD: number[] = [SettleStatus.UN_SETTLE, SettleStatus.PART_SETTLE]
/** Settle sheets that still hold their check sheets (pending or refused). */
const OPEN_SHEETS: number[] = [DocumentStatus.CREATED, DocumentStatus.APPROVE_REFUSE]

interface CheckSheet {
  id: string
  code: string
  partyId: string
  status: number
  settleStatus: number
  approveTime: string | null
  totalPay: Decimal
  payed: Decimal
  discount: Decimal
  /** total_pay_amount − total_payed_amount − total_discount_amount */
  unpaid: Decimal
}

/** The check sheets of `ids`; with a viewer, only those within the viewer's data permission. */
async function findCheckSheets(db: Db, side: SettleSide, ids: string[], viewer?: { store: EntityStore; ctx: RequestContext }): Promise<Map<string, CheckSheet>> {
  const wanted = [...new Set(ids)]
  if (!wanted.length) return new Map()
  let q = db
    .selectFrom(side.check.table)
    .select(['id', 'code', `${side.partyColumn} as party_id`, 'status', 'settle_status', 'approve_time', 'total_pay_amount', 'total_payed_amount', 'total_discount_amount'])
    .where('id', 'in', wanted)
  if (viewer) q = q.where(await viewer.store.scope(db, viewer.ctx, viewer.store.registry.get(side.check.doc)))
  const rows = await q.execute()
  return new Map(
    rows.map((r) => {
      const totalPay = new Decimal(String(r.total_pay_amount ?? 0))
      const payed = new Decimal(String(r.total_payed_amount ?? 0))
      const discount = new Decimal(String(r.total_discount_amount ?? 0))
      return [
        String(r.id),
        {
          id: String(r.id),
          code: String(r.code),
          partyId: String(r.party_id),
          status: Number(r.status),
          settleStatus: Number(r.settle_status),
          approveTime: r.approve_time == null ? null : String(r.approve_time),
          totalPay,
          payed,
          discount,
          unpaid: totalPay.minus(payed).minus(discount),
        },
      ]
    }),
  )
}

/** The distinct check sheet ids lines name (as sent: only text ids count). */
const bizIds = (lines: Wire[]) => [...new Set(lines.map((l) => l.bizId).filter((v): v is string => typeof v === 'string' && v !== ''))]

/**
 * The sign rules of one line against what its check sheet still owes (domain-rules §2.7), in the side's
 * words: the supplier side's messages are the ancestor's (实付/未付), the customer side's say 实收/未收.
 */
function checkLine(words: AmountWords, n: number, unpaid: Decimal, pay: Decimal, discount: Decimal) {
  const { settled, open } = words
  const sum = pay.plus(discount)
  if (unpaid.isZero()) {
    if (!pay.isZero() || !discount.isZero()) throw invalid(`第${n}行对账单${open}为0，${settled}、优惠金额必须等于0！`, 'payAmount')
    return
  }
  if (pay.isZero() && discount.isZero()) throw invalid(`第${n}行${settled}、优惠金额不能同时等于0！`, 'payAmount')
  if (unpaid.greaterThan(0)) {
    if (pay.lessThan(0)) throw invalid(`第${n}行${settled}不允许小于0！`, 'payAmount')
    if (discount.lessThan(0)) throw invalid(`第${n}行优惠金额不允许小于0！`, 'discountAmount')
    if (sum.greaterThan(unpaid)) throw invalid(`第${n}行${settled}与优惠金额之和不允许大于${open}${unpaid.toFixed(2)}元！`, 'payAmount')
  } else {
    if (pay.greaterThan(0)) throw invalid(`第${n}行${settled}不允许大于0！`, 'payAmount')
    if (discount.greaterThan(0)) throw invalid(`第${n}行优惠金额不允许大于0！`, 'discountAmount')
    if (sum.lessThan(unpaid)) throw invalid(`第${n}行${settled}与优惠金额之和的绝对值不允许大于${open}的绝对值${unpaid.abs().toFixed(2)}元！`, 'payAmount')
  }
}

/**
 * Settle sheets (结算单) of both sides, domain-rules §2.7: lines pay approved check sheets of the party
 * off, with the sign of what each still owes. Saving holds the check sheets (0/1 → 1); modify and delete
 * give back those nothing else holds or has paid (1 → 0). Approval, line by line in check-sheet id
 * order after locking them (PostgreSQL), adds the amounts with ONE guarded statement each — `payed =
 * payed + ?, discount = discount + ?` only where the remainder still covers it, exactly, on both
 * databases — so concurrent approvals never pay more than remains; a check sheet paid to exactly 0 is
 * 已结算 with its documents; the ledger books −(pay + discount) against each check sheet.
 */
export function settleSheetHooks(store: EntityStore): DocumentHooks {
  const sideOf = (docName: string) => sideOfSheet(store.registry, docName)
  return {
    async prepare(e) {
      const side = sideOf(e.doc.name)
      const merged = e.mode === 'modify' ? { ...e.existing, ...e.header } : e.header
      if (!isBlank(merged.startDate) && !isBlank(merged.endDate) && String(merged.endDate) < String(merged.startDate))
        throw invalid('截止日期不能小于起始日期！', 'endDate')
      const party = merged[side.partyField]
      if (isBlank(party)) return
      const chosen = e.lines.map((l) => l.bizId).filter((v): v is string => typeof v === 'string' && v !== '')
      const sheets = await findCheckSheets(e.trx, side, chosen, { store, ctx: e.ctx })
      e.lines.forEach((line, i) => {
        if (isBlank(line.bizId)) return
        if (isBlank(line.discountAmount)) line.discountAmount = '0.00'
        const sheet = sheets.get(String(line.bizId))
        if (!sheet || sheet.partyId !== String(party) || sheet.status !== DocumentStatus.APPROVE_PASS)
          throw invalid(`第${i + 1}行对账单不是该${side.partyLabel}审核通过的${side.check.subject}！`, 'bizId')
        if (sheet.settleStatus === SettleStatus.SETTLED) throw invalid(`单号：${sheet.code}，${side.check.subject}已结算，业务无法进行！`, 'bizId')
        if (isBlank(line.payAmount)) return
        checkLine(side.amounts, i + 1, sheet.unpaid, new Decimal(String(line.payAmount)), new Decimal(String(line.discountAmount)))
      })
    },

    async saved(e) {
      const side = sideOf(e.doc.name)
      const ids = e.lines.map((l) => String(l.bizId))
      await lockRows(e.trx, side.check.table, ids)
      const done = await e.trx
        .updateTable(side.check.table)
        .set({ settle_status: SettleStatus.PART_SETTLE })
        .where('id', 'in', ids)
        .where('status', '=', DocumentStatus.APPROVE_PASS)
        .where('settle_status', 'in', HELD)
        .executeTakeFirst()
      if (Number(done.numUpdatedRows) === ids.length) return
      const settled = await e.trx.selectFrom(side.check.table).select('code').where('id', 'in', ids).where('settle_status', 'not in', HELD).orderBy('code').executeTakeFirst()
      throw invalid(`单号：${String(settled?.code ?? '')}，${side.check.subject}已结算，业务无法进行！`)
    },

    async lockHeld(e) {
      await lockRows(e.trx, sideOf(e.doc.name).check.table, bizIds(e.lines))
    },

    async release(e) {
      const side = sideOf(e.doc.name)
      const ids = e.lines.map((l) => String(l.bizId))
      if (!ids.length) return
      await lockRows(e.trx, side.check.table, ids)
      const sheets = await findCheckSheets(e.trx, side, ids)
      const heldElsewhere = await e.trx
        .selectFrom(`${side.settle.detail} as d`)
        .innerJoin(`${side.settle.table} as s`, 's.id', 'd.sheet_id')
        .select('d.biz_id')
        .where('d.biz_id', 'in', ids)
        .where('d.sheet_id', '<>', e.id)
        .where('s.status', 'in', OPEN_SHEETS)
        .execute()
      const elsewhere = new Set(heldElsewhere.map((r) => String(r.biz_id)))
      const free = [...sheets.values()].filter((s) => s.payed.isZero() && s.discount.isZero() && !elsewhere.has(s.id)).map((s) => s.id)
      if (free.length)
        await e.trx.updateTable(side.check.table).set({ settle_status: SettleStatus.UN_SETTLE }).where('id', 'in', free).where('settle_status', '=', SettleStatus.PART_SETTLE).execute()
    },

    async approve(e) {
      const side = sideOf(e.doc.name)
      const lines = [...e.lines].sort((a, b) => (String(a.bizId) < String(b.bizId) ? -1 : String(a.bizId) > String(b.bizId) ? 1 : 0))
      const ids = lines.map((l) => String(l.bizId))
      await lockRows(e.trx, side.check.table, ids)
      const trx = e.trx
      const col = decimalColumn
      const paidOff: string[] = []
      for (const line of lines) {
        const pay = new Decimal(String(line.payAmount ?? 0))
        const discount = new Decimal(String(line.discountAmount ?? 0))
        const sum = pay.plus(discount)
        // The remainder covers this payment: total_pay ≥ payed + discount + sum (sum ≥ 0) or ≤ (sum < 0).
        const after = decimalAdd(trx, decimalAdd(trx, col('total_payed_amount'), col('total_discount_amount')), decimalValue(trx, sum))
        const covers = decimalCompare(trx, col('total_pay_amount'), sum.isNegative() && !sum.isZero() ? '<=' : '>=', after)
        // One statement per line: the guard, the addition and the amounts after it (no second read).
        const done = await trx
          .updateTable(side.check.table)
          .set({
            total_payed_amount: decimalAdd(trx, col('total_payed_amount'), decimalValue(trx, pay)),
            total_discount_amount: decimalAdd(trx, col('total_discount_amount'), decimalValue(trx, discount)),
            ...updateColumns(e.ctx),
          })
          .where('id', '=', String(line.bizId))
          .where('status', '=', DocumentStatus.APPROVE_PASS)
          .where('settle_status', 'in', HELD)
          .where(covers)
          .returning(['id', 'total_pay_amount', 'total_payed_amount', 'total_discount_amount'])
          .executeTakeFirst()
        if (!done) {
          const sheet = (await findCheckSheets(trx, side, [String(line.bizId)])).get(String(line.bizId))
          throw invalid(`对账单：${sheet?.code ?? ''}，剩余${side.amounts.money}为${(sheet?.unpaid ?? new Decimal(0)).toFixed(2)}元，本次${side.amounts.money}为${sum.toFixed(2)}元，无法结算！`)
        }
        const unpaid = new Decimal(String(done.total_pay_amount)).minus(String(done.total_payed_amount)).minus(String(done.total_discount_amount))
        if (unpaid.isZero()) paidOff.push(String(done.id))
      }
      // Every check sheet paid to exactly 0, with its documents, in one set of statements.
      await settleCheckSheets(trx, side, paidOff)
      const sheets = await findCheckSheets(trx, side, ids)
      await appendLedger(
        trx,
        e.ctx,
        lines.map((line) => ({
          partyType: side.partyType,
          partyId: String(e.header[side.partyField]),
          voucherType: side.settle.voucherType,
          voucherId: e.id,
          voucherCode: String(e.header.code),
          againstType: side.check.voucherType,
          againstId: String(line.bizId),
          againstCode: sheets.get(String(line.bizId))?.code ?? '',
          amount: new Decimal(String(line.payAmount ?? 0)).plus(String(line.discountAmount ?? 0)).negated(),
        })),
      )
    },

    async decorate(db, _ctx, doc, answer) {
      const side = sideOf(doc.name)
      const details = (answer.details as Wire[] | undefined) ?? []
      const sheets = await findCheckSheets(db, side, details.map((d) => String(d.bizId)))
      for (const d of details) {
        const s = sheets.get(String(d.bizId))
        d.bizCode = s?.code ?? null
        d.approveTime = s?.approveTime ?? null
        d.totalPayAmount = s?.totalPay.toFixed(2) ?? null
        d.totalPayedAmount = s?.payed.toFixed(2) ?? null
        d.totalDiscountAmount = s?.discount.toFixed(2) ?? null
        d.unpaidAmount = s?.unpaid.toFixed(2) ?? null
      }
    },
  }
}

/**
 * Candidates of a settle sheet (`GET …/sheet/unsettle-items`): approved check sheets of the party with
 * something still to pay (compared exactly), settle status 0/1, held by no pending or refused settle
 * sheet, approved within the days asked; paged in SQL. The proposed payment is what remains.
 */
export async function unsettledCheckSheets(db: Db, ctx: RequestContext, store: EntityStore, side: SettleSide, query: Record<string, unknown>) {
  const party = partyOf(side, query)
  const range = approveRange(query)
  const scope = await store.scope(db, ctx, store.registry.get(side.check.doc))
  const col = decimalColumn
  const held = db
    .selectFrom(`${side.settle.detail} as d`)
    .innerJoin(`${side.settle.table} as s`, 's.id', 'd.sheet_id')
    .select('d.id')
    .whereRef('d.biz_id', '=', `${side.check.table}.id`)
    .where('s.status', 'in', OPEN_SHEETS)
  const rows = withinRange(
    db
      .selectFrom(side.check.table)
      .select([
        sql<string>`${sql.ref('id')}`.as('biz_id'),
        sql<string>`${sql.ref('code')}`.as('biz_code'),
        'approve_time',
        'total_pay_amount',
        'total_payed_amount',
        'total_discount_amount',
      ])
      .where(side.partyColumn, '=', party)
      .where('status', '=', DocumentStatus.APPROVE_PASS)
      .where('settle_status', 'in', HELD)
      .where(decimalCompare(db, col('total_pay_amount'), '<>', decimalAdd(db, col('total_payed_amount'), col('total_discount_amount'))))
      .where((eb) => eb.not(eb.exists(held)))
      .where(scope),
    range,
  )
  const page = await pageOf(db, [rows], 'biz_id', query)
  return {
    totalCount: page.totalCount,
    datas: page.datas.map((r) => {
      const totalPay = new Decimal(String(r.total_pay_amount ?? 0))
      const payed = new Decimal(String(r.total_payed_amount ?? 0))
      const discount = new Decimal(String(r.total_discount_amount ?? 0))
      const unpaid = totalPay.minus(payed).minus(discount).toFixed(2)
      return {
        bizId: String(r.biz_id),
        bizCode: String(r.biz_code),
        approveTime: r.approve_time == null ? null : String(r.approve_time),
        totalPayAmount: totalPay.toFixed(2),
        totalPayedAmount: payed.toFixed(2),
        totalDiscountAmount: discount.toFixed(2),
        unpaidAmount: unpaid,
        payAmount: unpaid,
        discountAmount: '0.00',
      }
    }),
  }
}
