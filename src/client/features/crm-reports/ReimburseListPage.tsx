import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button, Card, Col, DatePicker, Form, Input, Select, Space, Tabs, Tag } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import type { Dayjs } from 'dayjs'
import useSWR from 'swr'
import { api, type Page } from '../../api/http.js'
import { useMeta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import SearchCard from '../../components/SearchCard.js'
import { FeedbackProvider } from '../../components/feedback.js'
import { SEQ_WIDTH } from '../../runtime/list-columns.js'
import { DEFAULT_PAGE_SIZE } from '../../components/pager.js'
import { enumOptions } from '../../runtime/query-params.js'
import { CREATED, REIMBURSE_STATUS_ENUM, STATUS_COLOR, type Claim } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import { PagedTable } from '../../components/PagedTable.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

type Box = 'mine' | 'approve'

/**
 * 费用报销 (menu /crm/reimburse): 我的报销 (my claims, 新增 / 修改 while pending or refused) and 报销审批
 * (claims whose approver I am: waiting for me by default, or those I passed or refused), each row
 * opening the detail page where the approver passes or refuses.
 */
export default function ReimburseListPage({ listPath }: { listPath: string }) {
  return (
    <FeedbackProvider>
      <ClaimList listPath={listPath} />
    </FeedbackProvider>
  )
}

function ClaimList({ listPath }: { listPath: string }) {
  const tr = useTr()
  const meta = useMeta()
  const can = usePermission()
  const navigate = useNavigate()
  const mayApprove = can([PERMISSION.crm.reimburse.approve])
  const [box, setBox] = useState<Box>(can([PERMISSION.crm.reimburse.query]) ? 'mine' : 'approve')
  const [form] = Form.useForm<{ code?: string; title?: string; status?: number; time?: [Dayjs, Dayjs] }>()
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const params = { ...query, status: query.status ?? (box === 'approve' ? CREATED : undefined), pageIndex: page.index, pageSize: page.size }
  const url = box === 'mine' ? '/crm/cost/list' : '/crm/cost/approveList'
  const { data, isLoading } = useSWR(['crm-claims', url, JSON.stringify(params)], () => api.get<Page<Claim>>(url, params), { keepPreviousData: true, revalidateOnFocus: true })
  const { data: waiting } = useSWR(mayApprove ? ['crm-claims-waiting', data] : null, () => api.get<Page<Claim>>('/crm/cost/approveList', { pageSize: 1 }), { revalidateOnFocus: false })
  const search = () => {
    const v = form.getFieldsValue()
    setQuery({
      code: v.code || undefined,
      title: v.title || undefined,
      status: v.status ?? undefined,
      startTime: v.time?.[0]?.format('YYYY-MM-DD'),
      endTime: v.time?.[1]?.format('YYYY-MM-DD'),
    })
    setPage((p) => ({ ...p, index: 1 }))
  }
  const columns: ColumnType<Claim>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => (page.index - 1) * page.size + i + 1 },
    { key: 'code', dataIndex: 'code', title: tr('报销单号'), width: 200 },
    { key: 'title', dataIndex: 'title', title: tr('报销事由'), width: 220, ellipsis: true },
    { key: 'totalAmount', dataIndex: 'totalAmount', title: tr('报销总金额(元)'), width: 130, align: 'right' },
    { key: 'applicantName', dataIndex: 'applicantName', title: tr('申请人'), width: 100 },
    { key: 'deptName', dataIndex: 'deptName', title: tr('所属部门'), width: 120 },
    { key: 'managerName', dataIndex: 'managerName', title: tr('审批人'), width: 100 },
    {
      key: 'status',
      title: tr('审核状态'),
      width: 100,
      render: (_v, r) => <Tag color={STATUS_COLOR[r.status]}>{meta?.enums.label(REIMBURSE_STATUS_ENUM, r.status) ?? ''}</Tag>,
    },
    { key: 'createTime', dataIndex: 'createTime', title: tr('申请时间'), width: 170 },
    { key: 'approveTime', dataIndex: 'approveTime', title: tr('审核时间'), width: 170 },
    {
      key: '__actions',
      title: tr('操作'),
      width: 150,
      fixed: 'right',
      render: (_v, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(`${listPath}/detail/${row.id}`)}>
            {row.canApprove ? tr('审批') : tr('查看')}
          </Button>
          {row.canModify && can([PERMISSION.crm.reimburse.modify]) && (
            <Button type="link" size="small" onClick={() => navigate(`${listPath}/modify/${row.id}`)}>
              {tr('修改')}
            </Button>
          )}
        </Space>
      ),
    },
  ]
  const tabs = [
    ...(can([PERMISSION.crm.reimburse.query]) ? [{ key: 'mine', label: tr('我的报销') }] : []),
    ...(mayApprove ? [{ key: 'approve', label: tr('报销审批') + (waiting?.totalCount ? `（${waiting.totalCount}）` : '') }] : []),
  ]
  return (
    <div className="crm-reimburse">
      <SearchCard form={form} onSearch={search} buttonSpan={4}>
        <Col span={5}>
          <Form.Item name="code" label={tr('报销单号')}>
            <Input aria-label={tr('报销单号')} allowClear />
          </Form.Item>
        </Col>
        <Col span={5}>
          <Form.Item name="title" label={tr('报销事由')}>
            <Input aria-label={tr('报销事由')} allowClear />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name="status" label={tr('审核状态')}>
            <Select aria-label={tr('审核状态')} allowClear options={meta ? enumOptions(REIMBURSE_STATUS_ENUM, meta.enums) : []} placeholder={box === 'approve' ? tr('待审核') : tr('全部')} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="time" label={tr('申请时间')}>
            <DatePicker.RangePicker aria-label={tr('申请时间')} />
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
          items={tabs}
          tabBarExtraContent={
            can([PERMISSION.crm.reimburse.add]) && (
              <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate(`${listPath}/add`)}>
                {tr('新增报销单')}
              </Button>
            )
          }
        />
        <PagedTable<Claim>
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
