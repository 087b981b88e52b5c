import type { Db } from '../../db/dialect.js'
import type { DocumentEvent, DocumentHooks } from '../../engine/document-store.js'
import type { Wire } from '../../engine/record-codec.js'
import { TAKE_STOCK_PLAN_TYPE } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import type { Services } from '../../engine/services.js'
import { addPlanProducts, cancelOverduePlans, planHeader, PlanStatus } from './take-stock-plan.js'

const CHANGED = '关联盘点任务的盘点状态已改变，'

/** The plan of a take sheet, which must still be counting (status 0). */
async function openPlan(trx: Db, planId: unknown, action: string): Promise<Wire> {
  const plan = await planHeader(trx, planId)
  if (plan.takeStatus !== PlanStatus.CREATED) throw invalid(`${CHANGED}${action}`)
  return plan
}

/** Adds (sign 1) or takes back (sign −1) each line's count in the plan line of its product. */
async function countIntoPlan(e: DocumentEvent, sign: 1 | -1) {
  const planId = String(e.header.planId)
  for (const line of e.lines) {
    const n = sign * Number(line.takeNum)
    await e.trx
      .updateTable('tbl_take_stock_plan_detail')
      .set((eb) => ({ ori_take_num: eb(eb.fn.coalesce('ori_take_num', eb.lit(0)), '+', n) }))
      .where('plan_id', '=', planId)
      .where('product_id', '=', String(line.productId))
      .execute()
  }
}

/**
 * Take-stock sheet (盘点单, domain-rules §2.6.3): only while its plan counts (0); the warehouse is the
 * plan's. Lines of a plan with fixed products must be among them; SIMPLE plans gain the new products on
 * save, each with the stock of that moment. Approval adds the counts into the plan lines (several
 * sheets accumulate); cancelling the approval takes them back.
 */
export function takeStockSheetHooks(services: Services): DocumentHooks {
  return {
    async prepare(e) {
      await cancelOverduePlans(services, e.trx, e.ctx)
      if (e.existing) e.header.planId = e.existing.planId
      if (isBlank(e.header.planId)) return
      const plan = await openPlan(e.trx, e.header.planId, e.mode === 'create' ? '不允许进行新增！' : '不允许进行修改！')
      e.header.scId = plan.scId
      if (!isBlank(e.header.preSheetId)) {
        const pre = await e.trx.selectFrom('tbl_pre_take_stock_sheet').select('sc_id').where('id', '=', String(e.header.preSheetId)).executeTakeFirst()
        if (!pre) throw invalid('预先盘点单不存在！', 'preSheetId')
        if (String(pre.sc_id) !== String(plan.scId)) throw invalid('预先盘点单的仓库与盘点任务的仓库不一致！', 'preSheetId')
      }
      if (plan.takeType === TAKE_STOCK_PLAN_TYPE.SIMPLE) return
      const inPlan = new Set(
        (await e.trx.selectFrom('tbl_take_stock_plan_detail').select('product_id').where('plan_id', '=', String(plan.id)).execute()).map((r) => String(r.product_id)),
      )
      e.lines.forEach((line, i) => {
        if (!isBlank(line.productId) && !inPlan.has(String(line.productId))) throw invalid(`第${i + 1}行商品不在盘点任务中，请检查！`)
      })
    },
    async saved(e) {
      const plan = await planHeader(e.trx, e.header.planId)
      if (plan.takeType === TAKE_STOCK_PLAN_TYPE.SIMPLE)
        await addPlanProducts(e.trx, e.ctx, String(plan.id), String(plan.scId), e.lines.map((l) => String(l.productId)))
    },
    async beforeApprove(e) {
      await cancelOverduePlans(services, e.trx, e.ctx)
      await openPlan(e.trx, e.header.planId, '不允许继续执行审核！')
    },
    async approve(e) {
      await countIntoPlan(e, 1)
    },
    async refuse(e) {
      await openPlan(e.trx, e.header.planId, '不允许继续执行审核！')
    },
    async cancelApprove(e) {
      await openPlan(e.trx, e.header.planId, '不允许执行取消审核！')
      await countIntoPlan(e, -1)
    },
  }
}
