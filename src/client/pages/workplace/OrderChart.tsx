import { useEffect, useRef } from 'react'
import * as echarts from 'echarts/core'
import { LineChart } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'
import type { OrderChartData } from './order-chart-data.js'
import { useTr } from '../../i18n/use-tr.js'
import { useEChart } from '../../components/use-echart.js'

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer])

interface Props {
  data: OrderChartData
  measure: 'num' | 'amount'
  /** Series name of an order kind (ORDER_CHART_BIZ_TYPE label in the current language). */
  label: (bizType: number) => string
  dark: boolean
}

/** The order chart, in its own lazy chunk with the tree-shaken ECharts (line chart, canvas). */
export default function OrderChart({ data, measure, label, dark }: Props) {
  const tr = useTr()
  const el = useRef<HTMLDivElement>(null)
  const chart = useEChart(el, dark)

  useEffect(() => {
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 48, right: 24, top: 40, bottom: 32 },
        xAxis: { type: 'category', boundaryGap: false, data: data.dates.map((d) => d.slice(5)) },
        yAxis: { type: 'value' },
        series: data.series.map((s) => ({ type: 'line', name: label(s.bizType), smooth: true, showSymbol: false, data: s[measure] })),
      },
      { notMerge: true },
    )
  }, [data, measure, label, dark])

  return <div ref={el} className="workplace-chart" role="img" aria-label={tr('订单趋势图')} />
}
