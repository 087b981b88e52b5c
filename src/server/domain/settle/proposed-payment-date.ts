import dayjs from 'dayjs'
import type { Db } from '../../db/dialect.js'

/**
 * The payment date a party whose settle type is 任意指定 proposes: today + the settings' 付款天数
 * (`paymentDays` of 采购参数设置 / 销售参数设置, the same count a new document's 付款日期 starts from),
 * or today + 1 month (the spec's rule) while that is blank.
 */
export async function proposedPaymentDate(db: Db, settingsTable: 'tbl_purchase_config' | 'tbl_sale_config'): Promise<string> {
  const row = await db.selectFrom(settingsTable).select('payment_days').limit(1).executeTakeFirst()
  const days = row?.payment_days === null || row?.payment_days === undefined ? undefined : Number(row.payment_days)
  return (days !== undefined && Number.isInteger(days) ? dayjs().add(days, 'day') : dayjs().add(1, 'month')).format('YYYY-MM-DD')
}
