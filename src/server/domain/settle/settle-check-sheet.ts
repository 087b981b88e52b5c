import Decimal from 'decimal.js'
import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { Wire } from '../../engine/record-codec.js'
import type { EntityStore } from '../../engine/entity-store.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { DocumentStatus } from '../../../shared/metadata/document-model.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import { appendLedger, type LedgerEntry } from './ledger.js'
import { CalcType, calcTypeOf, calcTypeSql, sideOfSheet, type SettleKind, type SettleSide } from './parties.js'
import { approveRange, pageOf, partyOf, withinRange } from './candidates.js'
import { lockRows } from '../../db/row-locks.js'
import { SettleStatus } from './settle-status.js'

const HELD: number[] = [SettleStatus.UN_SETTLE, SettleStatus.PART_SETTLE]

/** A business document a check-sheet line refers to. */
interface BizDocument {
  id: string
  code: string
  partyId: string
  status: number
  settleStatus: number
  approveTime: string | null
  kind: SettleKind
  calcType: number
  /** The document total with the sign of its calc type. */
  signedTotal: Decimal
}

/** Whose data permission narrows a lookup: the caller's, when documents are chosen for a sheet. */
interface Viewer {
  store: EntityStore
  ctx: RequestContext
}

/**
 * The documents of `ids` among the side's kinds (ids are unique across tables): one query per kind;
 * with a viewer, only those within the viewer's data permission (a document outside it is as missing).
 */
async function findDocuments(db: Db, side: SettleSide, ids: string[], viewer?: Viewer): Promise<Map<string, BizDocument>> {
  const found = new Map<string, BizDocument>()
  const wanted = [...new Set(ids)]
  if (!wanted.length) return found
  for (const kind of side.kinds) {
    const columns = ['id', 'code', `${kind.partyColumn} as party_id`, 'status', 'settle_status', 'approve_time', `${kind.amountColumn} as total_amount`]
    if (typeof kind.calc !== 'number') columns.push(`${kind.calc.column} as calc_value`)
    let q = db.selectFrom(kind.table).select(columns).where('id', 'in', wanted)
    if (viewer) q = q.where(await viewer.store.scope(db, viewer.ctx, viewer.store.registry.get(kind.doc)))
    const rows = await q.execute()
    for (const r of rows) {
      const calcType = typeof kind.calc === 'number' ? kind.calc : calcTypeOf(kind, { [kind.calc.field]: r.calc_value })
      const total = new Decimal(String(r.total_amount ?? 0))
      found.set(String(r.id), {
        id: String(r.id),
        code: String(r.code),
        partyId: String(r.party_id),
        status: Number(r.status),
        settleStatus: Number(r.settle_status),
        approveTime: r.approve_time == null ? null : String(r.approve_time),
        kind,
        calcType,
        signedTotal: calcType === CalcType.ADD ? total : total.negated(),
      })
    }
  }
  return found
}

/** Line ids grouped by the kind the line's 业务类型 names. */
function byKind(side: SettleSide, lines: { bizId: unknown; bizType: unknown }[]): Map<SettleKind, string[]> {
  const groups = new Map<SettleKind, string[]>()
  for (const kind of side.kinds) {
    const ids = lines.filter((l) => Number(l.bizType) === kind.bizType).map((l) => String(l.bizId))
    if (ids.length) groups.set(kind, ids)
  }
  return groups
}

const checkDates = (header: Wire) => {
  if (!isBlank(header.startDate) && !isBlank(header.endDate) && String(header.endDate) < String(header.startDate))
    throw invalid('截止日期不能小于起始日期！', 'endDate')
}

/**
 * Check sheets fully paid: they go to 已结算, and so does every document in them (0/1 → 3 with one
 * guarded UPDATE per table for all of them; a document already 已结算 refuses: "…已结算，无法重复结算！").
 */
export async function settleCheckSheets(trx: Db, side: SettleSide, checkIds: string[]): Promise<void> {
  if (!checkIds.length) return
  await trx.updateTable(side.check.table).set({ settle_status: SettleStatus.SETTLED }).where('id', 'in', checkIds).where('settle_status', 'in', HELD).execute()
  const lines = await trx.selectFrom(side.check.detail).select(['biz_id', 'biz_type']).where('sheet_id', 'in', checkIds).execute()
  for (const [kind, ids] of byKind(side, lines.map((l) => ({ bizId: l.biz_id, bizType: l.biz_type })))) {
    await lockRows(trx, kind.table, ids)
    const done = await trx.updateTable(kind.table).set({ settle_status: SettleStatus.SETTLED }).where('id', 'in', ids).where('settle_status', 'in', HELD).executeTakeFirst()
    if (Number(done.numUpdatedRows) === ids.length) continue
    const settled = await trx.selectFrom(kind.table).select('code').where('id', 'in', ids).where('settle_status', 'not in', HELD).orderBy('code').executeTakeFirst()
    throw invalid(`单号：${String(settled?.code ?? '')}，${kind.subject}已结算，无法重复结算！`)
  }
}

