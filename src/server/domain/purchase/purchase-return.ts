import type { DocumentHooks } from '../../engine/document-store.js'
import type { Services } from '../../engine/services.js'
import { followConfiguredSource, sourceLinkOf } from '../documents/source-link.js'
import { paymentDateOf, supplierTerms } from './supplier-terms.js'

/**
 * Purchase return (domain-rules §2.3): linked to a receive sheet per the purchase config, prices from
 * the receive lines; approval takes the goods out at the purchase price (engine, `lineAmount`).
 */
export function purchaseReturnHooks(services: Services): DocumentHooks {
  const link = sourceLinkOf(services.registry, 'purchaseReturn')
  return {
    async prepare(e) {
      await followConfiguredSource(services, e, link)
      if (!e.header.supplierId) return
      const terms = await supplierTerms(e.trx, String(e.header.supplierId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = paymentDateOf(terms, e.header.paymentDate)
    },
  }
}
