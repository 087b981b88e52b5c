import Decimal from 'decimal.js'
import type { Db } from '../db/dialect.js'
import { PRODUCT_TYPE } from '../../shared/generated/enum-codes.js'
import { decimalOf, discountAgrees, discountFieldsOf, expectedPrice, rateFromPrice } from '../../shared/metadata/line-discount.js'
import { invalid } from '../platform/errors.js'
import type { DocumentModel } from './document-kind.js'
import type { Wire } from './record-codec.js'
import { productInfo } from './line-products.js'

/** The product columns of the lines' products, to name a line in a message. */
async function productsOf(db: Db, lines: Wire[]) {
  return productInfo(db, lines.map((l) => l.productId).filter((v): v is string => typeof v === 'string' && v !== ''))
}

const lineName = (products: Map<string, Wire>, i: number, line: Wire) => {
  const p = products.get(String(line.productId))
  return `第${i + 1}行商品${p ? `（${String(p.productCode)}）${String(p.productName)}` : ''}`
}

/**
 * `lines.bundles: false`: no line of a bundle (组合商品 hold no stock of their own, so this document's
 * stock operation cannot take one; domain-rules §2.2). Checked on create and modify before the
 * document's own rules (a take-stock sheet would otherwise only say the product is not in its plan),
 * and again on approve (a document saved before the rule existed cannot slip through).
 */
export async function refuseBundles(db: Db, doc: DocumentModel, lines: Wire[]): Promise<void> {
  if (doc.section.lines.bundles !== false) return
  const products = await productsOf(db, lines)
  lines.forEach((line, i) => {
    if (products.get(String(line.productId))?.productType === PRODUCT_TYPE.BUNDLE)
      throw invalid(`${lineName(products, i, line)}是组合商品，${doc.subject}不能包含组合商品，请选择单品！`, 'productId')
  })
}

/**
 * `lines.discount`: price, original price and discount rate agree (src/shared/metadata/line-discount.ts),
 * checked on create and modify once the document's rules completed the lines, and on approve. The
 * message names the line and says what would agree either way.
 */
export async function checkDiscounts(db: Db, doc: DocumentModel, lines: Wire[]): Promise<void> {
  const discount = discountFieldsOf(doc.section)
  if (!discount) return
  let products: Map<string, Wire> | undefined
  for (const [i, line] of lines.entries()) {
    const price = decimalOf(line[discount.price]) ?? new Decimal(0)
    const original = decimalOf(line[discount.original]) ?? new Decimal(0)
    const rate = decimalOf(line[discount.rate]) ?? new Decimal(0)
    if (discountAgrees(price, original, rate)) continue
    products ??= await productsOf(db, lines)
    const name = lineName(products, i, line)
    throw invalid(
      original.isZero()
        ? `${name}的原价为0，价格只能为0（赠品）！`
        : `${name}的价格与原价、折扣率不一致：原价${original.toFixed(2)}、折扣率${rate.toFixed(2)}%时价格应为${expectedPrice(original, rate)}，价格${price.toFixed(2)}时折扣率应为${rateFromPrice(price, original)!.toFixed(2)}%！`,
      discount.price,
    )
  }
}

/**
 * `follows.startQuantity: "zero"` (returns): the lines start at 0 and the clerk types what goes back, so
 * a document whose every quantity is still 0 was saved untouched; it is refused with the declared
 * message before the per-line rule would name only its first line.
 */
export function refuseAllZero(doc: DocumentModel, lines: Wire[]): void {
  const follows = doc.section.follows
  const quantity = doc.section.totals?.num
  if (follows?.startQuantity !== 'zero' || !quantity) return
  if (lines.every((line) => decimalOf(line[quantity])?.isZero() ?? false))
    throw invalid(follows.zeroMessage ?? `${doc.subject}的数量不能全部为0！`, quantity)
}
