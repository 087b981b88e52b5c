import type { Db } from '../../db/dialect.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { ImportRow } from '../../engine/import/units.js'
import type { Services } from '../../engine/services.js'
import { goodsDocumentImport } from './document-import.js'
import { followConfig, followRules, sourceLinkOf } from '../documents/source-link.js'

/** The refusal when receipts must follow purchase orders (the ancestor's words). */
export const RECEIVE_IMPORT_NEEDS_UNLINKED = '“采购收货单是否关联采购订单”必须设置为“否”才可以导入！'

/**
 * Receive sheet import (000 §5): only while the purchase settings say receipts are not linked to purchase
 * orders (an imported row names no order line); grouped by warehouse, supplier, buyer, payment date and
 * actual arrival date. The payment date and settle status then follow the supplier's terms exactly as
 * on the screen (receive-sheet.ts): the file's payment date is kept where the terms let the user choose
 * one (任意指定), a blank one takes the terms' default.
 */
export function purchaseReceiveSheetImport(services: Services) {
  const goods = goodsDocumentImport(services, {
    document: 'receiveSheet',
    dates: [
      { field: 'paymentDate', header: '付款日期', required: false, blank: '空白时按供应商的结算方式' },
      { field: 'receiveDate', header: '实际到货日期', required: true },
    ],
    quantityHeader: '收货数量',
  })
  const link = sourceLinkOf(services.registry, 'receiveSheet')

  /** Refuses while receipts must be linked to purchase orders: before the upload is read, and again in each group's transaction (the setting may change meanwhile). */
  async function requireUnlinked(db: Db, ctx: RequestContext) {
    if (followRules(link, await followConfig(services, db, ctx, link)).requiredOnCreate) throw invalid(RECEIVE_IMPORT_NEEDS_UNLINKED)
  }

  return {
    ...goods,
    rules: [...goods.rules, `仅当“采购参数设置”中“采购收货单是否关联采购订单”为“否”时可以导入；付款日期与页面新增相同：供应商结算方式为“任意指定”时取填写的日期，否则按供应商的结算方式。`],
    requireUnlinked,
    async write(trx: Db, ctx: RequestContext, rows: ImportRow[]) {
      await requireUnlinked(trx, ctx)
      return goods.write(trx, ctx, rows)
    },
  }
}
