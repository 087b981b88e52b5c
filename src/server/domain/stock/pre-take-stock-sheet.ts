import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import { PRE_TAKE_STOCK_SHEET_STATUS, TAKE_STOCK_PLAN_TYPE } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import { planHeader } from './take-stock-plan.js'

const PRE_NUM: Record<number, [string, string]> = {
  [PRE_TAKE_STOCK_SHEET_STATUS.FIRST_TAKE]: ['firstNum', '初盘'],
  [PRE_TAKE_STOCK_SHEET_STATUS.SECOND_TAKE]: ['secondNum', '复盘'],
  [PRE_TAKE_STOCK_SHEET_STATUS.RAND_TAKE]: ['randNum', '抽盘'],
}

/**
 * Pre-take-stock sheet (预先盘点单, §2.6.2): a document without approval. The number of its take status
 * is required on every line; it cannot be deleted once a take sheet references it.
 */
export function preTakeStockSheetHooks(): DocumentHooks {
  return {
    async prepare(e) {
      const status = Number(e.header.takeStatus ?? e.existing?.takeStatus)
      const wanted = PRE_NUM[status]
      if (!wanted) return
      e.lines.forEach((line, i) => {
        if (isBlank(line[wanted[0]])) throw invalid(`第${i + 1}行商品的${wanted[1]}数量不允许为空！`, wanted[0])
      })
    },
    async remove(e) {
      const used = await e.trx.selectFrom('tbl_take_stock_sheet').select('id').where('pre_sheet_id', '=', e.id).executeTakeFirst()
      if (used) throw invalid('已有库存盘点单关联此预先盘点单，不允许执行删除操作！')
    },
  }
}

/** The count a pre-take sheet gives a take sheet line: the number of its take status. */
export async function preSheetCounts(db: Db, preSheetId: string, planId?: string) {
  const sheet = await db.selectFrom('tbl_pre_take_stock_sheet').select(['id', 'take_status']).where('id', '=', preSheetId).executeTakeFirst()
  if (!sheet) throw invalid('预先盘点单不存在！')
  const [field] = PRE_NUM[Number(sheet.take_status)] ?? ['firstNum']
  const column = { firstNum: 'first_num', secondNum: 'second_num', randNum: 'rand_num' }[field] as string
  let q = db.selectFrom('tbl_pre_take_stock_sheet_detail as d').select(['d.product_id', `d.${column} as num`]).where('d.sheet_id', '=', preSheetId)
  if (planId) {
    const plan = await planHeader(db, planId)
    if (plan.takeType !== TAKE_STOCK_PLAN_TYPE.SIMPLE)
      q = q.where('d.product_id', 'in', db.selectFrom('tbl_take_stock_plan_detail').select('product_id').where('plan_id', '=', planId))
  }
  return (await q.orderBy('d.order_no').execute()).map((r) => ({ productId: String(r.product_id), takeNum: r.num == null ? null : Number(r.num) }))
}
