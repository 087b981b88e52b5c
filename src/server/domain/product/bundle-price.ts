import Decimal from 'decimal.js'

/**
 * Bundle (组合商品) price rule, v3 `ProductServiceImpl`: the bundle's own sale and retail prices must
 * equal Σ bundleNum × the price given to each component on the bundle line. Component prices are the
 * bundle line's, not the component product's own price (a component may be sold cheaper inside a
 * bundle). All arithmetic is decimal.js on the wire's decimal strings, never binary floating point.
 */
export interface BundleLine {
  productId: string
  bundleNum: number | string
  salePrice: string | number
  retailPrice: string | number
}

export const SALE_PRICE_WRONG = '单品的销售价设置错误！'
export const RETAIL_PRICE_WRONG = '单品的零售价设置错误！'

const dec = (v: unknown) => new Decimal(v === null || v === undefined || v === '' ? 0 : String(v))

export function bundleTotals(lines: readonly BundleLine[]): { salePrice: Decimal; retailPrice: Decimal } {
  let salePrice = new Decimal(0)
  let retailPrice = new Decimal(0)
  for (const line of lines) {
    const num = dec(line.bundleNum)
    salePrice = salePrice.plus(num.times(dec(line.salePrice)))
    retailPrice = retailPrice.plus(num.times(dec(line.retailPrice)))
  }
  return { salePrice, retailPrice }
}

/**
 * The first broken price rule of a bundle, or undefined. A blank bundle price counts as 0, so it only
 * passes when the components add up to 0 too.
 */
export function bundlePriceError(
  bundle: { salePrice?: unknown; retailPrice?: unknown },
  lines: readonly BundleLine[],
): { message: string; field: 'salePrice' | 'retailPrice' } | undefined {
  const totals = bundleTotals(lines)
  if (!dec(bundle.salePrice).eq(totals.salePrice)) return { message: SALE_PRICE_WRONG, field: 'salePrice' }
  if (!dec(bundle.retailPrice).eq(totals.retailPrice)) return { message: RETAIL_PRICE_WRONG, field: 'retailPrice' }
  return undefined
}
