import Decimal from 'decimal.js'
import { DECIMAL_GRAMMAR } from './decimal-grammar.js'
import type { DocumentSection } from './document-model.js'

/**
 * A document's header totals from its lines, exactly (decimal.js): the one computation the browser shows
 * while lines are typed and the server stores on save (document-store), so the two cannot disagree.
 */

/** One line: wire names, numbers as text or JSON numbers (typed by a user, or validated by the server). */
export type LineValues = Record<string, unknown>

export interface DocumentTotals {
  /** Quantity of the lines that are not gifts, as integer text (a sum past the safe integers stays exact). */
  num: string
  giftNum: string
  /** Σ price × quantity, two decimals (gifts are at price 0). */
  amount: string
}

/** A number of the shared grammar, or undefined (blank, not typed yet, or malformed: such a line is refused on save). */
function decimalOf(v: unknown): Decimal | undefined {
  if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string') return undefined
  const text = String(v)
  return DECIMAL_GRAMMAR.test(text) ? new Decimal(text) : undefined
}

/**
 * Whether a line is a gift: a price of exactly 0, or the flag already set. A price not typed yet does
 * not make a gift (the price is required wherever gifts are declared, so the server refuses such a line).
 */
export function isGiftLine(line: LineValues, totals: NonNullable<DocumentSection['totals']>): boolean {
  if (!totals.gift) return false
  const price = totals.price ? decimalOf(line[totals.price]) : undefined
  return Boolean(price?.isZero()) || line[totals.gift] === true
}

/** totalNum (non-gift quantity), totalGiftNum and totalAmount of the declared `totals`; a line counts once it holds numbers. */
export function documentTotals(lines: readonly LineValues[], totals: DocumentSection['totals']): DocumentTotals {
  if (!totals) return { num: '0', giftNum: '0', amount: '0.00' }
  let num = new Decimal(0)
  let giftNum = new Decimal(0)
  let amount = new Decimal(0)
  for (const line of lines) {
    const n = decimalOf(line[totals.num])
    const qty = n && n.isInteger() ? n : new Decimal(0)
    if (isGiftLine(line, totals)) giftNum = giftNum.plus(qty)
    else num = num.plus(qty)
    const price = totals.price ? decimalOf(line[totals.price]) : undefined
    if (price) amount = amount.plus(price.times(qty))
  }
  return { num: num.toFixed(0), giftNum: giftNum.toFixed(0), amount: amount.toFixed(2) }
}

/** The header amounts of `document.sums` (header field ← Σ line field), two decimals; blanks count as 0. */
export function documentSums(lines: readonly LineValues[], sums: DocumentSection['sums']): { field: string; value: string }[] {
  return Object.entries(sums ?? {}).map(([field, lineField]) => ({
    field,
    value: lines.reduce((s, line) => s.plus(decimalOf(line[lineField]) ?? 0), new Decimal(0)).toFixed(2),
  }))
}

/** Σ of the agreed payments' amounts, two decimals; blanks count as 0. */
export function paymentsSum(payments: readonly { payAmount?: unknown }[]): string {
  return payments.reduce((s, p) => s.plus(decimalOf(p.payAmount) ?? 0), new Decimal(0)).toFixed(2)
}

/** What the agreed payments still leave of the total (two decimals), or undefined when nothing is left: a new payment's amount. */
export function paymentsRemaining(payments: readonly { payAmount?: unknown }[], total: string): string | undefined {
  const left = new Decimal(decimalOf(total) ?? 0).minus(paymentsSum(payments))
  return left.greaterThan(0) ? left.toFixed(2) : undefined
}

/** Whether the agreed payments add up to the total exactly (checked in the browser and again on save). */
export const paymentsMatch = (payments: readonly { payAmount?: unknown }[], total: string) => new Decimal(paymentsSum(payments)).equals(total)
