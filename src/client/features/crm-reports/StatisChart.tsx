import { useEffect, useRef } from 'react'
import * as echarts from 'echarts/core'
import { BarChart } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'
import type { Statis } from './report-api.js'
import { statisChartOption } from './statis-chart-option.js'
import { useTr } from '../../i18n/use-tr.js'
import { useEChart } from '../../components/use-echart.js'

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer])

/** The statistics of a period per person (statisChartOption), in its own lazy chunk with the tree-shaken ECharts. */
export default function StatisChart({ data, dark = false }: { data: Statis; dark?: boolean }) {
  const tr = useTr()
  const el = useRef<HTMLDivElement>(null)
  const chart = useEChart(el, dark)

  useEffect(() => {
    chart.current?.setOption(statisChartOption(data, tr), { notMerge: true })
  }, [data])

  return <div ref={el} style={{ width: '100%', height: 280 }} role="img" aria-label={tr('工作统计图')} />
}
