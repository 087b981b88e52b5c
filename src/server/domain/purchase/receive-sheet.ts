import type { DocumentHooks } from '../../engine/document-store.js'
import type { Services } from '../../engine/services.js'
import { updateReceiveProgress } from './purchase-order.js'
import { followConfig, followConfiguredSource, requireSingleFollowerUnlessMultiple, sourceLinkOf } from '../documents/source-link.js'
import { paymentDateOf, supplierTerms } from './supplier-terms.js'

/**
 * Receive sheet (domain-rules §2.3): linked to a purchase order when the purchase config says so at
 * creation (later steps follow the stored link); settle status and payment date from the supplier;
 * approval posts the settlement row and stock at the line price (engine, from the file) and moves the
 * order to 9/12.
 */
export function receiveSheetHooks(services: Services): DocumentHooks {
  const link = sourceLinkOf(services.registry, 'receiveSheet')
  return {
    async prepare(e) {
      await followConfiguredSource(services, e, link)
      if (!e.header.supplierId) return
      const terms = await supplierTerms(e.trx, String(e.header.supplierId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = paymentDateOf(terms, e.header.paymentDate)
    },
    async approve(e) {
      const orderId = e.header[link.field]
      if (!orderId) return
      await requireSingleFollowerUnlessMultiple(services, e, link, await followConfig(services, e.trx, e.ctx, link))
      await updateReceiveProgress(e.trx, String(orderId))
    },
  }
}
