import Decimal from 'decimal.js'
import type { DocumentSection } from './document-model.js'
import type { EntityModel } from './entity-model.js'

/**
 * Price, original price and discount rate (%) of a sale or retail line (`document.lines.discount`),
 * shared by the page (which keeps them consistent both ways) and the server (which refuses a line where
 * they disagree). Rounding is half-up to 2 places, the scale of the three columns:
 *   折扣率 = round(价格 ÷ 原价 × 100, 2)      (typing 价格)
 *   价格   = round(原价 × 折扣率 ÷ 100, 2)    (typing 折扣率 or 原价)
 * A line agrees when either relation holds, so whatever the clerk typed last is kept as typed.
 */
export interface DiscountFields {
  price: string
  original: string
  rate: string
}

/** The discount fields of a document's lines, when it declares them (the price is the totals' price). */
export function discountFieldsOf(section: DocumentSection): DiscountFields | undefined {
  const d = section.lines.discount
  const price = section.totals?.price
  return d && price ? { price, original: d.original, rate: d.rate } : undefined
}

const two = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP)

/** A decimal of a line value, or undefined when blank or not a number. */
export function decimalOf(value: unknown): Decimal | undefined {
  if (value === null || value === undefined || value === '') return undefined
  try {
    const d = new Decimal(String(value))
    return d.isFinite() ? d : undefined
  } catch {
    return undefined
  }
}

/** 折扣率 from 价格 and 原价; undefined when there is no original price to discount. */
export function rateFromPrice(price: Decimal, original: Decimal): Decimal | undefined {
  if (original.isZero()) return undefined
  return two(price.dividedBy(original).times(100))
}

/** 价格 from 原价 and 折扣率. */
export const priceFromRate = (original: Decimal, rate: Decimal): Decimal => two(original.times(rate).dividedBy(100))

/**
 * Whether a line's price, original price and rate agree. A gift (price 0) agrees with any rate; a
 * price without an original price (0) does not.
 */
export function discountAgrees(price: Decimal, original: Decimal, rate: Decimal): boolean {
  if (price.isZero()) return true
  if (original.isZero()) return false
  return priceFromRate(original, rate).equals(price) || rateFromPrice(price, original)!.equals(rate)
}

/** The price a line should have for its original price and rate (for messages). */
export const expectedPrice = (original: Decimal, rate: Decimal) => priceFromRate(original, rate).toFixed(2)

/**
 * What a new line takes from its product (`defaultFrom: "product.<property>"` on line fields), from a
 * product row as the picker or the product search answers it. Blank product values are not copied.
 */
export function productDefaults(lines: EntityModel, product: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of lines.fields) {
    const from = f.defaultFrom?.startsWith('product.') ? f.defaultFrom.slice('product.'.length) : undefined
    if (!from) continue
    const value = product[from]
    if (value === null || value === undefined || value === '') continue
    out[f.name] = f.type === 'decimal' ? (decimalOf(value)?.toFixed(f.scale ?? 2) ?? value) : value
  }
  return out
}

/**
 * A line after the clerk changed `changed`: typing 价格 recomputes 折扣率 (with no original price the
 * price becomes it, at 100%); typing 折扣率 or 原价 recomputes 价格.
 */
export function keepDiscount(line: Record<string, unknown>, changed: string, fields: DiscountFields): Record<string, unknown> {
  const price = decimalOf(line[fields.price])
  const original = decimalOf(line[fields.original])
  const rate = decimalOf(line[fields.rate])
  if (changed === fields.price) {
    if (!price) return line
    if (!original || original.isZero()) return price.isZero() ? line : { ...line, [fields.original]: price.toFixed(2), [fields.rate]: '100.00' }
    return { ...line, [fields.rate]: rateFromPrice(price, original)!.toFixed(2) }
  }
  if (changed === fields.rate || changed === fields.original) {
    if (!original || !rate) return line
    return { ...line, [fields.price]: priceFromRate(original, rate).toFixed(2) }
  }
  return line
}
