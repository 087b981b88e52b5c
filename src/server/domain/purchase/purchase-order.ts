import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import { DocumentStatus } from '../../../shared/metadata/document-model.js'
import { invalid } from '../../platform/errors.js'
import type { Services } from '../../engine/services.js'
import { agreedPaymentHooks } from '../documents/agreed-payments.js'

export const PurchaseOrderStatus = { ...DocumentStatus, PART_RECEIVED: 9, TERMINATED: 10, RECEIVED: 12 } as const

/** Purchase order rules beyond the engine: agreed payments; cancel approval only while nothing was received. */
export function purchaseOrderHooks(services: Services): DocumentHooks {
  return {
    ...agreedPaymentHooks(services),
    async cancelApprove({ trx, id }) {
      if (await hasReceiveSheet(trx, id)) throw invalid('采购订单已关联采购收货单，不允许取消审核！')
    },
  }
}

export async function hasReceiveSheet(db: Db, purchaseOrderId: string): Promise<boolean> {
  return Boolean(await db.selectFrom('tbl_receive_sheet').select('id').where('purchase_order_id', '=', purchaseOrderId).executeTakeFirst())
}

/**
 * After a receipt is approved: 12 received when every line's approved receipts reach its quantity,
 * else 9 partly received (reserved but unapproved receipts do not count).
 */
export async function updateReceiveProgress(trx: Db, purchaseOrderId: string) {
  const lines = await trx
    .selectFrom('tbl_purchase_order_detail as d')
    .select(['d.id', 'd.order_num'])
    .where('d.order_id', '=', purchaseOrderId)
    .execute()
  const received = await trx
    .selectFrom('tbl_receive_sheet_detail as r')
    .innerJoin('tbl_receive_sheet as s', 's.id', 'r.sheet_id')
    .select(['r.purchase_order_detail_id as lineId', (eb) => eb.fn.sum<number>('r.order_num').as('num')])
    .where('s.purchase_order_id', '=', purchaseOrderId)
    .where('s.status', '=', DocumentStatus.APPROVE_PASS)
    .where('r.purchase_order_detail_id', 'is not', null)
    .groupBy('r.purchase_order_detail_id')
    .execute()
  const byLine = new Map(received.map((r) => [String(r.lineId), Number(r.num)]))
  const done = lines.every((l) => (byLine.get(String(l.id)) ?? 0) >= Number(l.order_num))
  await trx
    .updateTable('tbl_purchase_order')
    .set({ status: done ? PurchaseOrderStatus.RECEIVED : PurchaseOrderStatus.PART_RECEIVED })
    .where('id', '=', purchaseOrderId)
    .where('status', 'in', [PurchaseOrderStatus.APPROVE_PASS, PurchaseOrderStatus.PART_RECEIVED])
    .execute()
}
