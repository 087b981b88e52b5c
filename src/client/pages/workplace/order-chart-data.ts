/**
 * GET /chart/order answers one row per day and order kind for the last 30 days,
 * `{date: 'YYYY-MM-DD', bizType: ORDER_CHART_BIZ_TYPE code, totalNum: number of documents, totalAmount}`.
 * This is the only place that knows that shape.
 */
export interface OrderChartSeries {
  bizType: number
  num: number[]
  amount: number[]
}

export interface OrderChartData {
  dates: string[]
  series: OrderChartSeries[]
}

const toNumber = (v: unknown) => {
  // Display only (chart axes take numbers); money is never computed here.
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN
  return Number.isFinite(n) ? n : 0
}

/** Rows to chart series, dates ascending; undefined when there is nothing to draw. */
export function toOrderChartData(answer: unknown): OrderChartData | undefined {
  const rows = Array.isArray(answer) ? answer : []
  const valid = rows.filter(
    (r): r is { date: string; bizType: number | string; totalNum?: unknown; totalAmount?: unknown } =>
      !!r && typeof r === 'object' && typeof (r as { date?: unknown }).date === 'string' && Number.isInteger(Number((r as { bizType?: unknown }).bizType)),
  )
  if (valid.length === 0) return undefined
  const dates = [...new Set(valid.map((r) => r.date.slice(0, 10)))].sort()
  const index = new Map(dates.map((d, i) => [d, i]))
  const byType = new Map<number, OrderChartSeries>()
  for (const r of valid) {
    const bizType = Number(r.bizType)
    let s = byType.get(bizType)
    if (!s) byType.set(bizType, (s = { bizType, num: dates.map(() => 0), amount: dates.map(() => 0) }))
    const i = index.get(r.date.slice(0, 10))!
    s.num[i] += toNumber(r.totalNum)
    s.amount[i] += toNumber(r.totalAmount)
  }
  return { dates, series: [...byType.values()].sort((a, b) => a.bizType - b.bizType) }
}
