import Decimal from 'decimal.js'

/**
 * Moving weighted average cost of one product in one warehouse (tax-inclusive), as v3's
 * ProductStockServiceImpl computes it. Pure decimal.js: no database, no binary floating point.
 *
 * Rounding rules (all ROUND_HALF_UP, on exact decimal values):
 * - amounts (taxAmount, the cost of a move) have 2 places; unit costs (taxPrice) have 6;
 * - a receipt at a line price is valued at round2(price) × num: the document's line price is a money
 *   price with 2 places, so the amount stays exact to the cent;
 * - the average is round6(amount / stock), computed only from the row's amount and quantity, never
 *   from the log;
 * - goods moved at the average are valued at round2(average × num);
 * - when the quantity reaches 0 the amount becomes 0 and the unit cost is kept, so the next move at
 *   average (a sale return, a count surplus) still has a sensible price.
 */
export interface CostState {
  stockNum: number
  /** Unit cost, 6 places. */
  taxPrice: string
  /** Stock value, 2 places. */
  taxAmount: string
}

export interface CostMove {
  after: CostState
  /** Value of this move, 2 places, never negative (for an adjust: the signed change of the stock value). */
  amount: string
}

const ROUND = Decimal.ROUND_HALF_UP
export const round2 = (v: Decimal.Value): Decimal => new Decimal(v).toDecimalPlaces(2, ROUND)
export const round6 = (v: Decimal.Value): Decimal => new Decimal(v).toDecimalPlaces(6, ROUND)
const price6 = (v: Decimal.Value) => round6(v).toFixed(6)
const money2 = (v: Decimal.Value) => round2(v).toFixed(2)

function checkNum(num: number) {
  if (!Number.isSafeInteger(num) || num <= 0) throw new RangeError(`stock quantity must be a positive integer, got ${num}`)
}

function state(stockNum: number, taxPrice: Decimal.Value, taxAmount: Decimal.Value): CostState {
  return { stockNum, taxPrice: price6(taxPrice), taxAmount: money2(taxAmount) }
}

/** Purchase receive, transfer receive, a new row at the purchase price: the average is recomputed. */
export function receiveAtPrice(s: CostState, num: number, price: Decimal.Value): CostMove {
  checkNum(num)
  const line = round2(price).times(num)
  const stockNum = s.stockNum + num
  const amount = new Decimal(s.taxAmount).plus(line)
  // stock + num is > 0 whenever stock >= 0 (the ledger never lets it go negative); v3 guards the same way.
  const avg = stockNum === 0 ? new Decimal(0) : amount.dividedBy(stockNum)
  return { after: state(stockNum, avg, amount), amount: money2(line) }
}

/** Goods in at the current average (sale return, count surplus, stock adjust in): the price stays. */
export function receiveAtAverage(s: CostState, num: number): CostMove {
  checkNum(num)
  const line = round2(new Decimal(s.taxPrice).times(num))
  return { after: state(s.stockNum + num, s.taxPrice, new Decimal(s.taxAmount).plus(line)), amount: money2(line) }
}

/**
 * Goods out at the current average (sale, retail, count shortage, transfer out). The cost never exceeds
 * the remaining value (a rounding corner with tiny amounts), so the value cannot turn negative.
 * The caller checks that `num` does not exceed the stock.
 */
export function issueAtAverage(s: CostState, num: number): CostMove {
  checkNum(num)
  if (num > s.stockNum) throw new RangeError(`issue of ${num} exceeds stock ${s.stockNum}`)
  const held = new Decimal(s.taxAmount)
  const cost = Decimal.min(round2(new Decimal(s.taxPrice).times(num)), Decimal.max(held, 0))
  const stockNum = s.stockNum - num
  const amount = stockNum === 0 ? new Decimal(0) : held.minus(cost)
  return { after: state(stockNum, s.taxPrice, amount), amount: money2(cost) }
}

/**
 * Goods out at a given value (purchase return at the purchase price): the value drops by that amount and
 * the average is recomputed; at 0 quantity the value is 0 and the old price is kept. A return credited
 * above the book value leaves the remaining goods at 0, never at a negative value or price (v3 would let
 * both go negative).
 */
export function issueAtAmount(s: CostState, num: number, given: Decimal.Value): CostMove {
  checkNum(num)
  if (num > s.stockNum) throw new RangeError(`issue of ${num} exceeds stock ${s.stockNum}`)
  const value = round2(given)
  if (value.isNegative()) throw new RangeError('issue amount must not be negative')
  const stockNum = s.stockNum - num
  if (stockNum === 0) return { after: state(0, s.taxPrice, 0), amount: money2(value) }
  const amount = Decimal.max(new Decimal(s.taxAmount).minus(value), 0)
  return { after: state(stockNum, amount.dividedBy(stockNum), amount), amount: money2(value) }
}

/** Cost adjust: the unit cost is set (6 places) and the value follows it; `amount` is the change of value. */
export function adjustCostPrice(s: CostState, price: Decimal.Value): CostMove {
  const taxPrice = round6(price)
  const amount = round2(taxPrice.times(s.stockNum))
  return { after: state(s.stockNum, taxPrice, amount), amount: money2(amount.minus(s.taxAmount)) }
}
