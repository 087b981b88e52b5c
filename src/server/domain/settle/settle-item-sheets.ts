import type { Db } from '../../db/dialect.js'
import { SETTLE_FEE_SHEET_TYPE } from '../../../shared/generated/enum-codes.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { Wire } from '../../engine/record-codec.js'
import { invalid } from '../../platform/errors.js'

/** 收支方向 of a fee sheet (SETTLE_FEE_SHEET_TYPE): 应收款 lines are 收入项目, 应付款 lines 支出项目. */
export const FeeSheetType = SETTLE_FEE_SHEET_TYPE

const ITEM_TABLES = { in: 'settle_in_item', out: 'settle_out_item' } as const

/** The item table a line of this sheet draws from: a fee sheet's by its type, a pre-sheet's by its side. */
function itemTableOf(docName: string, header: Wire): (typeof ITEM_TABLES)[keyof typeof ITEM_TABLES] {
  if (docName.endsWith('FeeSheet')) return Number(header.sheetType) === FeeSheetType.RECEIVE ? ITEM_TABLES.in : ITEM_TABLES.out
  // 供应商预付款 is money paid out, 客户预收款 money received.
  return docName === 'settlePreSheet' ? ITEM_TABLES.out : ITEM_TABLES.in
}

async function itemsOf(db: Db, table: string, ids: string[]) {
  if (!ids.length) return new Map<string, { code: string; name: string; available: boolean }>()
  const rows = await db.selectFrom(table).select(['id', 'code', 'name', 'available']).where('id', 'in', ids).execute()
  return new Map(rows.map((r) => [String(r.id), { code: String(r.code), name: String(r.name), available: Boolean(Number(r.available)) }]))
}

/**
 * Fee sheets and pre-sheets of both sides (domain-rules §2.7): lines of settlement items with amounts
 * (the total is the engine's `sums`); each line's item exists, is enabled and is of the kind the sheet
 * takes. New sheets are 未结算 and approval books them in the settlement ledger (the engine, from the file's
 * `settle`); approved, they wait for a check sheet (settle-check-sheet.ts).
 */
export function settleItemSheetHooks(): DocumentHooks {
  return {
    async prepare(e) {
      const header = e.mode === 'modify' ? { ...e.existing, ...e.header } : e.header
      const table = itemTableOf(e.doc.name, header)
      const ids = [...new Set(e.lines.map((l) => l.itemId).filter((v): v is string => typeof v === 'string' && v !== ''))]
      const items = await itemsOf(e.trx, table, ids)
      e.lines.forEach((line, i) => {
        if (typeof line.itemId !== 'string' || !line.itemId) return
        const item = items.get(line.itemId)
        const kind = table === ITEM_TABLES.in ? '收入项目' : '支出项目'
        if (!item) throw invalid(`第${i + 1}行项目不是${kind}，请重新选择！`, 'itemId')
        if (!item.available && e.mode === 'create') throw invalid(`第${i + 1}行项目“${item.name}”已停用！`, 'itemId')
      })
    },
    async decorate(db, _ctx, doc, answer) {
      const details = (answer.details as Wire[] | undefined) ?? []
      const items = await itemsOf(db, itemTableOf(doc.name, answer), [...new Set(details.map((d) => String(d.itemId)))])
      for (const d of details) {
        const item = items.get(String(d.itemId))
        d.itemCode = item?.code ?? null
        d.itemName = item?.name ?? null
      }
    },
  }
}
