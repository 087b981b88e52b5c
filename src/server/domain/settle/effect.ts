import Decimal from 'decimal.js'
import type { DocumentEvent, SettleEffect } from '../../engine/document-store.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'
import { invalid } from '../../platform/errors.js'
import { appendLedger, ledgerInserts, ownPosting, type LedgerEntry } from './ledger.js'
import { CalcType, calcTypeOf, kindOfDocument, settleSides, type SettleKind, type SettleSide } from './parties.js'
import { SettleStatus } from './settle-status.js'

/** A row the document books against itself. */
function ownRow(e: Pick<DocumentEvent, 'header'> & { id: string }, side: SettleSide, kind: SettleKind, amount: Decimal): LedgerEntry {
  const code = String(e.header.code)
  return {
    partyType: side.partyType,
    partyId: String(e.header[kind.partyField]),
    voucherType: kind.voucherType,
    voucherId: e.id,
    voucherCode: code,
    againstType: kind.voucherType,
    againstId: e.id,
    againstCode: code,
    amount,
  }
}

/**
 * The settlement effect of every document whose file has a `settle` section (receive sheets, purchase
 * returns, sale out sheets, sale returns, fee and pre sheets, and any document declared so), called by the
 * document engine inside the approving transaction. Built at start-up: the sides are read from the files
 * then, so a wrong declaration stops the start.
 */
export function documentSettlement(registry: EntityRegistry): SettleEffect {
  settleSides(registry)
  return {
    // 未结算 unless the hook set the status from the party's terms (a supplier may be 无需结算).
    open(e) {
      if (e.header.settleStatus === undefined || e.header.settleStatus === null) e.header.settleStatus = SettleStatus.UN_SETTLE
    },

    /** Approved while 未结算, the document's signed amount is booked against itself (a 无需结算 one never enters the ledger). */
    post(e) {
      const found = kindOfDocument(registry, e.doc.name)
      if (!found || Number(e.header.settleStatus) !== SettleStatus.UN_SETTLE) return []
      const { side, kind } = found
      const total = new Decimal(String(e.header[kind.amountField] ?? 0))
      return ledgerInserts(e.trx, e.ctx, [ownRow(e, side, kind, calcTypeOf(kind, e.header) === CalcType.ADD ? total : total.negated())])
    },

    /**
     * Cancel approval books the opposite of what the document booked against itself; one that a check
     * sheet holds or settled is refused (its row is locked by the engine, so the status read is current).
     */
    async reverse(e) {
      const found = kindOfDocument(registry, e.doc.name)
      if (!found) return
      const { side, kind } = found
      const code = String(e.header.code)
      const status = Number(e.header.settleStatus)
      if (status === SettleStatus.SETTLED) throw invalid(`单号：${code}，${kind.subject}已结算，业务无法进行！`)
      if (status === SettleStatus.PART_SETTLE) {
        const holder = await e.trx
          .selectFrom(`${side.check.detail} as d`)
          .innerJoin(`${side.check.table} as s`, 's.id', 'd.sheet_id')
          .select('s.code')
          .where('d.biz_id', '=', e.id)
          .orderBy('s.code')
          .executeTakeFirst()
        throw invalid(`单号：${code}，${kind.subject}已在${side.check.subject}${String(holder?.code ?? '')}中，业务无法进行！`)
      }
      const posted = new Decimal(await ownPosting(e.trx, e.id))
      await appendLedger(e.trx, e.ctx, [ownRow(e, side, kind, posted.negated())])
    },
  }
}
