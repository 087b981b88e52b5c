import Decimal from 'decimal.js'
import dayjs from 'dayjs'
import type { Db } from '../../db/dialect.js'
import { ORDER_CHART_BIZ_TYPE } from '../../../shared/generated/enum-codes.js'

/** Approved states per table: purchase orders stay "approved" once partly/fully received or ended. */
export const ORDER_CHART_SOURCES: { table: string; bizType: number; statuses: number[] }[] = [
  { table: 'tbl_purchase_order', bizType: ORDER_CHART_BIZ_TYPE.PURCHASE_ORDER, statuses: [3, 9, 10, 12] },
  { table: 'tbl_purchase_return', bizType: ORDER_CHART_BIZ_TYPE.PURCHASE_RETURN, statuses: [3] },
  { table: 'tbl_sale_order', bizType: ORDER_CHART_BIZ_TYPE.SALE_ORDER, statuses: [3] },
  { table: 'tbl_sale_return', bizType: ORDER_CHART_BIZ_TYPE.SALE_RETURN, statuses: [3] },
  { table: 'tbl_retail_out_sheet', bizType: ORDER_CHART_BIZ_TYPE.RETAIL_OUT_SHEET, statuses: [3] },
  { table: 'tbl_retail_return', bizType: ORDER_CHART_BIZ_TYPE.RETAIL_RETURN, statuses: [3] },
]

export interface OrderChartRow {
  date: string
  bizType: number
  totalNum: number
  totalAmount: string
}

/**
 * The order chart (GET /chart/order): approved documents of the last 30 days (today and the 29 before),
 * by approval day and ORDER_CHART_BIZ_TYPE: `totalNum` is the number of documents (the chart's 单据数, as the
 * ancestor's tbl_order_chart holds one row per approved order; not the goods quantity) and `totalAmount`
 * their Σ 总金额; only days and kinds with data. Amounts are added with decimal.js in the server (SQLite keeps decimals as text, where SQL SUM
 * would be a float); the rows read are bounded by the 30-day window on the indexed status column.
 * `tables`, when given, limits the kinds to those document tables (the ones the caller may query).
 */
export async function orderChart(db: Db, tables?: ReadonlySet<string>): Promise<OrderChartRow[]> {
  const from = dayjs().subtract(29, 'day').format('YYYY-MM-DD 00:00:00')
  const groups = new Map<string, { date: string; bizType: number; num: number; amount: Decimal }>()
  for (const source of ORDER_CHART_SOURCES) {
    if (tables && !tables.has(source.table)) continue
    const rows = await db
      .selectFrom(source.table)
      .select(['approve_time', 'total_amount'])
      .where('status', 'in', source.statuses)
      .where('approve_time', '>=', from)
      .execute()
    for (const r of rows) {
      const date = dayjs(r.approve_time as string | Date).format('YYYY-MM-DD')
      const key = `${date}|${source.bizType}`
      const g = groups.get(key) ?? { date, bizType: source.bizType, num: 0, amount: new Decimal(0) }
      g.num += 1
      g.amount = g.amount.plus(String(r.total_amount ?? 0))
      groups.set(key, g)
    }
  }
  return [...groups.values()]
    .sort((a, b) => a.date.localeCompare(b.date) || a.bizType - b.bizType)
    .map((g) => ({ date: g.date, bizType: g.bizType, totalNum: g.num, totalAmount: g.amount.toFixed(2) }))
}
