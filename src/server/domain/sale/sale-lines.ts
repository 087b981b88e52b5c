import { isBlank } from '../../../shared/metadata/validate-record.js'
import { decimalOf, rateFromPrice } from '../../../shared/metadata/line-discount.js'
import type { Wire } from '../../engine/record-codec.js'
import type { DocumentEvent } from '../../engine/document-store.js'
import type { Services } from '../../engine/services.js'
import { followConfiguredSource, type SourceLink } from '../documents/source-link.js'

/** A full discount rate: the price is the original price. */
export const NO_DISCOUNT = '100'

/**
 * Sale and retail lines carry original price, price and discount rate (%). A line sent with a price
 * only gets original price = price and no discount; one sent with both prices but no rate gets the rate
 * they make (line-discount.ts); a gift (price 0) keeps its original price and is marked "discount 100"
 * as the ancestor did for lines forced to gifts. The engine then checks the three agree.
 */
export function completeSaleLines(lines: Wire[]): void {
  for (const line of lines) {
    if (isBlank(line.oriPrice)) line.oriPrice = line.taxPrice
    if (isBlank(line.discountRate)) {
      const price = decimalOf(line.taxPrice)
      const original = decimalOf(line.oriPrice)
      const rate = price && original && !price.isZero() ? rateFromPrice(price, original) : undefined
      line.discountRate = rate ? rate.toFixed(2) : NO_DISCOUNT
    }
  }
}

/** Unlinked lines of a linked document were forced to price 0 by followSource: they are gifts. */
export function markForcedGifts(lines: Wire[], lineField: string): void {
  for (const line of lines) if (isBlank(line[lineField])) line.discountRate = NO_DISCOUNT
}

/**
 * A sale-side follower's create/modify (sale out ← order, returns ← out sheets): the source as the
 * configuration says, lines the source did not give forced to gifts, then the price columns completed.
 */
export async function followSaleSource(services: Services, e: DocumentEvent, link: SourceLink): Promise<{ linked: boolean; config: Wire }> {
  const followed = await followConfiguredSource(services, e, link)
  if (followed.linked) markForcedGifts(e.lines, link.lineField)
  completeSaleLines(e.lines)
  return followed
}
