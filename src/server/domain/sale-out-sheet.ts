import type { Db } from '../db/dialect.js'
import type { DocumentHooks } from '../engine/document-store.js'
import { readSingleton } from '../engine/singleton-routes.js'
import { DocumentStatus } from '../../shared/metadata/document-model.js'
import { invalid } from '../platform/errors.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import { explodeBundles, removeBundleBreakdown, saveBundleBreakdown, type BundleSpec } from './bundle-lines.js'
import { customerPaymentDate, customerTerms } from './customer-terms.js'
import { completeSaleLines, markForcedGifts } from './sale-lines.js'
import { requireSingleFollower } from './single-follower.js'
import { followSource, type SourceLink } from './source-link.js'

export const SALE_ORDER_LINK: Omit<SourceLink, 'multiple'> = {
  headerField: 'saleOrderId',
  lineField: 'saleOrderDetailId',
  statuses: [DocumentStatus.APPROVE_PASS],
  notApproved: '销售订单尚未审核通过，不允许出库！',
  copyHeader: ['scId', 'customerId'],
  copyLine: ['oriPrice', 'taxPrice', 'discountRate', 'taxRate'],
  priceField: 'taxPrice',
  multipleMessage: '销售订单号：{code}，已关联其他销售出库单，不允许关联多个销售出库单！',
}

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
  const config = (trx: Db, ctx: RequestContext) => readSingleton(services, trx, ctx, services.registry.get('saleConfig'))
  return {
    async prepare(e) {
      const cfg = await config(e.trx, e.ctx)
      const linked = await followSource(services.registry, e, SALE_ORDER_LINK, { requiredOnCreate: Boolean(cfg.outStockRequireSale), multiple: Boolean(cfg.outStockMultipleRelateSale) })
      if (linked) markForcedGifts(e.lines, SALE_ORDER_LINK.lineField)
      completeSaleLines(e.lines)
      if (!e.header.customerId) return
      const terms = await customerTerms(e.trx, String(e.header.customerId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = customerPaymentDate(terms, e.header.paymentDate)
    },
    saved: (e) => saveBundleBreakdown(services, e, SALE_OUT_BUNDLES),
    release: (e) => removeBundleBreakdown(services, e, SALE_OUT_BUNDLES),
    async beforeApprove(e) {
      const cfg = await config(e.trx, e.ctx)
      if (cfg.outStockRequireLogistics) throw invalid('销售出库单尚未发货，无法审核通过！')
      if (!cfg.outStockMultipleRelateSale) await requireSingleFollower(services.registry, e, 'saleOrderId', SALE_ORDER_LINK.multipleMessage)
      await explodeBundles(services, e, SALE_OUT_BUNDLES)
    },
  }
}
