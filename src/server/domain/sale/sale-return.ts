import type { DocumentHooks } from '../../engine/document-store.js'
import type { Services } from '../../engine/services.js'
import { applyCustomerTerms } from './customer-terms.js'
import { followSaleSource } from './sale-lines.js'
import { followConfig, requireSingleFollowerUnlessMultiple, sourceLinkOf } from '../documents/source-link.js'

/**
 * Sale return (domain-rules §2.4): linked to an approved sale out sheet per the sale config (prices from
 * the out line, returnNum reserved by the engine; bundles were exploded at the out sheet's approval, so
 * returns link component lines); approval brings the goods back at the current average cost (engine).
 */
export function saleReturnHooks(services: Services): DocumentHooks {
  const link = sourceLinkOf(services.registry, 'saleReturn')
  return {
    async prepare(e) {
      await followSaleSource(services, e, link)
      await applyCustomerTerms(e)
    },
    beforeApprove: async (e) => requireSingleFollowerUnlessMultiple(services, e, link, await followConfig(services, e.trx, e.ctx, link)),
  }
}
