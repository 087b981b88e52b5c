import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { Wire } from '../../engine/record-codec.js'
import { STOCK_BIZ_TYPE } from '../../../shared/generated/enum-codes.js'
import { adjustCost, currentStock } from './stock-ledger.js'
import { round2 } from './stock-cost.js'

const PRICE = /^\d{1,14}(\.\d{1,2})?$/

/** The line's stock figures now: quantity, unit cost (6 places), archive purchase price and the value change. */
async function lineFigures(db: Db, scId: string, line: Wire) {
  const productId = String(line.productId)
  const stock = await currentStock(db, productId, scId)
  const product = await db.selectFrom('base_data_product').select('purchase_price').where('id', '=', productId).executeTakeFirst()
  const stockNum = stock?.stockNum ?? 0
  const oriPrice = stock?.taxPrice ?? '0.000000'
  line.stockNum = stockNum
  line.oriPrice = oriPrice
  line.purchasePrice = product?.purchase_price == null ? '0.00' : new Decimal(String(product.purchase_price)).toFixed(2)
  line.diffAmount = round2(new Decimal(String(line.price ?? 0)).minus(oriPrice).times(stockNum)).toFixed(2)
}

function headerTotals(header: Wire, lines: Wire[]) {
  header.productNum = lines.length
  header.diffAmount = lines.reduce((sum, l) => sum.plus(String(l.diffAmount ?? 0)), new Decimal(0)).toFixed(2)
}

/**
 * Stock cost adjust sheet (domain-rules §2.5): each line records the stock, the unit cost before, the
 * archive purchase price and diff = round2((price − oriPrice) × stock) when saved; approval recomputes
 * them from the locked stock row and sets the unit cost through the ledger (biz 9). Products without a
 * stock row in the warehouse are skipped. The header keeps productNum and the summed diffAmount.
 */
export function stockCostAdjustSheetHooks(): DocumentHooks {
  return {
    async prepare(e) {
      const scId = e.header.scId ?? e.existing?.scId
      if (!scId) return
      for (const line of e.lines) if (line.productId && PRICE.test(String(line.price ?? ''))) await lineFigures(e.trx, String(scId), line)
      headerTotals(e.header, e.lines)
    },
    async approve(e) {
      const scId = String(e.header.scId)
      const lineTable = e.doc.lines.table
      const ordered = [...e.lines].sort((a, b) => String(a.productId).localeCompare(String(b.productId)))
      for (const line of ordered) {
        const posted = await adjustCost(e.trx, e.ctx, {
          productId: String(line.productId),
          scId,
          taxPrice: String(line.price),
          bizType: STOCK_BIZ_TYPE.STOCK_COST_ADJUST,
          bizId: e.id,
          bizCode: String(e.header.code),
          bizDetailId: String(line.id),
        })
        const stockNum = posted?.stockNum ?? 0
        const oriPrice = posted?.oriTaxPrice ?? '0.000000'
        line.diffAmount = round2(new Decimal(String(line.price)).minus(oriPrice).times(stockNum)).toFixed(2)
        await e.trx
          .updateTable(lineTable)
          .set({ stock_num: stockNum, ori_price: oriPrice, diff_amount: line.diffAmount })
          .where('id', '=', String(line.id))
          .execute()
      }
      headerTotals(e.header, e.lines)
      await e.trx
        .updateTable(e.doc.header.table)
        .set({ product_num: e.header.productNum as number, diff_amount: String(e.header.diffAmount) })
        .where('id', '=', e.id)
        .execute()
    },
  }
}
