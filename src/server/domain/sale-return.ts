import type { Db } from '../db/dialect.js'
import type { DocumentHooks } from '../engine/document-store.js'
import { readSingleton } from '../engine/singleton-routes.js'
import { DocumentStatus } from '../../shared/metadata/document-model.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import { customerPaymentDate, customerTerms } from './customer-terms.js'
import { completeSaleLines, markForcedGifts } from './sale-lines.js'
import { requireSingleFollower } from './single-follower.js'
import { followSource, type SourceLink } from './source-link.js'

export const SALE_OUT_LINK: Omit<SourceLink, 'multiple'> = {
  headerField: 'outSheetId',
  lineField: 'outSheetDetailId',
  statuses: [DocumentStatus.APPROVE_PASS],
  notApproved: '销售出库单尚未审核通过，不允许退货！',
  copyHeader: ['scId', 'customerId'],
  copyLine: ['oriPrice', 'taxPrice', 'discountRate', 'taxRate'],
  priceField: 'taxPrice',
  multipleMessage: '销售出库单号：{code}，已关联其他销售退货单，不允许关联多个销售退货单！',
}

/**
 * Sale return (domain-rules §2.4): linked to an approved sale out sheet per the sale config (prices from
 * the out line, returnNum reserved by the engine; bundles were exploded at the out sheet's approval, so
 * returns link component lines); approval brings the goods back at the current average cost (engine).
 */
export function saleReturnHooks(services: Services): DocumentHooks {
  const config = (trx: Db, ctx: RequestContext) => readSingleton(services, trx, ctx, services.registry.get('saleConfig'))
  return {
    async prepare(e) {
      const cfg = await config(e.trx, e.ctx)
      const linked = await followSource(services.registry, e, SALE_OUT_LINK, { requiredOnCreate: Boolean(cfg.saleReturnRequireOutStock), multiple: Boolean(cfg.saleReturnMultipleRelateOutStock) })
      if (linked) markForcedGifts(e.lines, SALE_OUT_LINK.lineField)
      completeSaleLines(e.lines)
      if (!e.header.customerId) return
      const terms = await customerTerms(e.trx, String(e.header.customerId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = customerPaymentDate(terms, e.header.paymentDate)
    },
    async beforeApprove(e) {
      const cfg = await config(e.trx, e.ctx)
      if (!cfg.saleReturnMultipleRelateOutStock) await requireSingleFollower(services.registry, e, 'outSheetId', SALE_OUT_LINK.multipleMessage)
    },
  }
}
