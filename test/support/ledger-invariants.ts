import Decimal from 'decimal.js'
import type { Db } from '../../src/server/db/dialect.js'

/**
 * The stock ledger's invariant over a whole tenant database: for every (product, warehouse) row, the
 * quantity and the value equal the sums of its log. Answers the rows that disagree (none when whole).
 */
export async function stockDisagreements(db: Db): Promise<string[]> {
  const stock = await db.selectFrom('tbl_product_stock').select(['product_id', 'sc_id', 'stock_num', 'tax_amount']).execute()
  const moves = await db.selectFrom('tbl_product_stock_log').select(['product_id', 'sc_id', 'stock_num', 'tax_amount']).execute()
  const sums = new Map<string, { num: Decimal; amount: Decimal }>()
  for (const m of moves) {
    const key = `${m.product_id}|${m.sc_id}`
    const sum = sums.get(key) ?? { num: new Decimal(0), amount: new Decimal(0) }
    sums.set(key, { num: sum.num.plus(String(m.stock_num)), amount: sum.amount.plus(String(m.tax_amount)) })
  }
  const wrong: string[] = []
  for (const s of stock) {
    const key = `${s.product_id}|${s.sc_id}`
    const sum = sums.get(key) ?? { num: new Decimal(0), amount: new Decimal(0) }
    sums.delete(key)
    if (!sum.num.eq(String(s.stock_num)) || !sum.amount.eq(String(s.tax_amount))) {
      wrong.push(`${key}: stock ${String(s.stock_num)} / ${String(s.tax_amount)}, log ${sum.num.toString()} / ${sum.amount.toFixed(2)}`)
    }
  }
  for (const [key, sum] of sums) wrong.push(`${key}: no stock row, log ${sum.num.toString()} / ${sum.amount.toFixed(2)}`)
  return wrong
}

/**
 * Sale out sheets whose state and effects disagree: an approved sheet (3) has one stock move per line and
 * one settlement ledger row of its total; any other has neither. Answers the sheets that disagree.
 */
export async function saleOutDisagreements(db: Db, ids: string[]): Promise<string[]> {
  if (!ids.length) return []
  const sheets = await db.selectFrom('tbl_sale_out_sheet').select(['id', 'status', 'total_amount']).where('id', 'in', ids).execute()
  const lines = await db.selectFrom('tbl_sale_out_sheet_detail').select('sheet_id').where('sheet_id', 'in', ids).execute()
  const moves = await db.selectFrom('tbl_product_stock_log').select('biz_id').where('biz_id', 'in', ids).execute()
  const ledger = await db.selectFrom('settle_ledger').select(['voucher_id', 'amount']).where('voucher_id', 'in', ids).execute()
  const count = (rows: unknown[]) => rows.length
  const wrong: string[] = []
  if (sheets.length !== ids.length) wrong.push(`${ids.length - sheets.length} sheets missing`)
  for (const sheet of sheets) {
    const id = String(sheet.id)
    const approved = Number(sheet.status) === 3
    const lineCount = count(lines.filter((l) => l.sheet_id === id))
    const moved = count(moves.filter((m) => m.biz_id === id))
    const booked = ledger.filter((l) => l.voucher_id === id)
    const whole = approved
      ? moved === lineCount && booked.length === 1 && new Decimal(String(booked[0].amount)).eq(String(sheet.total_amount))
      : moved === 0 && booked.length === 0
    if (!whole) wrong.push(`${id}: status ${Number(sheet.status)}, ${lineCount} lines, ${moved} stock moves, ${booked.length} ledger rows`)
  }
  return wrong
}
