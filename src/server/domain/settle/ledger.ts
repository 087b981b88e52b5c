import Decimal from 'decimal.js'
import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { isPostgres } from '../../db/exact-decimal.js'
import type { PendingWrite } from '../../db/write-together.js'
import { auditColumns } from '../../platform/audit-columns.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'

const LEDGER = 'settle_ledger'

/**
 * One signed effect (settle-ledger.json): amount > 0 raises what the party owes or is owed, < 0 lowers it;
 * `voucher` is the document that made the row, `against` the document whose outstanding it changes.
 */
export interface LedgerEntry {
  partyType: number
  partyId: string
  voucherType: number
  voucherId: string
  voucherCode: string
  againstType: number
  againstId: string
  againstCode: string
  amount: Decimal.Value
}

/**
 * Appends rows to the settlement ledger in one multi-row INSERT, inside the caller's transaction. Rows
 * are never updated or deleted; zero amounts are not written. Amounts are rounded once, to 2 places.
 */
export async function appendLedger(trx: Db, ctx: RequestContext, entries: LedgerEntry[]): Promise<void> {
  for (const insert of ledgerInserts(trx, ctx, entries)) await insert.execute()
}

/** The inserts that book `entries` (rows of 0 left out), not yet run: approval sends them in its own statement. */
export function ledgerInserts(trx: Db, ctx: RequestContext, entries: LedgerEntry[]): PendingWrite[] {
  if (!trx.isTransaction) throw new Error('the settlement ledger is written inside the caller transaction (inTransaction)')
  const audit = auditColumns(ctx)
  const rows = entries
    .map((e) => ({ e, amount: new Decimal(e.amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP) }))
    .filter(({ amount }) => !amount.isZero())
    .map(({ e, amount }) => ({
      id: newId(),
      party_type: e.partyType,
      party_id: e.partyId,
      voucher_type: e.voucherType,
      voucher_id: e.voucherId,
      voucher_code: e.voucherCode,
      against_type: e.againstType,
      against_id: e.againstId,
      against_code: e.againstCode,
      amount: amount.toFixed(2),
      ...audit,
    }))
  // 12 values a row: 1,000 rows stay far below both databases' limit of bound values per statement.
  const inserts: PendingWrite[] = []
  for (let start = 0; start < rows.length; start += 1000) inserts.push(trx.insertInto(LEDGER).values(rows.slice(start, start + 1000)))
  return inserts
}

/** Σ amount of the rows matching `where` (column → value), exactly: PostgreSQL sums NUMERIC; SQLite's SUM would use floats, so decimal.js. */
async function exactSum(db: Db, where: Record<string, string | number>): Promise<string> {
  let q = db.selectFrom(LEDGER)
  for (const [column, value] of Object.entries(where)) q = q.where(column, '=', value)
  if (isPostgres(db)) {
    const row = await q.select(sql<string>`sum(amount)`.as('total')).executeTakeFirst()
    return new Decimal(String(row?.total ?? 0)).toFixed(2)
  }
  const rows = await q.select('amount').execute()
  return rows.reduce((s, r) => s.plus(String(r.amount)), new Decimal(0)).toFixed(2)
}

/** What is still owed on one document: Σ amount of the rows against it (2 places, text). */
export function documentOutstanding(db: Db, againstId: string): Promise<string> {
  return exactSum(db, { against_id: againstId })
}

/** A party's balance: Σ amount of its rows (2 places, text); > 0 is owed to a supplier / by a customer. */
export function partyBalance(db: Db, partyType: number, partyId: string): Promise<string> {
  return exactSum(db, { party_type: partyType, party_id: partyId })
}

/** Σ amount of the rows a document booked against itself (2 places, text): what its own approvals left. */
export function ownPosting(db: Db, id: string): Promise<string> {
  return exactSum(db, { voucher_id: id, against_id: id })
}
