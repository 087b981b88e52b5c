import type { Statis } from './report-api.js'

/**
 * The chart of a period's statistics: people are the categories, each figure one series of bars, counts
 * on the left axis and money on the right (元). A line would join people as if they were a sequence, so
 * no figure is drawn as one. Figures whose source is not part of the product yet are left out rather than
 * drawn as zeros.
 */
export function statisChartOption(data: Statis, tr: (text: string) => string) {
  const figures = data.figures.filter((f) => f.available)
  return {
    backgroundColor: 'transparent',
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 48, right: 64, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: data.rows.map((r) => r.userName) },
    yAxis: [
      { type: 'value', name: tr('数量'), minInterval: 1 },
      ...(figures.some((f) => f.money) ? [{ type: 'value', name: tr('金额(元)'), splitLine: { show: false } }] : []),
    ],
    series: figures.map((f) => ({
      type: 'bar' as const,
      name: tr(f.label),
      barMaxWidth: 24,
      yAxisIndex: f.money ? 1 : 0,
      data: data.rows.map((r) => Number(r[f.key])),
    })),
  }
}
