import { lazy, Suspense, useCallback, useMemo, useState } from 'react'
import { Card, Empty, Segmented, Spin } from 'antd'
import { LineChartOutlined } from '@ant-design/icons'
import { ApiError } from '../../api/http.js'
import { useMeta } from '../../api/meta.js'
import { useSettings } from '../../app/settings.js'
import { useLocale } from '../../i18n/current-locale.js'
import { useT } from '../../i18n/use-t.js'
import { toOrderChartData } from './order-chart-data.js'
import { useCall } from '../../app/use-call.js'
import { chart } from '../../../shared/contracts/lowcode.js'

const OrderChart = lazy(() => import('./OrderChart.js'))

/**
 * 近30天订单 on the workplace. The call hides its errors: until the documents work serves it (404
 * 接口不存在), or when it answers no rows, the card shows an empty state; ECharts loads only when
 * there is something to draw.
 */
export function OrderChartCard() {
  const t = useT()
  const locale = useLocale()
  const { theme } = useSettings()
  const meta = useMeta()
  const [measure, setMeasure] = useState<'num' | 'amount'>('num')
  const { data: answer, error, isLoading } = useCall(chart.order, undefined, { hideError: true, swr: { revalidateOnFocus: false } })
  // The same object while the answer is: a render of the card (its tab hidden or shown) does not redraw the chart.
  const data = useMemo(() => (error ? undefined : toOrderChartData(answer)), [answer, error])
  const label = useCallback((bizType: number) => meta?.enums.label('ORDER_CHART_BIZ_TYPE', bizType, locale) ?? String(bizType), [meta, locale])
  const missing = error instanceof ApiError && error.code !== 404 ? error.message : undefined

  return (
    <Card
      className="workplace-order-chart"
      title={
        <span>
          <LineChartOutlined /> {t('workplace.orderChart')}
        </span>
      }
      extra={
        data && (
          <Segmented
            size="small"
            value={measure}
            onChange={(v) => setMeasure(v as 'num' | 'amount')}
            options={[
              { value: 'num', label: t('workplace.count') },
              { value: 'amount', label: t('workplace.amount') },
            ]}
          />
        )
      }
      style={{ marginTop: 16 }}
    >
      {isLoading ? (
        <div className="page-loading">
          <Spin />
        </div>
      ) : data ? (
        <Suspense
          fallback={
            <div className="page-loading">
              <Spin />
            </div>
          }
        >
          <OrderChart data={data} measure={measure} label={label} dark={theme !== 'light'} />
        </Suspense>
      ) : (
        <Empty description={missing ?? t('workplace.noChartData')} />
      )}
    </Card>
  )
}
