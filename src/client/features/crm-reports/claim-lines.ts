import Decimal from 'decimal.js'

/** An amount as a claim line takes it: up to 10 digits and 2 decimals. */
export const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/

/** The total as the server will compute it (display only: the server derives the stored total). */
export function linesTotal(lines: { amount?: string | null }[]): string {
  return lines.reduce((acc, l) => (l.amount && AMOUNT.test(l.amount) ? acc.plus(l.amount) : acc), new Decimal(0)).toFixed(2)
}
