import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import { readSingleton } from '../../engine/singletons.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { explodeBundles, hasBreakdown, removeBundleBreakdown, saveBundleBreakdown, type BundleSpec } from '../product/bundle-lines.js'
import { retailPaymentDate } from '../sale/customer-terms.js'
import { completeSaleLines } from '../sale/sale-lines.js'
import { SettleStatus } from '../settle/settle-status.js'
import { LOGISTICS_SHEET_DETAIL_BIZ_TYPE } from '../../../shared/generated/enum-codes.js'
import { refuseRemovingShipped, requireDelivered } from '../logistics/shipping.js'

export const RETAIL_OUT_BUNDLES: BundleSpec = { entity: 'retailOutSheetDetailBundle', weight: 'retail_price' }

/**
 * Retail out sheet (domain-rules §2.4): a sale out with an optional member (required when the retail
 * config says so — enforced here on the server, the ancestor did it only in the browser), payment date
 * today unless chosen, settle status UN_SETTLE, bundles as on sale out sheets (weights by retail price),
 * stock out at average cost (engine, biz 5). `retailOutSheetRequireLogistics`: approval waits until
 * a logistics sheet carrying it is 已发货 (零售出库单尚未发货，无法审核通过！); one on a logistics sheet
 * cannot be deleted.
 */
export function retailOutSheetHooks(services: Services): DocumentHooks {
  const config = (trx: Db, ctx: RequestContext) => readSingleton(services, trx, ctx, services.registry.get('retailConfig'))
  return {
    async prepare(e) {
      const cfg = await config(e.trx, e.ctx)
      if (cfg.retailOutSheetRequireMember && isBlank('memberId' in e.header ? e.header.memberId : e.existing?.memberId)) throw invalid('会员不能为空', 'memberId')
      completeSaleLines(e.lines)
      e.header.settleStatus = SettleStatus.UN_SETTLE
      e.header.paymentDate = retailPaymentDate(e.header.paymentDate)
    },
    saved: (e) => saveBundleBreakdown(services, e, RETAIL_OUT_BUNDLES),
    release: (e) => removeBundleBreakdown(services, e, RETAIL_OUT_BUNDLES),
    hasBreakdown: (db, id) => hasBreakdown(services, db, id, RETAIL_OUT_BUNDLES),
    remove: (e) => refuseRemovingShipped(e.trx, LOGISTICS_SHEET_DETAIL_BIZ_TYPE.RETAIL_OUT_SHEET, e.id),
    async beforeApprove(e) {
      const cfg = await config(e.trx, e.ctx)
      if (cfg.retailOutSheetRequireLogistics) await requireDelivered(e.trx, LOGISTICS_SHEET_DETAIL_BIZ_TYPE.RETAIL_OUT_SHEET, e.id)
      await explodeBundles(services, e, RETAIL_OUT_BUNDLES)
    },
  }
}