/**
 * Check sheets (对账单) of both sides, domain-rules §2.7. A line names an approved document of the
 * header's party; 业务类型 and 计算方式 come from that document, never from the client; ADD lines pay ≥ 0,
 * SUB lines ≤ 0. totalAmount = Σ signed document totals, totalPayAmount = Σ pay (the file's `sums`).
 * Saving holds each document (0/1 → 1, one guarded UPDATE per table, the documents locked first on
 * PostgreSQL) and refuses one that another check sheet holds; modify and delete give them back (1 → 0),
 * refusing does not. Approval books the pay amounts in the settlement ledger.
 */
export function settleCheckSheetHooks(store: EntityStore): DocumentHooks {
  const sideOf = (docName: string) => sideOfSheet(store.registry, docName)
  return {
    async prepare(e) {
      const side = sideOf(e.doc.name)
      if (e.mode === 'create') e.header.settleStatus = SettleStatus.UN_SETTLE
      e.header.totalPayedAmount = '0.00'
      e.header.totalDiscountAmount = '0.00'
      const merged = e.mode === 'modify' ? { ...e.existing, ...e.header } : e.header
      checkDates(merged)
      const party = merged[side.partyField]
      if (isBlank(party)) return
      const chosen = e.lines.map((l) => l.bizId).filter((v): v is string => typeof v === 'string' && v !== '')
      const docs = await findDocuments(e.trx, side, chosen, { store, ctx: e.ctx })
      let total = new Decimal(0)
      e.lines.forEach((line, i) => {
        if (isBlank(line.bizId)) return
        const doc = docs.get(String(line.bizId))
        if (!doc || doc.partyId !== String(party) || doc.status !== DocumentStatus.APPROVE_PASS)
          throw invalid(`第${i + 1}行业务单据不是该${side.partyLabel}审核通过的单据！`, 'bizId')
        if (doc.settleStatus === SettleStatus.UN_REQUIRE) throw invalid(`单号：${doc.code}，${doc.kind.subject}无需结算，业务无法进行！`, 'bizId')
        if (doc.settleStatus === SettleStatus.SETTLED) throw invalid(`单号：${doc.code}，${doc.kind.subject}已结算，业务无法进行！`, 'bizId')
        line.bizType = doc.kind.bizType
        line.calcType = doc.calcType
        total = total.plus(doc.signedTotal)
        if (isBlank(line.payAmount)) return
        const pay = new Decimal(String(line.payAmount))
        if (doc.calcType === CalcType.ADD && pay.isNegative() && !pay.isZero()) throw invalid(`第${i + 1}行业务单据${side.amounts.due}不允许小于0！`, 'payAmount')
        if (doc.calcType === CalcType.SUB && pay.isPositive() && !pay.isZero()) throw invalid(`第${i + 1}行业务单据${side.amounts.due}不允许大于0！`, 'payAmount')
        // More than the document itself is never owed on it (the sign rules above keep pay and total alike).
        if (pay.abs().greaterThan(doc.signedTotal.abs()))
          throw invalid(`第${i + 1}行业务单据${side.amounts.due}的绝对值不允许大于单据金额的绝对值${doc.signedTotal.abs().toFixed(2)}元！`, 'payAmount')
      })
      e.header.totalAmount = total.toFixed(2)
    },

    async saved(e) {
      const side = sideOf(e.doc.name)
      const groups = byKind(side, e.lines as { bizId: unknown; bizType: unknown }[])
      // Lock every document first (tables in a fixed order, rows by id), so two sheets serialise.
      for (const [kind, ids] of groups) await lockRows(e.trx, kind.table, ids)
      for (const [kind, ids] of groups) {
        // Still approved too: a kind that declares cancel approval may have gone back since prepare read it.
        const done = await e.trx
          .updateTable(kind.table)
          .set({ settle_status: SettleStatus.PART_SETTLE })
          .where('id', 'in', ids)
          .where('settle_status', 'in', HELD)
          .where('status', '=', DocumentStatus.APPROVE_PASS)
          .executeTakeFirst()
        if (Number(done.numUpdatedRows) === ids.length) continue
        const cancelled = await e.trx.selectFrom(kind.table).select('code').where('id', 'in', ids).where('status', '<>', DocumentStatus.APPROVE_PASS).orderBy('code').executeTakeFirst()
        if (cancelled) throw invalid(`单号：${String(cancelled.code)}，${kind.subject}未审核通过，业务无法进行！`)
        const settled = await e.trx.selectFrom(kind.table).select('code').where('id', 'in', ids).where('settle_status', 'not in', HELD).orderBy('code').executeTakeFirst()
        throw invalid(`单号：${String(settled?.code ?? '')}，${kind.subject}已结算，业务无法进行！`)
      }
      const ids = e.lines.map((l) => String(l.bizId))
      const other = await e.trx
        .selectFrom(`${side.check.detail} as d`)
        .innerJoin(`${side.check.table} as s`, 's.id', 'd.sheet_id')
        .select(['d.biz_id', 'd.biz_type', 's.code'])
        .where('d.biz_id', 'in', ids)
        .where('d.sheet_id', '<>', e.id)
        .orderBy('s.code')
        .executeTakeFirst()
      if (other) {
        const doc = (await findDocuments(e.trx, side, [String(other.biz_id)])).get(String(other.biz_id))
        throw invalid(`单号：${doc?.code ?? ''}，${doc?.kind.subject ?? '业务单据'}已在${side.check.subject}${String(other.code)}中，业务无法进行！`)
      }
    },

    async lockHeld(e) {
      // The line's 业务类型 is not trusted (a modify's lines come as sent): every kind's table is asked for
      // every id, tables in the side's fixed order, rows in id order; an id of another kind locks nothing.
      const ids = [...new Set(e.lines.map((l) => l.bizId).filter((v): v is string => typeof v === 'string' && v !== ''))]
      for (const kind of sideOf(e.doc.name).kinds) await lockRows(e.trx, kind.table, ids)
    },

    async release(e) {
      const side = sideOf(e.doc.name)
      for (const [kind, ids] of byKind(side, e.lines as { bizId: unknown; bizType: unknown }[])) {
        await lockRows(e.trx, kind.table, ids)
        await e.trx.updateTable(kind.table).set({ settle_status: SettleStatus.UN_SETTLE }).where('id', 'in', ids).where('settle_status', '=', SettleStatus.PART_SETTLE).execute()
      }
    },

    async approve(e) {
      const side = sideOf(e.doc.name)
      const docs = await findDocuments(e.trx, side, e.lines.map((l) => String(l.bizId)))
      const party = String(e.header[side.partyField])
      const code = String(e.header.code)
      const voucher = { partyType: side.partyType, partyId: party, voucherType: side.check.voucherType, voucherId: e.id, voucherCode: code }
      const entries: LedgerEntry[] = e.lines.map((line) => {
        const doc = docs.get(String(line.bizId))
        return {
          ...voucher,
          againstType: doc?.kind.voucherType ?? 0,
          againstId: String(line.bizId),
          againstCode: doc?.code ?? '',
          amount: new Decimal(String(line.payAmount ?? 0)).negated(),
        }
      })
      const totalPay = new Decimal(String(e.header.totalPayAmount ?? 0))
      entries.push({ ...voucher, againstType: side.check.voucherType, againstId: e.id, againstCode: code, amount: totalPay })
      await appendLedger(e.trx, e.ctx, entries)
      // Nothing to pay: settled at once (no settle sheet could take it).
      if (totalPay.isZero()) await settleCheckSheets(e.trx, side, [e.id])
    },

    async decorate(db, _ctx, doc, answer) {
      const side = sideOf(doc.name)
      const details = (answer.details as Wire[] | undefined) ?? []
      const docs = await findDocuments(db, side, details.map((d) => String(d.bizId)))
      for (const d of details) {
        const found = docs.get(String(d.bizId))
        d.bizCode = found?.code ?? null
        d.approveTime = found?.approveTime ?? null
        d.totalAmount = found ? found.signedTotal.toFixed(2) : null
      }
    },
  }
}

