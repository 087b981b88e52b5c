import Decimal from 'decimal.js'
import type { DocumentEvent } from '../engine/document-store.js'
import { addStock, checkIssuable, subStock } from './stock-ledger.js'

/**
 * The stock effect a document file declares (`document.stock`), posted through the ledger in the
 * approving transaction. Lines are posted in product order so two approvals touching the same
 * products take their row locks in the same order and cannot deadlock.
 */
export async function postDocumentStock(e: DocumentEvent & { id: string }): Promise<void> {
  const stock = e.doc.section.stock
  const totals = e.doc.section.totals
  const numField = stock?.num ?? totals?.num
  if (!stock || !numField) return
  const direction =
    typeof stock.direction === 'string'
      ? stock.direction
      : String(e.header[stock.direction.field]) === String(stock.direction.in)
        ? 'in'
        : 'out'
  const scId = String(e.header[stock.scField ?? 'scId'])
  const ordered = [...e.lines].sort((a, b) => String(a.productId).localeCompare(String(b.productId)) || Number(a.orderNo) - Number(b.orderNo))
  // Several lines of one product (or bundles exploded into it): the first of them checks the whole need,
  // so a shortage names the stock before the document rather than what the earlier lines left.
  const needed = new Map<string, number[]>()
  if (direction === 'out')
    for (const line of ordered) needed.set(String(line.productId), [...(needed.get(String(line.productId)) ?? []), Number(line[numField])])
  for (const line of ordered) {
    const num = Number(line[numField])
    const nums = needed.get(String(line.productId))
    if (nums && nums.length > 1) {
      needed.delete(String(line.productId))
      await checkIssuable(e.trx, String(line.productId), scId, nums.reduce((a, b) => a + b, 0))
    }
    const price = totals?.price ? String(line[totals.price] ?? '0') : '0'
    const move = {
      productId: String(line.productId),
      scId,
      num,
      bizType: stock.bizType,
      bizId: e.id,
      bizCode: String(e.header.code),
      bizDetailId: String(line.id),
    }
    if (direction === 'in') {
      await addStock(e.trx, e.ctx, { ...move, taxPrice: stock.price === 'line' ? price : undefined })
      continue
    }
    const taxAmount = stock.price === 'lineAmount' ? new Decimal(price).times(num).toFixed(2) : undefined
    const posted = await subStock(e.trx, e.ctx, { ...move, taxAmount })
    if (stock.costField) {
      const column = e.doc.lines.byName.get(stock.costField)?.column ?? stock.costField
      await e.trx.updateTable(e.doc.lines.table).set({ [column]: posted.taxAmount }).where('id', '=', String(line.id)).execute()
      line[stock.costField] = posted.taxAmount
    }
  }
}
