import Decimal from 'decimal.js'
import { sql } from 'kysely'
import type { DocumentEvent } from '../../engine/document-store.js'
import { valuesList } from '../../db/values-list.js'
import type { Db } from '../../db/dialect.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import type { Wire } from '../../engine/record-codec.js'
import { lockStockRows, postStockMoves, type LedgerMove, type Posted, type PostingWrite } from './stock-ledger.js'

/**
 * The stock effect a document file declares (`document.stock`), posted through the ledger in the
 * approving transaction as one batch (a few statements whatever the number of lines). Lines are given in
 * product order, so refusals name the first failing product as before; the ledger locks the stock rows in
 * key order, so two approvals touching the same products cannot deadlock.
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
  const moves: LedgerMove[] = ordered.map((line) => {
    const num = Number(line[numField])
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
    if (direction === 'in') return { ...move, direction, taxPrice: stock.price === 'line' ? price : undefined }
    return { ...move, direction, taxAmount: stock.price === 'lineAmount' ? new Decimal(price).times(num).toFixed(2) : undefined }
  })
  const costField = direction === 'out' ? stock.costField : undefined
  // The cost of every line in one UPDATE … FROM (VALUES …) per 500 lines, written with the posting.
  const costs = (posted: Posted[]) => {
    if (!costField) return []
    const column = e.doc.lines.byName.get(costField)?.column ?? costField
    ordered.forEach((line, i) => (line[costField] = posted[i].taxAmount))
    const statements: PostingWrite[] = []
    for (let start = 0; start < ordered.length; start += 500) {
      const part = ordered.slice(start, start + 500)
      const values = valuesList(e.trx, 'cost', [['cost_line_id', 'text'], ['cost_amount', 'numeric']], part.map((line) => [String(line.id), line[costField]]))
      statements.push(
        e.trx
          .updateTable(e.doc.lines.table)
          .from(values)
          .set({ [column]: sql.ref('cost_amount') })
          .where(sql.ref('id'), '=', sql.ref('cost_line_id')),
      )
    }
    return statements
  }
  await postStockMoves(e.trx, e.ctx, moves, { alsoWrite: costs })
}

/**
 * Locks, in key order, the stock rows that approving the documents `headers` (with their `lines`) will
 * post: the warehouse of each header × the products of its lines. Called by a batch approval before the
 * first document is posted, so the batch holds every row it needs in one order (components of bundles,
 * exploded at approval, and rows not yet created are locked by their posting).
 */
export async function lockDocumentStock(trx: Db, doc: DocumentModel, headers: Wire[], lines: Wire[]): Promise<void> {
  const stock = doc.section.stock
  if (!stock) return
  const scField = stock.scField ?? 'scId'
  const warehouseOf = new Map(headers.map((h) => [String(h.id), h[scField]]))
  const parent = doc.section.lines.parentField
  const keys: { productId: string; scId: string }[] = []
  for (const line of lines) {
    const scId = warehouseOf.get(String(line[parent]))
    if (typeof scId === 'string' && typeof line.productId === 'string') keys.push({ productId: line.productId, scId })
  }
  await lockStockRows(trx, keys)
}
