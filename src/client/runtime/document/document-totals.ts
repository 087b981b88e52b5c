import Decimal from 'decimal.js'
import { DECIMAL_GRAMMAR } from '../../../shared/metadata/decimal-grammar.js'
import type { DocumentSection } from '../../../shared/metadata/document-model.js'

/** One line as the table holds it: wire names, numbers typed by the user as text or numbers. */
export type LineValues = Record<string, unknown>

export interface DocumentTotals {
  /** Quantity of the lines that are not gifts. */
  num: number
  giftNum: number
  /** Σ price × quantity, two decimals (gifts are at price 0). */
  amount: string
}

/** A typed number, or undefined while the text is not (yet) one of the shared grammar (blanks around it are not). */
export function decimalOf(v: unknown): Decimal | undefined {
  if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string') return undefined
  const text = String(v)
  return DECIMAL_GRAMMAR.test(text) ? new Decimal(text) : undefined
}

/**
 * Whether a line is a gift: a price of exactly 0, or the flag already set (the server's rule). A price
 * not typed yet does not make a gift: the server refuses such a line anyway.
 */
export function isGiftLine(line: LineValues, totals: NonNullable<DocumentSection['totals']>): boolean {
  if (!totals.gift) return false
  const price = totals.price ? decimalOf(line[totals.price]) : undefined
  return Boolean(price?.isZero()) || line[totals.gift] === true
}

/** The header totals the server will store for these lines (document-store `totals`), exactly, with decimal.js. */
export function documentTotals(lines: readonly LineValues[], totals: DocumentSection['totals']): DocumentTotals {
  if (!totals) return { num: 0, giftNum: 0, amount: '0.00' }
  let num = 0
  let giftNum = 0
  let amount = new Decimal(0)
  for (const line of lines) {
    const n = decimalOf(line[totals.num])
    const qty = n && n.isInteger() ? n.toNumber() : 0
    if (isGiftLine(line, totals)) giftNum += qty
    else num += qty
    const price = totals.price ? decimalOf(line[totals.price]) : undefined
    if (price) amount = amount.plus(price.times(qty))
  }
  return { num, giftNum, amount: amount.toFixed(2) }
}

/** The header amounts the server derives from the lines (`document.sums`: header field ← Σ line field), exactly. */
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

/** Whether the agreed payments add up to the total exactly (the server's check before saving). */
export const paymentsMatch = (payments: readonly { payAmount?: unknown }[], total: string) => new Decimal(paymentsSum(payments)).equals(total)
