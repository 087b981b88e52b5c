import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Badge, Button, Card, Col, DatePicker, Form, Input, Popconfirm, Space, Tabs } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import type { Dayjs } from 'dayjs'
import useSWR from 'swr'
import { api, type Page } from '../../api/http.js'
import { usePermission } from '../../app/session.js'
import PickerInput from '../../runtime/picker/PickerInput.js'
import SearchCard from '../../components/SearchCard.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { SEQ_WIDTH } from '../../runtime/list-columns.js'
import { DEFAULT_PAGE_SIZE } from '../../components/pager.js'
import StatisPanel from './StatisPanel.js'
import { refreshReports } from './done-message.js'
import { REPORT_KIND, WEEKLY, type ReportType, type WorkReport } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import { PagedTable } from '../../components/PagedTable.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

type Box = 'all' | 'sent' | 'received'

/**
 * 周报 / 月报 (menus /crm/work-report/weekly and /monthly): the team's statistics for a period with a
 * chart, then the reports the user may see in three boxes (全部, 我发出的, 我收到的, unread marked),
 * with 新增 and 查看 pages below the menu and 删除 for the author.
 */
export default function WorkReportListPage({ type, listPath }: { type: ReportType; listPath: string }) {
  return (
    <FeedbackProvider>
      <ReportList type={type} listPath={listPath} />
    </FeedbackProvider>
  )
}

function ReportList({ type, listPath }: { type: ReportType; listPath: string }) {
  const tr = useTr()
  const kind = REPORT_KIND[type]
  const { message } = useFeedback()
  const can = usePermission()
  const navigate = useNavigate()
  const [form] = Form.useForm<{ userId?: string; keyword?: string; period?: [Dayjs, Dayjs] }>()
  const [box, setBox] = useState<Box>('all')
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const params = { ...query, reportType: type, box, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading, mutate } = useSWR(['crm-work-reports', JSON.stringify(params)], () => api.get<Page<WorkReport>>('/crm/workReport/list', params), {
    keepPreviousData: true,
    revalidateOnFocus: true,
  })
  const { data: unread } = useSWR(['crm-work-reports-unread', type, data], () => api.get<Page<WorkReport>>('/crm/workReport/list', { reportType: type, box: 'received', unread: 1, pageSize: 1 }), {
    revalidateOnFocus: false,
  })
  const search = () => {
    const v = form.getFieldsValue()
    setQuery({
      userId: v.userId || undefined,
      keyword: v.keyword || undefined,
      startDate: v.period?.[0]?.format('YYYY-MM-DD'),
      endDate: v.period?.[1]?.format('YYYY-MM-DD'),
    })
    setPage((p) => ({ ...p, index: 1 }))
  }
  const remove = async (row: WorkReport) => {
    try {
      await api.delete('/crm/workReport/delete', { id: row.id })
      message.success(tr('删除成功！'))
      await mutate()
      refreshReports()
    } catch {
      // The api layer has shown the server's message.
    }
  }
  const columns: ColumnType<WorkReport>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => (page.index - 1) * page.size + i + 1 },
    {
      key: 'period',
      title: tr('报告周期'),
      width: 200,
      render: (_v, r) => (
        <Space>
          {r.read === false && <Badge status="processing" title={tr('未读')} />}
          <span>{`${r.startDate} ~ ${r.endDate}`}</span>
        </Space>
      ),
    },
    { key: 'createBy', dataIndex: 'createBy', title: tr('汇报人'), width: 100 },
    { key: 'content', dataIndex: 'content', title: tr(`${kind.period}工作内容`), width: 320, ellipsis: true },
    { key: 'plan', dataIndex: 'plan', title: tr(`${kind.next}工作计划`), width: 260, ellipsis: true },
    { key: 'recipientNames', dataIndex: 'recipientNames', title: tr('发送给'), width: 160, ellipsis: true },
    { key: 'readCount', title: tr('已读'), width: 80, align: 'center', render: (_v, r) => `${r.readCount}/${r.recipients.length}` },
    { key: 'createTime', dataIndex: 'createTime', title: tr('提交时间'), width: 170 },
    {
      key: '__actions',
      title: tr('操作'),
      width: 130,
      fixed: 'right',
      render: (_v, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(`${listPath}/detail/${row.id}`)}>
            {tr('查看')}
          </Button>
          {row.mine && can([`${kind.prefix}:delete`]) && (
            <Popconfirm title={tr(`确定删除该${kind.name}？`)} okText={tr('确定')} cancelText={tr('取消')} onConfirm={() => remove(row)}>
              <Button type="link" size="small" danger>
                {tr('删除')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ]
  return (
    <div className="crm-work-reports">
      <StatisPanel type={type} />
      <SearchCard form={form} onSearch={search} buttonSpan={5}>
        {/* The user picker is open to report writers (the recipients field offers it). */}
        {can([PERMISSION.crm.weeklyReport.add, PERMISSION.crm.monthlyReport.add]) && (
          <Col span={6}>
            <Form.Item name="userId" label={tr('汇报人')}>
              <PickerInput kind="user" aria-label={tr('汇报人')} placeholder={tr('请选择汇报人')} />
            </Form.Item>
          </Col>
        )}
        <Col span={6}>
          <Form.Item name="keyword" label={tr('关键字')}>
            <Input aria-label={tr('关键字')} allowClear placeholder={tr('工作内容或计划')} />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item name="period" label={tr('报告周期')}>
            <DatePicker.RangePicker aria-label={tr('报告周期')} picker={type === WEEKLY ? 'week' : 'month'} />
          </Form.Item>
        </Col>
      </SearchCard>
      <Card size="small" variant="borderless">
        <Tabs
          activeKey={box}
          onChange={(k) => {
            setBox(k as Box)
            setPage((p) => ({ ...p, index: 1 }))
          }}
          tabBarExtraContent={
            can([`${kind.prefix}:add`]) && (
              <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate(`${listPath}/add`)}>
                {tr(`写${kind.name}`)}
              </Button>
            )
          }
          items={[
            { key: 'all', label: tr(`全部${kind.name}`) },
            { key: 'sent', label: tr('我发出的') },
            { key: 'received', label: <Badge count={unread?.totalCount ?? 0} size="small" offset={[8, -2]}>{tr('我收到的')}</Badge> },
          ]}
        />
        <PagedTable<WorkReport>
          rowKey="id"
          columns={columns}
          answer={data}
          loading={isLoading}
          page={page}
          onPage={setPage}
        />
      </Card>
    </div>
  )
}
