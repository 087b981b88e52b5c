import dayjs from 'dayjs'
import type { Db } from '../../db/dialect.js'
import { invalid } from '../../platform/errors.js'
import { SettleStatus } from '../settle/settle-status.js'
import { proposedPaymentDate } from '../settle/proposed-payment-date.js'

const MANAGE_DISTRIBUTION = 1
const SETTLE_ANY_DATE = 1
const SETTLE_ON_DELIVERY = 2

/**
 * What a supplier's terms mean for a purchase document (domain-rules §2.3 `getPaymentDate`): only a
 * distribution (经销) supplier is settled; settle type 任意指定 proposes today + 付款天数 of 采购参数设置
 * (today + 1 month while that is blank) and lets the user change it, 货到付款 is today and fixed.
 */
export async function supplierTerms(db: Db, supplierId: string) {
  const s = await db.selectFrom('base_data_supplier').select(['manage_type', 'settle_type']).where('id', '=', supplierId).executeTakeFirst()
  if (!s) throw invalid('供应商不存在', 'supplierId')
  const settled = Number(s.manage_type) === MANAGE_DISTRIBUTION
  const settleType = Number(s.settle_type)
  return {
    settleStatus: settled ? SettleStatus.UN_SETTLE : SettleStatus.UN_REQUIRE,
    allowModify: settled && settleType === SETTLE_ANY_DATE,
    paymentDate: !settled ? null : settleType === SETTLE_ON_DELIVERY ? dayjs().format('YYYY-MM-DD') : await proposedPaymentDate(db, 'tbl_purchase_config'),
  }
}

/** The payment date a document keeps: the user's choice only where the terms allow one. */
export function paymentDateOf(terms: Awaited<ReturnType<typeof supplierTerms>>, wanted: unknown): string | null {
  if (terms.allowModify && typeof wanted === 'string' && wanted) return wanted
  return terms.paymentDate
}
