import Decimal from 'decimal.js'
import { DECIMAL_GRAMMAR, isNoNumber } from '../../../shared/metadata/decimal-grammar.js'

/**
 * Component lines of a bundle (`product.productBundles`, productType 2) as the server reads them
 * (`src/server/modules/basedata/product-hooks.ts`): `productId`, `bundleNum` (positive integer),
 * `salePrice` and `retailPrice` (decimal text). The bundle's own prices must equal
 * Σ bundleNum × line price; the server checks it (单品的销售价设置错误！ / 单品的零售价设置错误！), the
 * form only warns, with the same decimal arithmetic (`src/server/domain/product/bundle-price.ts`).
 */
export interface BundleLine {
  productId: string
  bundleNum: number | null
  salePrice: string | null
  retailPrice: string | null
}

/** What the list shows of a component (from the record's lines or the picker's rows). */
export interface ComponentInfo {
  code?: string
  name?: string
  skuCode?: string
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

export function bundleLinesOf(value: unknown): BundleLine[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((r) => ({
    productId: String(r.productId ?? ''),
    bundleNum: blank(r.bundleNum) || !Number.isFinite(Number(r.bundleNum)) ? null : Number(r.bundleNum),
    salePrice: blank(r.salePrice) ? null : String(r.salePrice),
    retailPrice: blank(r.retailPrice) ? null : String(r.retailPrice),
  }))
}

/** The wire lines: exactly the four fields the server takes. */
export const bundleWire = (lines: readonly BundleLine[]) =>
  lines.map((l) => ({ productId: l.productId, bundleNum: l.bundleNum, salePrice: l.salePrice, retailPrice: l.retailPrice }))

/** A decimal of the wire (no number counts 0, as on the server); undefined for text outside the shared grammar. */
export function decimalOf(v: unknown): Decimal | undefined {
  if (isNoNumber(v)) return new Decimal(0)
  if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string') return undefined
  return DECIMAL_GRAMMAR.test(String(v)) ? new Decimal(String(v)) : undefined
}

export interface BundleTotals {
  salePrice: Decimal
  retailPrice: Decimal
}

/** Σ bundleNum × line price; a line with an unreadable number adds nothing. */
export function bundleTotals(lines: readonly BundleLine[]): BundleTotals {
  let salePrice = new Decimal(0)
  let retailPrice = new Decimal(0)
  for (const line of lines) {
    const num = decimalOf(line.bundleNum) ?? new Decimal(0)
    salePrice = salePrice.plus(num.times(decimalOf(line.salePrice) ?? 0))
    retailPrice = retailPrice.plus(num.times(decimalOf(line.retailPrice) ?? 0))
  }
  return { salePrice, retailPrice }
}

/** One line's Σ: bundleNum × price, or undefined while either is unreadable. */
export function lineAmount(num: unknown, price: unknown): Decimal | undefined {
  const n = decimalOf(num)
  const p = decimalOf(price)
  return n && p ? n.times(p) : undefined
}

/** Whether the bundle's own price equals the lines' total (undefined when the price is no number). */
export function matches(total: Decimal, own: unknown): boolean | undefined {
  const d = decimalOf(own)
  return d ? d.eq(total) : undefined
}

export const money = (d: Decimal) => d.toFixed(2)
