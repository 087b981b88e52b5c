import { lazy, Suspense, useState } from 'react'
import { Alert, Card, Space, Spin, Table, Tooltip } from 'antd'
import type { ColumnType } from 'antd/es/table'
import dayjs, { type Dayjs } from 'dayjs'
import { useCall } from '../../app/use-call.js'
import { REPORT_KIND, WEEKLY, type ReportType, type Statis } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import DateInput from '../../components/DateInput.js'

const StatisChart = lazy(() => import('./StatisChart.js'))

export interface StatisPanelProps {
  type: ReportType
  /** A day of the period shown first (default today). */
  date?: string
  /** Only this person (a report's detail page). */
  userId?: string
  title?: string
}

/**
 * 工作统计 of a week or month (getWeekStatis / getMonthStatis): per person the caller follows, reports
 * handed in, follow-ups, new customers, contracts and collections, as a chart and a table with totals.
 */
export default function StatisPanel({ type, date, userId, title }: StatisPanelProps) {
  const tr = useTr()
  const kind = REPORT_KIND[type]
  const [day, setDay] = useState<Dayjs>(date ? dayjs(date) : dayjs())
  const query = { date: day.format('YYYY-MM-DD'), userId }
  const { data, isLoading } = useCall(kind.statis, query, { swr: { revalidateOnFocus: false, keepPreviousData: true } })
  const figures = data?.figures ?? []
  const missing = figures.filter((f) => !f.available)
  const columns: ColumnType<Statis['rows'][number]>[] = [
    { key: 'userName', dataIndex: 'userName', title: tr('人员'), width: 120, fixed: 'left' },
    ...figures.map<ColumnType<Statis['rows'][number]>>((f) => ({
      key: f.key,
      dataIndex: f.key,
      align: 'right',
      width: 110,
      title: f.available ? tr(f.label) : <Tooltip title={tr('该数据来源尚未启用，暂按0统计')}>{tr(f.label)}*</Tooltip>,
    })),
  ]
  return (
    <Card
      size="small"
      variant="borderless"
      title={title ?? tr(`${kind.name}统计`)}
      style={{ marginBottom: 12 }}
      extra={
        <Space>
          {data && <span>{tr(`${data.startDate} 至 ${data.endDate}`)}</span>}
          <DateInput
            aria-label={type === WEEKLY ? tr('统计周') : tr('统计月')}
            picker={type === WEEKLY ? 'week' : 'month'}
            allowClear={false}
            value={day}
            onChange={(v) => v && setDay(v)}
          />
        </Space>
      }
    >
      {missing.length > 0 && (
        <Alert type="info" showIcon style={{ marginBottom: 8 }} message={tr(`${missing.map((f) => tr(f.label)).join('、')}的数据来源尚未启用，暂按0统计（标 * 的列）。`)} />
      )}
      {/* One person (a salesperson, a report's author) has a chart too: their own figures side by side. */}
      {data && data.rows.length > 0 && (
        <Suspense fallback={<Spin />}>
          <StatisChart data={data} />
        </Suspense>
      )}
      <Table
        rowKey="userId"
        size="small"
        bordered
        loading={isLoading}
        columns={columns}
        dataSource={data?.rows ?? []}
        pagination={false}
        scroll={{ x: 'max-content', y: 360 }}
        summary={() =>
          data && data.rows.length > 1 ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{tr('合计')}</Table.Summary.Cell>
              {figures.map((f, i) => (
                <Table.Summary.Cell key={f.key} index={i + 1} align="right">
                  {String(data.totals[f.key] ?? '')}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          ) : null
        }
      />
    </Card>
  )
}
