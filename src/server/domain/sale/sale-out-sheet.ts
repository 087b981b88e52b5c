import type { DocumentHooks } from '../../engine/document-store.js'
import { LOGISTICS_SHEET_DETAIL_BIZ_TYPE } from '../../../shared/generated/enum-codes.js'
import type { Services } from '../../engine/services.js'
import { explodeBundles, hasBreakdown, removeBundleBreakdown, saveBundleBreakdown, type BundleSpec } from '../product/bundle-lines.js'
import { applyCustomerTerms } from './customer-terms.js'
import { followSaleSource } from './sale-lines.js'
import { followConfig, requireSingleFollowerUnlessMultiple, sourceLinkOf } from '../documents/source-link.js'
import { refuseRemovingShipped, requireDelivered } from '../logistics/shipping.js'

export const SALE_OUT_BUNDLES: BundleSpec = { entity: 'saleOutSheetDetailBundle', weight: 'sale_price' }

/**
 * Sale out sheet (domain-rules §2.4): linked to a sale order when the sale config says so at creation
 * (prices, original price and discount from the order line; outNum reserved by the engine); customers
 * are always settled; bundles broken down on save and exploded at approval; stock leaves at average
 * cost (engine, cost kept in costTaxAmount).
 *
 * `outStockRequireLogistics`: approval waits until a logistics sheet carrying this out sheet is 已发货
 * (销售出库单尚未发货，无法审核通过！; schemas/documents/logistics-sheet.json says why delivered, not
 * merely attached); one on a logistics sheet cannot be deleted.
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
    hasBreakdown: (db, id) => hasBreakdown(services, db, id, SALE_OUT_BUNDLES),
    remove: (e) => refuseRemovingShipped(e.trx, LOGISTICS_SHEET_DETAIL_BIZ_TYPE.SALE_OUT_SHEET, e.id),
    async beforeApprove(e) {
      const cfg = await followConfig(services, e.trx, e.ctx, link)
      if (cfg.outStockRequireLogistics) await requireDelivered(e.trx, LOGISTICS_SHEET_DETAIL_BIZ_TYPE.SALE_OUT_SHEET, e.id)
      await requireSingleFollowerUnlessMultiple(services, e, link, cfg)
      await explodeBundles(services, e, SALE_OUT_BUNDLES)
    },
  }
}
