import { useEffect, useRef, type RefObject } from 'react'
import * as echarts from 'echarts/core'

/**
 * An ECharts instance on `el` (in the caller's lazy chunk, which registers its chart kinds), made again when the
 * theme changes and disposed with the component. It follows the element's size, except at width 0: a hidden tab's
 * chart is laid out again when its tab is shown, not while hidden.
 */
export function useEChart(el: RefObject<HTMLDivElement | null>, dark: boolean): RefObject<echarts.ECharts | undefined> {
  const chart = useRef<echarts.ECharts>()
  useEffect(() => {
    if (!el.current) return
    const instance = echarts.init(el.current, dark ? 'dark' : undefined)
    chart.current = instance
    const observer = new ResizeObserver(([entry]) => entry.contentRect.width > 0 && instance.resize())
    observer.observe(el.current)
    return () => {
      observer.disconnect()
      instance.dispose()
      chart.current = undefined
    }
  }, [el, dark])
  return chart
}
