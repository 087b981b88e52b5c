import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import { addTimeline, TimelineType } from '../../engine/document-timeline.js'
import type { Wire } from '../../engine/record-codec.js'
import { SC_TRANSFER_ORDER_STATUS, STOCK_BIZ_TYPE } from '../../../shared/generated/enum-codes.js'
import { invalid } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import type { RequestContext } from '../../platform/request-context.js'
import { OpLogType, writeOpLog } from '../../platform/op-log.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { addStock, currentStock } from './stock-ledger.js'
import { round2 } from './stock-cost.js'

const RECEIVABLE: number[] = [SC_TRANSFER_ORDER_STATUS.APPROVE_PASS, SC_TRANSFER_ORDER_STATUS.PART_RECEIVED]

/**
 * Warehouse transfer (domain-rules §2.5). Approval takes the goods out of the source at average cost
 * (declared `stock` of the file, biz 11); this hook then keeps the unit cost in each line (2 places, the
 * column's scale) and the header amount, so the receipt brings the goods in at that cost.
 */
export function scTransferOrderHooks(): DocumentHooks {
  return {
    async prepare(e) {
      const source = e.header.sourceScId ?? e.existing?.sourceScId
      const target = e.header.targetScId ?? e.existing?.targetScId
      if (!isBlank(source) && !isBlank(target) && String(source) === String(target)) throw invalid('转出仓库和转入仓库不允许相同！', 'targetScId')
    },
    async approve(e) {
      let total = new Decimal(0)
      for (const line of e.lines) {
        // Goods out at the average leave the unit cost of the row unchanged, so it is the cost just used.
        const stock = await currentStock(e.trx, String(line.productId), String(e.header.sourceScId))
        const price = round2(stock?.taxPrice ?? 0)
        total = total.plus(price.times(Number(line.transferNum)))
        await e.trx.updateTable(e.doc.lines.table).set({ tax_price: price.toFixed(2) }).where('id', '=', String(line.id)).execute()
      }
      await e.trx.updateTable(e.doc.header.table).set({ total_amount: total.toFixed(2) }).where('id', '=', e.id).execute()
    },
  }
}

interface ReceiveItem {
  productId: string
  receiveNum: number
}

function receiveItems(body: Wire): ReceiveItem[] {
  const raw = body.products
  if (!Array.isArray(raw) || !raw.length) throw invalid('收货商品不能为空！', 'products')
  return raw.map((item, i) => {
    const it = (item ?? {}) as Wire
    if (typeof it.productId !== 'string' || !it.productId) throw invalid(`第${i + 1}行商品不能为空！`, 'productId')
    const n = Number(it.receiveNum)
    if (!Number.isSafeInteger(n) || n <= 0) throw invalid(`第${i + 1}行商品收货数量必须为正整数！`, 'receiveNum')
    return { productId: it.productId, receiveNum: n }
  })
}

/**
 * Receive (part of) an approved transfer into the target warehouse: each line's counter grows only
 * while enough is still open (guarded UPDATE), the goods come in at the line's cost (biz 11), one
 * receipt row per line received, then 9 while anything is open, else 12.
 */
export async function receiveTransfer(trx: Db, ctx: RequestContext, doc: DocumentModel, header: Wire, body: Wire) {
  const id = String(header.id)
  if (!RECEIVABLE.includes(Number(header.status))) throw invalid('仓库调拨单未审核通过或已收货完成，不允许收货！')
  const items = receiveItems(body)
  const lines = await trx
    .selectFrom('tbl_sc_transfer_order_detail as d')
    .innerJoin('base_data_product as p', 'p.id', 'd.product_id')
    .select(['d.id', 'd.product_id', 'd.tax_price', 'p.code', 'p.name'])
    .where('d.order_id', '=', id)
    .execute()
  const byProduct = new Map(lines.map((l) => [String(l.product_id), l]))
  const ordered = [...items].sort((a, b) => a.productId.localeCompare(b.productId))
  for (const item of ordered) {
    const line = byProduct.get(item.productId)
    if (!line) throw invalid('收货商品不在仓库调拨单中，请检查！', 'productId')
    const done = await trx
      .updateTable('tbl_sc_transfer_order_detail')
      .set((eb) => ({ receive_num: eb('receive_num', '+', item.receiveNum) }))
      .where('id', '=', String(line.id))
      .where((eb) => eb(eb('transfer_num', '-', eb.ref('receive_num')), '>=', item.receiveNum))
      .executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw invalid(`（${line.code}）${line.name}待收货数量不足，请检查！`)
    await trx
      .insertInto('tbl_sc_transfer_order_detail_receive')
      .values({ id: newId(), order_id: id, detail_id: String(line.id), receive_num: item.receiveNum, ...auditColumns(ctx) })
      .execute()
    await addStock(trx, ctx, {
      productId: item.productId,
      scId: String(header.targetScId),
      num: item.receiveNum,
      taxPrice: new Decimal(String(line.tax_price ?? 0)).toFixed(2),
      bizType: STOCK_BIZ_TYPE.SC_TRANSFER,
      bizId: id,
      bizCode: String(header.code),
      bizDetailId: String(line.id),
    })
  }
  const open = await trx
    .selectFrom('tbl_sc_transfer_order_detail')
    .select('id')
    .where('order_id', '=', id)
    .where((eb) => eb('transfer_num', '>', eb.ref('receive_num')))
    .executeTakeFirst()
  const status = open ? SC_TRANSFER_ORDER_STATUS.PART_RECEIVED : SC_TRANSFER_ORDER_STATUS.RECEIVED
  const updated = await trx
    .updateTable(doc.header.table)
    .set({ status, ...updateColumns(ctx) })
    .where('id', '=', id)
    .where('status', 'in', RECEIVABLE)
    .executeTakeFirst()
  if (!Number(updated.numUpdatedRows)) throw invalid(`${doc.subject}信息已过期，请刷新重试！`)
  await addTimeline(trx, ctx, id, TimelineType.RECEIVE, status === SC_TRANSFER_ORDER_STATUS.RECEIVED ? '收货完成' : '部分收货')
  await writeOpLog(trx, ctx, `仓库调拨单收货，单号：${header.code}`, OpLogType.OTHER, { id })
}

/** The receipts of a transfer, oldest first, with the product of each. */
export async function transferReceipts(db: Db, id: string) {
  const rows = await db
    .selectFrom('tbl_sc_transfer_order_detail_receive as r')
    .innerJoin('tbl_sc_transfer_order_detail as d', 'd.id', 'r.detail_id')
    .innerJoin('base_data_product as p', 'p.id', 'd.product_id')
    .select(['r.id', 'r.detail_id', 'r.receive_num', 'r.create_by', 'r.create_time', 'd.product_id', 'p.code', 'p.name', 'p.sku_code'])
    .where('r.order_id', '=', id)
    .orderBy('r.create_time')
    .orderBy('r.id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    detailId: r.detail_id,
    productId: r.product_id,
    productCode: r.code,
    productName: r.name,
    skuCode: r.sku_code,
    receiveNum: Number(r.receive_num),
    createBy: r.create_by,
    createTime: String(r.create_time),
  }))
}
