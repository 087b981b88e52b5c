import type { Db } from '../../db/dialect.js'
import { LOGISTICS_SHEET_STATUS } from '../../../shared/generated/enum-codes.js'
import { invalid } from '../../platform/errors.js'
import { kindOf, LOGISTICS_DETAIL_TABLE, LOGISTICS_TABLE } from './documents.js'

/**
 * The out sheet has shipped: it is on a logistics sheet that is 已发货. Checked when approving a sale
 * or retail out sheet whose configuration requires logistics (outStockRequireLogistics,
 * retailOutSheetRequireLogistics); otherwise 销售出库单尚未发货，无法审核通过！ (or 零售…). A delivered
 * sheet can no longer change, so the answer cannot be undone before the approval commits.
 */
export async function requireDelivered(trx: Db, bizType: number, id: string): Promise<void> {
  const shipped = await trx
    .selectFrom(`${LOGISTICS_DETAIL_TABLE} as d`)
    .innerJoin(`${LOGISTICS_TABLE} as s`, 's.id', 'd.sheet_id')
    .select('s.id')
    .where('d.biz_id', '=', id)
    .where('s.status', '=', LOGISTICS_SHEET_STATUS.DELIVERY)
    .executeTakeFirst()
  if (!shipped) throw invalid(`${kindOf(bizType)?.subject ?? '出库单'}尚未发货，无法审核通过！`)
}

/** An out sheet on a logistics sheet cannot be deleted (the logistics line would point at nothing). */
export async function refuseRemovingShipped(trx: Db, bizType: number, id: string): Promise<void> {
  const line = await trx
    .selectFrom(`${LOGISTICS_DETAIL_TABLE} as d`)
    .innerJoin(`${LOGISTICS_TABLE} as s`, 's.id', 'd.sheet_id')
    .select('s.code')
    .where('d.biz_id', '=', id)
    .executeTakeFirst()
  if (line) throw invalid(`${kindOf(bizType)?.subject ?? '出库单'}已关联物流单${String(line.code)}，不允许删除！`)
}
