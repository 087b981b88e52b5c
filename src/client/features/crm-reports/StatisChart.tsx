import { useEffect, useRef } from 'react'
import * as echarts from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'
import type { Statis } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer])

/**
 * The statistics of a period per person, in its own lazy chunk with the tree-shaken ECharts: counts as
 * bars (left axis), money as lines (right axis, 元). Figures whose source is not part of the product yet
 * are left out rather than drawn as zeros.
 */
export default function StatisChart({ data, dark = false }: { data: Statis; dark?: boolean }) {
  const tr = useTr()
  const el = useRef<HTMLDivElement>(null)
  const chart = useRef<echarts.ECharts>()

  useEffect(() => {
    if (!el.current) return
    const instance = echarts.init(el.current, dark ? 'dark' : undefined)
    chart.current = instance
    const observer = new ResizeObserver(() => instance.resize())
    observer.observe(el.current)
    return () => {
      observer.disconnect()
      instance.dispose()
      chart.current = undefined
    }
  }, [dark])

  useEffect(() => {
    const figures = data.figures.filter((f) => f.available)
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 48, right: 64, top: 40, bottom: 32 },
        xAxis: { type: 'category', data: data.rows.map((r) => r.userName) },
        yAxis: [
          { type: 'value', name: tr('数量'), minInterval: 1 },
          ...(figures.some((f) => f.money) ? [{ type: 'value', name: tr('金额(元)'), splitLine: { show: false } }] : []),
        ],
        series: figures.map((f) =>
          f.money
            ? { type: 'line', name: tr(f.label), yAxisIndex: 1, data: data.rows.map((r) => Number(r[f.key])) }
            : { type: 'bar', name: tr(f.label), barMaxWidth: 24, data: data.rows.map((r) => Number(r[f.key])) },
        ),
      },
      { notMerge: true },
    )
  }, [data])

  return <div ref={el} style={{ width: '100%', height: 280 }} role="img" aria-label={tr('工作统计图')} />
}
