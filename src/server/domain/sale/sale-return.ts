import type { DocumentHooks } from '../../engine/document-store.js'
import type { Services } from '../../services.js'
import { applyCustomerTerms } from './customer-terms.js'
import { followSaleSource } from './sale-lines.js'
import { followConfig, requireSingleFollowerUnlessMultiple, sourceLinkOf } from '../documents/source-link.js'
import { postBusinessDocument } from '../settle/ledger.js'

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
    async beforeApprove(e) {
      await requireSingleFollowerUnlessMultiple(services, e, link, await followConfig(services, e.trx, e.ctx, link))
    // The settlement row before the stock effect: it needs no stock row, so the stock rows stay locked for a
    // statement fewer (concurrent approvals of the same products wait on them).
      await postBusinessDocument(e.trx, e.ctx, e.doc.name, e.id, e.header)
    },
  }
}
