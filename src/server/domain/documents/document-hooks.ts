import type { DocumentHooksFactory } from '../../engine/document-hooks.js'
import type { Services } from '../../engine/services.js'
import { logisticsSheetHooks } from '../logistics/logistics-sheet.js'
import { purchaseOrderHooks } from '../purchase/purchase-order.js'
import { purchaseReturnHooks } from '../purchase/purchase-return.js'
import { receiveSheetHooks } from '../purchase/receive-sheet.js'
import { retailOutSheetHooks } from '../retail/retail-out-sheet.js'
import { retailReturnHooks } from '../retail/retail-return.js'
import { saleOrderHooks } from '../sale/sale-order.js'
import { saleOutSheetHooks } from '../sale/sale-out-sheet.js'
import { saleReturnHooks } from '../sale/sale-return.js'
import { settleCheckSheetHooks } from '../settle/settle-check-sheet.js'
import { settleItemSheetHooks } from '../settle/settle-item-sheets.js'
import { settleSheetHooks } from '../settle/settle-sheet.js'
import { preTakeStockSheetHooks } from '../stock/pre-take-stock-sheet.js'
import { scTransferOrderHooks } from '../stock/sc-transfer-order.js'
import { stockCostAdjustSheetHooks } from '../stock/stock-cost-adjust-sheet.js'
import { takeStockSheetHooks } from '../stock/take-stock-sheet.js'

/**
 * The hand-written rules of the document kinds, by the name a document file gives in `document.hooks`;
 * each lives in the file of that document under its area (the settle sheets of both sides share theirs).
 * The app binds them at start-up (engine/document-hooks.ts), which stops on a name missing here.
 */
export const DOCUMENT_HOOKS: Readonly<Record<string, DocumentHooksFactory<Services>>> = {
  purchaseOrder: purchaseOrderHooks,
  receiveSheet: receiveSheetHooks,
  purchaseReturn: purchaseReturnHooks,
  saleOrder: saleOrderHooks,
  saleOutSheet: saleOutSheetHooks,
  saleReturn: saleReturnHooks,
  retailOutSheet: retailOutSheetHooks,
  retailReturn: retailReturnHooks,
  stockCostAdjustSheet: stockCostAdjustSheetHooks,
  scTransferOrder: scTransferOrderHooks,
  takeStockSheet: takeStockSheetHooks,
  preTakeStockSheet: preTakeStockSheetHooks,
  logisticsSheet: logisticsSheetHooks,
  settleItemSheet: settleItemSheetHooks,
  settleCheckSheet: (services) => settleCheckSheetHooks(services.store),
  settleSheet: (services) => settleSheetHooks(services.store),
}

/** Where DOCUMENT_HOOKS is written, for the start-up messages. */
export const DOCUMENT_HOOKS_SOURCE = 'src/server/domain/documents/document-hooks.ts'
