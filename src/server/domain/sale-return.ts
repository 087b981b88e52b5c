import type { DocumentHooks } from '../engine/document-store.js'
import type { Services } from '../services.js'
import { customerPaymentDate, customerTerms } from './customer-terms.js'
import { completeSaleLines, markForcedGifts } from './sale-lines.js'
import { followConfig, followConfiguredSource, requireSingleFollowerUnlessMultiple, sourceLinkOf } from './source-link.js'

/**
 * Sale return (domain-rules §2.4): linked to an approved sale out sheet per the sale config (prices from
 * the out line, returnNum reserved by the engine; bundles were exploded at the out sheet's approval, so
 * returns link component lines); approval brings the goods back at the current average cost (engine).
 */
export function saleReturnHooks(services: Services): DocumentHooks {
  const link = sourceLinkOf(services.registry, 'saleReturn')
  return {
    async prepare(e) {
      const { linked } = await followConfiguredSource(services, e, link)
      if (linked) markForcedGifts(e.lines, link.lineField)
      completeSaleLines(e.lines)
      if (!e.header.customerId) return
      const terms = await customerTerms(e.trx, String(e.header.customerId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = customerPaymentDate(terms, e.header.paymentDate)
    },
    async beforeApprove(e) {
      await requireSingleFollowerUnlessMultiple(services, e, link, await followConfig(services, e.trx, e.ctx, link))
    },
  }
}
