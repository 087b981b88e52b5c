import { Col, Empty, Row, Statistic, Table } from 'antd'
import type { ChartBlock } from './page-schema.js'
import { useTr } from '../i18n/use-tr.js'

const COLORS = ['#1890ff', '#52c41a', '#faad14', '#f5222f', '#722ed1', '#13c2c2']

/**
 * A chart block drawn with antd and plain boxes (no chart library in this build): statistic tiles,
 * horizontal bars per category (bar and line alike), a share table for pie.
 */
export default function ChartBlockView({ block }: { block: ChartBlock }) {
  const tr = useTr()
  const categories = block.categories ?? block.series[0]?.data.map((_, i) => String(i + 1)) ?? []
  if (!block.series.length) return <Empty />
  if (block.chartType === 'statistic')
    return (
      <Row gutter={16}>
        {block.series.map((s) => (
          <Col key={s.name} flex="1">
            <Statistic title={s.name} value={s.data.reduce((a, b) => a + b, 0)} />
          </Col>
        ))}
      </Row>
    )
  if (block.chartType === 'pie') {
    const s = block.series[0]
    const total = s.data.reduce((a, b) => a + Math.max(0, b), 0) || 1
    return (
      <Table
        size="small"
        pagination={false}
        rowKey="name"
        dataSource={categories.map((name, i) => ({ name, value: s.data[i] ?? 0 }))}
        columns={[
          { title: tr('分类'), dataIndex: 'name' },
          { title: s.name, dataIndex: 'value', align: 'right' },
          { title: tr('占比'), key: 'share', align: 'right', render: (_v, r) => `${((Math.max(0, r.value) / total) * 100).toFixed(1)}%` },
        ]}
      />
    )
  }
  const max = Math.max(1, ...block.series.flatMap((s) => s.data.map((n) => Math.abs(n))))
  return (
    <div className="lowcode-chart" role="img" aria-label={block.title ?? tr('图表')}>
      {categories.map((c, i) => (
        <div key={c + i} style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 4 }}>
          <span style={{ width: 80, flex: 'none', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{c}</span>
          <div style={{ flex: 1 }}>
            {block.series.map((s, si) => (
              <div key={s.name} title={`${s.name}：${s.data[i] ?? 0}`} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
                <div style={{ height: 10, width: `${(Math.abs(s.data[i] ?? 0) / max) * 100}%`, minWidth: 1, background: COLORS[si % COLORS.length], borderRadius: 2 }} />
                <span style={{ fontSize: 12 }}>{s.data[i] ?? 0}</span>
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  )
}
