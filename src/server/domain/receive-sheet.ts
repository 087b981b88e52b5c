import type { DocumentHooks } from '../engine/document-store.js'
import { readSingleton } from '../engine/singleton-routes.js'
import type { Services } from '../services.js'
import { requireSingleFollower } from './single-follower.js'
import type { Db } from '../db/dialect.js'
import type { RequestContext } from '../platform/request-context.js'
import { PurchaseOrderStatus, updateReceiveProgress } from './purchase-order.js'
import { followSource, type SourceLink } from './source-link.js'
import { paymentDateOf, supplierTerms } from './supplier-terms.js'

export const PURCHASE_ORDER_LINK: Omit<SourceLink, 'multiple'> = {
  headerField: 'purchaseOrderId',
  lineField: 'purchaseOrderDetailId',
  statuses: [PurchaseOrderStatus.APPROVE_PASS, PurchaseOrderStatus.PART_RECEIVED],
  notApproved: '采购订单尚未审核通过或已收货完成，不允许收货！',
  copyHeader: ['scId', 'supplierId'],
  copyLine: ['taxPrice'],
  priceField: 'taxPrice',
  multipleMessage: '采购订单号：{code}，已关联其他采购收货单，不允许关联多个采购收货单！',
}

/**
 * Receive sheet (domain-rules §2.3): linked to a purchase order when the purchase config says so at
 * creation (later steps follow the stored link); settle status and payment date from the supplier;
 * approval posts stock at the line price (engine) and moves the order to 9/12.
 */
export function receiveSheetHooks(services: Services): DocumentHooks {
  const config = (e: { trx: Db; ctx: RequestContext }) =>
    readSingleton(services, e.trx, e.ctx, services.registry.get('purchaseConfig'))
  return {
    async prepare(e) {
      const cfg = await config(e)
      await followSource(services.registry, e, PURCHASE_ORDER_LINK, { requiredOnCreate: Boolean(cfg.receiveRequirePurchase), multiple: Boolean(cfg.receiveMultipleRelatePurchase) })
      if (!e.header.supplierId) return
      const terms = await supplierTerms(e.trx, String(e.header.supplierId))
      e.header.settleStatus = terms.settleStatus
      e.header.paymentDate = paymentDateOf(terms, e.header.paymentDate)
    },
    async approve(e) {
      const orderId = e.header.purchaseOrderId
      if (!orderId) return
      const cfg = await config(e)
      if (!cfg.receiveMultipleRelatePurchase) await requireSingleFollower(services.registry, e, 'purchaseOrderId', PURCHASE_ORDER_LINK.multipleMessage)
      await updateReceiveProgress(e.trx, String(orderId))
    },
  }
}
