import dayjs from 'dayjs'
import type { Db } from '../../db/dialect.js'
import type { DocumentEvent } from '../../engine/document-store.js'
import { invalid } from '../../platform/errors.js'
import { SettleStatus } from '../settle/settle-status.js'
import { proposedPaymentDate } from '../settle/proposed-payment-date.js'

const SETTLE_ANY_DATE = 1
const SETTLE_ON_DELIVERY = 2

/**
 * What a customer's terms mean for a sale document (domain-rules §2.4): customers are always settled
 * (UN_SETTLE); settle type 1 proposes today + 付款天数 of 销售参数设置 (today + 1 month while that is blank) and lets the user change it, type 2 (货到付款) is
 * today and fixed.
 */
export async function customerTerms(db: Db, customerId: string) {
  const c = await db.selectFrom('base_data_customer').select(['settle_type']).where('id', '=', customerId).executeTakeFirst()
  if (!c) throw invalid('客户不存在', 'customerId')
  const settleType = Number(c.settle_type)
  return {
    settleStatus: SettleStatus.UN_SETTLE,
    allowModify: settleType === SETTLE_ANY_DATE,
    paymentDate: settleType === SETTLE_ON_DELIVERY ? dayjs().format('YYYY-MM-DD') : await proposedPaymentDate(db, 'tbl_sale_config'),
  }
}

/** The payment date a document keeps: the user's choice only where the terms allow one. */
export function customerPaymentDate(terms: Awaited<ReturnType<typeof customerTerms>>, wanted: unknown): string {
  if (terms.allowModify && typeof wanted === 'string' && wanted) return wanted
  return terms.paymentDate
}

/** Retail: the payment date is today unless the user picked one (members have no terms). */
export function retailPaymentDate(wanted: unknown): string {
  return typeof wanted === 'string' && wanted ? wanted : dayjs().format('YYYY-MM-DD')
}

/** Settle status and payment date of a customer's document, once a customer is chosen. */
export async function applyCustomerTerms(e: DocumentEvent): Promise<void> {
  if (!e.header.customerId) return
  const terms = await customerTerms(e.trx, String(e.header.customerId))
  e.header.settleStatus = terms.settleStatus
  e.header.paymentDate = customerPaymentDate(terms, e.header.paymentDate)
}
