import { useParams, useNavigate } from 'react-router-dom'
import { Button, Card, Descriptions, Empty, Space, Spin, Tag, Typography } from 'antd'
import { FeedbackProvider } from '../../components/feedback.js'
import { useCall } from '../../app/use-call.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'
import StatisPanel from './StatisPanel.js'
import { REPORT_KIND, type ReportType } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'

const text = (v: string | null | undefined) => <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{v || '—'}</Typography.Paragraph>

/** 查看周报 / 查看月报: the report, its recipients with their read state, and the author's figures of the period. Opening it marks it read. */
export default function WorkReportDetailPage({ type, listPath }: { type: ReportType; listPath: string }) {
  const tr = useTr()
  const { id = '' } = useParams<{ id: string }>()
  const kind = REPORT_KIND[type]
  const navigate = useNavigate()
  const { data, error } = useCall(crmReports.workReportDetail, { id }, { swr: { revalidateOnFocus: false } })
  if (error) return <Empty description={tr(`${kind.name}不存在或无权查看`)} />
  if (!data) return <Spin />
  return (
    <FeedbackProvider>
      <Card
        size="small"
        variant="borderless"
        title={tr(`${data.createBy}的${kind.name}（${data.startDate} ~ ${data.endDate}）`)}
        extra={<Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>}
        style={{ marginBottom: 12 }}
      >
        <Descriptions column={1} bordered size="small" labelStyle={{ width: 140 }}>
          <Descriptions.Item label={tr(`${kind.period}工作内容`)}>{text(data.content)}</Descriptions.Item>
          <Descriptions.Item label={tr(`${kind.next}工作计划`)}>{text(data.plan)}</Descriptions.Item>
          <Descriptions.Item label={tr('遇到的问题')}>{text(data.question)}</Descriptions.Item>
          <Descriptions.Item label={tr('提交时间')}>{data.createTime}</Descriptions.Item>
          <Descriptions.Item label={tr(`发送给（已读 ${data.readCount}/${data.recipients.length}）`)}>
            <Space wrap>
              {data.recipients.length === 0 && '—'}
              {data.recipients.map((r) => (
                <Tag key={r.userId} color={r.read ? 'green' : 'default'} title={r.readTime ? tr(`阅读时间：${r.readTime}`) : tr('未读')}>
                  {tr(`${r.userName}${r.read ? '（已读）' : '（未读）'}`)}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {/* The figures are the author's own and their leaders' (a mere recipient is not shown them). */}
      {(data.mine || data.read === null) && <StatisPanel type={type} date={data.startDate} userId={data.createById} title={tr(`${data.createBy}的${kind.name}数据`)} />}
    </FeedbackProvider>
  )
}
