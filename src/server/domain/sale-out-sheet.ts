import type { DocumentHooks } from '../engine/document-store.js'
import { invalid } from '../platform/errors.js'
import type { Services } from '../services.js'
import { explodeBundles, removeBundleBreakdown, saveBundleBreakdown, type BundleSpec } from './bundle-lines.js'
import { applyCustomerTerms } from './customer-terms.js'
import { followSaleSource } from './sale-lines.js'
import { followConfig, requireSingleFollowerUnlessMultiple, sourceLinkOf } from './source-link.js'
import { postBusinessDocument } from './settle-ledger.js'

export const SALE_OUT_BUNDLES: BundleSpec = { entity: 'saleOutSheetDetailBundle', weight: 'sale_price' }

/**
 * Sale out sheet (domain-rules §2.4): linked to a sale order when the sale config says so at creation
 * (prices, original price and discount from the order line; outNum reserved by the engine); customers
 * are always settled; bundles broken down on save and exploded at approval; stock leaves at average
 * cost (engine, cost kept in costTaxAmount).
 *
 * `outStockRequireLogistics`: there is no logistics module yet, so while the flag is on no sale out
 * sheet can be approved (销售出库单尚未发货，无法审核通过！). When logistics sheets exist, this check
 * becomes "a logistics sheet references this out sheet".
 */
export function saleOutSheetHooks(services: Services): DocumentHooks {
  const link = sourceLinkOf(services.registry, 'saleOutSheet')
  return {
    async prepare(e) {
      await followSaleSource(services, e, link)
      await applyCustomerTerms(e)
    },
    saved: (e) => saveBundleBreakdown(services, e, SALE_OUT_BUNDLES),
    release: (e) => removeBundleBreakdown(services, e, SALE_OUT_BUNDLES),
    async beforeApprove(e) {
      const cfg = await followConfig(services, e.trx, e.ctx, link)
      if (cfg.outStockRequireLogistics) throw invalid('销售出库单尚未发货，无法审核通过！')
      await requireSingleFollowerUnlessMultiple(services, e, link, cfg)
      await explodeBundles(services, e, SALE_OUT_BUNDLES)
    },
    approve: (e) => postBusinessDocument(e.trx, e.ctx, e.doc.name, e.id, e.header),
  }
}
