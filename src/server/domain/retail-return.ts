import type { Db } from '../db/dialect.js'
import type { DocumentHooks } from '../engine/document-store.js'
import { readSingleton } from '../engine/singleton-routes.js'
import { DocumentStatus } from '../../shared/metadata/document-model.js'
import { isBlank } from '../../shared/metadata/validate-record.js'
import { invalid } from '../platform/errors.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import { retailPaymentDate } from './customer-terms.js'
import { completeSaleLines, markForcedGifts } from './sale-lines.js'
import { requireSingleFollower } from './single-follower.js'
import { followSource, type SourceLink } from './source-link.js'
import { SettleStatus } from './supplier-terms.js'

export const RETAIL_OUT_LINK: Omit<SourceLink, 'multiple'> = {
  headerField: 'outSheetId',
  lineField: 'outSheetDetailId',
  statuses: [DocumentStatus.APPROVE_PASS],
  notApproved: '零售出库单尚未审核通过，不允许退货！',
  copyHeader: ['scId', 'memberId'],
  copyLine: ['oriPrice', 'taxPrice', 'discountRate', 'taxRate'],
  priceField: 'taxPrice',
  multipleMessage: '零售出库单号：{code}，已关联其他零售退货单，不允许关联多个零售退货单！',
}

/** Retail return (domain-rules §2.4): linked to a retail out sheet per the retail config; goods back at average cost (engine, biz 6). */
export function retailReturnHooks(services: Services): DocumentHooks {
  const config = (trx: Db, ctx: RequestContext) => readSingleton(services, trx, ctx, services.registry.get('retailConfig'))
  return {
    async prepare(e) {
      const cfg = await config(e.trx, e.ctx)
      const linked = await followSource(services.registry, e, RETAIL_OUT_LINK, { requiredOnCreate: Boolean(cfg.retailReturnRequireOutStock), multiple: Boolean(cfg.retailReturnMultipleRelateOutStock) })
      if (linked) markForcedGifts(e.lines, RETAIL_OUT_LINK.lineField)
      if (cfg.retailReturnRequireMember && isBlank('memberId' in e.header ? e.header.memberId : e.existing?.memberId)) throw invalid('会员不能为空', 'memberId')
      completeSaleLines(e.lines)
      e.header.settleStatus = SettleStatus.UN_SETTLE
      e.header.paymentDate = retailPaymentDate(e.header.paymentDate)
    },
    async beforeApprove(e) {
      const cfg = await config(e.trx, e.ctx)
      if (!cfg.retailReturnMultipleRelateOutStock) await requireSingleFollower(services.registry, e, 'outSheetId', RETAIL_OUT_LINK.multipleMessage)
    },
  }
}
