import Decimal from 'decimal.js'
import type { Db } from '../db/dialect.js'
import { PRODUCT_TYPE } from '../../shared/generated/enum-codes.js'
import { decimalOf, discountAgrees, discountFieldsOf, expectedPrice } from '../../shared/metadata/line-discount.js'
import { invalid } from '../platform/errors.js'
import type { DocumentModel } from './document-store.js'
import type { Wire } from './record-codec.js'
import { productInfo } from './line-products.js'

/**
 * Rules over a document's product lines declared in its file, checked on create, modify and approve
 * (a document saved before a rule existed cannot slip through approval):
 * - `lines.bundles: false`: no line of a bundle (组合商品 hold no stock of their own, so this document's
 *   stock operation cannot take one; domain-rules §2.2);
 * - `lines.discount`: price, original price and discount rate agree (src/shared/metadata/line-discount.ts).
 * The message names the line by number and product.
 */
export async function checkLineRules(db: Db, doc: DocumentModel, lines: Wire[]): Promise<void> {
  const noBundles = doc.section.lines.bundles === false
  const discount = discountFieldsOf(doc.section)
  if (!noBundles && !discount) return
  const ids = lines.map((l) => l.productId).filter((v): v is string => typeof v === 'string' && v !== '')
  const products = await productInfo(db, ids)
  const named = (i: number, line: Wire) => {
    const p = products.get(String(line.productId))
    return `第${i + 1}行商品${p ? `（${String(p.productCode)}）${String(p.productName)}` : ''}`
  }
  lines.forEach((line, i) => {
    if (noBundles && products.get(String(line.productId))?.productType === PRODUCT_TYPE.BUNDLE)
      throw invalid(`${named(i, line)}是组合商品，${doc.subject}不能包含组合商品，请选择单品！`, 'productId')
    if (!discount) return
    const price = decimalOf(line[discount.price]) ?? new Decimal(0)
    const original = decimalOf(line[discount.original]) ?? new Decimal(0)
    const rate = decimalOf(line[discount.rate]) ?? new Decimal(0)
    if (discountAgrees(price, original, rate)) return
    throw invalid(
      original.isZero()
        ? `${named(i, line)}的原价为0，价格只能为0（赠品）！`
        : `${named(i, line)}的价格与原价、折扣率不一致：原价${original.toFixed(2)}、折扣率${rate.toFixed(2)}%时价格应为${expectedPrice(original, rate)}，价格${price.toFixed(2)}时折扣率应为${price.dividedBy(original).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)}%！`,
      discount.price,
    )
  })
}
