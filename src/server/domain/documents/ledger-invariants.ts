import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'
import { settleSides } from '../settle/parties.js'
import { DocumentStatus } from '../../../shared/metadata/document-model.js'

/**
 * The two ledgers' invariants, checked on a tenant database after a restore or a move: what breaks them is
 * a lost or half-copied row. Stock: every stock row equals Σ of its moves in the stock log (and moves of a
 * product and warehouse without a stock row sum to zero). Money: every approved check sheet's outstanding
 * in the settlement ledger equals what its row says is unpaid (total − paid − discount). Sums are exact
 * (decimal.js over the stored text). Answers the breaches, in Chinese; none when both hold.
 */
export async function ledgerBreaches(db: Db, registry: EntityRegistry): Promise<string[]> {
  const breaches: string[] = []
  const moves = new Map<string, Decimal>()
  for (const m of await db.selectFrom('tbl_product_stock_log').select(['product_id', 'sc_id', 'stock_num']).execute()) {
    const key = `${String(m.product_id)}|${String(m.sc_id)}`
    moves.set(key, (moves.get(key) ?? new Decimal(0)).plus(String(m.stock_num ?? 0)))
  }
  for (const s of await db.selectFrom('tbl_product_stock').select(['product_id', 'sc_id', 'stock_num']).execute()) {
    const key = `${String(s.product_id)}|${String(s.sc_id)}`
    const logged = moves.get(key) ?? new Decimal(0)
    moves.delete(key)
    if (!logged.eq(String(s.stock_num ?? 0))) breaches.push(`库存 ${key}：库存数量 ${String(s.stock_num)}，库存流水合计 ${logged.toString()}`)
  }
  for (const [key, logged] of moves) if (!logged.isZero()) breaches.push(`库存 ${key}：无库存记录，库存流水合计 ${logged.toString()}`)

  const outstanding = new Map<string, Decimal>()
  for (const l of await db.selectFrom('settle_ledger').select(['against_id', 'amount']).execute())
    outstanding.set(String(l.against_id), (outstanding.get(String(l.against_id)) ?? new Decimal(0)).plus(String(l.amount)))
  for (const side of settleSides(registry)) {
    const sheets = await db
      .selectFrom(side.check.table)
      .select(['id', 'code', 'total_pay_amount', 'total_payed_amount', 'total_discount_amount'])
      .where('status', '=', DocumentStatus.APPROVE_PASS)
      .execute()
    for (const s of sheets) {
      const unpaid = new Decimal(String(s.total_pay_amount ?? 0)).minus(String(s.total_payed_amount ?? 0)).minus(String(s.total_discount_amount ?? 0))
      const booked = outstanding.get(String(s.id)) ?? new Decimal(0)
      if (!booked.eq(unpaid)) breaches.push(`${side.check.subject} ${String(s.code)}：未结金额 ${unpaid.toFixed(2)}，结算台账余额 ${booked.toFixed(2)}`)
    }
  }
  return breaches
}
