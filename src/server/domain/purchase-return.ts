import type { Db } from '../db/dialect.js'
import type { DocumentHooks } from '../engine/document-store.js'
import { readSingleton } from '../engine/singleton-routes.js'
import { DocumentStatus } from '../../shared/metadata/document-model.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import { followSource, type SourceLink } from './source-link.js'
import { paymentDateOf, supplierTerms } from './supplier-terms.js'

export const RECEIVE_SHEET_LINK: Omit<SourceLink, 'multiple'> = {
  headerField: 'receiveSheetId',
  lineField: 'receiveSheetDetailId',
  statuses: [DocumentStatus.APPROVE_PASS],
  notApproved: '采购收货单尚未审核通过，不允许退货！',
  copyHeader: ['scId', 'supplierId'],
  copyLine: ['taxPrice'],
  priceField: 'taxPrice',
  multipleMessage: '采购收货单号：{code}，已关联其他采购退货单，不允许关联多个采购退货单！',
}

/**
 * Purchase return (domain-rules §2.3): linked to a receive sheet per the purchase config, prices from
 * the receive lines; approval takes the goods out at the purchase price (engine, `lineAmount`).
 */
export function purchaseReturnHooks(services: Services): DocumentHooks {
  const config = (trx: Db, ctx: RequestContext) => readSingleton(services, trx, ctx, services.registry.get('purchaseConfig'))
  return {
    async prepare(e) {
      const cfg = await config(e.trx, e.ctx)
      await followSource(services.registry, e, RECEIVE_SHEET_LINK, { requiredOnCreate: Boolean(cfg.purchaseReturnRequireReceive), multiple: Boolean(cfg.purchaseReturnMultipleRelateReceive) })
      if (!e.header.supplierId) return
      const terms = await supplierTerms(e.trx, String(e.header.supplierId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = paymentDateOf(terms, e.header.paymentDate)
    },
  }
}
