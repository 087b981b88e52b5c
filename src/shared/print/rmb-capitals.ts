import Decimal from 'decimal.js'
import Nzh from 'nzh/cn'

/**
 * An amount in Chinese capitals as written on vouchers (人民币大写): 壹万贰仟叁佰肆拾伍元陆角柒分. The amount
 * is rounded half up to fen first (decimal.js: never binary floating point); whole yuan end in 整, as the
 * banking rules ask (nzh leaves 整 off when the fen are written as .00); negatives begin with 负.
 */
export function rmbCapitals(amount: string | number): string {
  const fixed = new Decimal(amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
  if (fixed.isZero()) return '零元整'
  const words = Nzh.toMoney(fixed.toFixed(2), { outSymbol: false })
  return words.endsWith('元') ? `${words}整` : words
}