/**
 * Candidates of a check sheet (`GET …/checksheet/uncheck-items`): approved, 未结算 documents of the party
 * approved within the days asked, over a UNION ALL of the side's kinds (retail never), each narrowed by
 * the caller's data permission; paged in SQL. SUB documents show negated totals; the pay amount
 * proposed is the signed total.
 */
export async function uncheckedDocuments(db: Db, ctx: RequestContext, store: EntityStore, side: SettleSide, query: Record<string, unknown>) {
  const party = partyOf(side, query)
  const range = approveRange(query)
  const parts = []
  for (const kind of side.kinds) {
    const scope = await store.scope(db, ctx, store.registry.get(kind.doc))
    const part = db
      .selectFrom(kind.table)
      .select([
        sql<string>`${sql.ref('id')}`.as('biz_id'),
        sql<number>`${sql.lit(kind.bizType)}`.as('biz_type'),
        calcTypeSql(kind).as('calc_type'),
        sql<string>`${sql.ref('code')}`.as('biz_code'),
        'approve_time',
        sql<string>`${sql.ref(kind.amountColumn)}`.as('total_amount'),
      ])
      .where(kind.partyColumn, '=', party)
      .where('status', '=', DocumentStatus.APPROVE_PASS)
      .where('settle_status', '=', SettleStatus.UN_SETTLE)
      .where(scope)
    parts.push(withinRange(part, range))
  }
  const page = await pageOf(db, parts, 'biz_id', query)
  return {
    totalCount: page.totalCount,
    datas: page.datas.map((r) => {
      const total = new Decimal(String(r.total_amount ?? 0))
      const calcType = Number(r.calc_type)
      const signed = (calcType === CalcType.ADD ? total : total.negated()).toFixed(2)
      return {
        bizId: String(r.biz_id),
        bizType: Number(r.biz_type),
        calcType,
        bizCode: String(r.biz_code),
        approveTime: r.approve_time == null ? null : String(r.approve_time),
        totalAmount: signed,
        payAmount: signed,
      }
    }),
  }
}

