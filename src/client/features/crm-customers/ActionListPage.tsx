import { useState } from 'react'
import { Button, Card, Col, DatePicker, Form, Input, Popconfirm, Row, Select, Space, Table } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import type { Dayjs } from 'dayjs'
import { useNavigate } from 'react-router-dom'
import useSWR from 'swr'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { fieldText } from '../../runtime/field-text.js'
import { DEFAULT_PAGE_SIZE, tablePagination } from '../../components/pager.js'
import { enumOptions } from '../../runtime/query-params.js'
import { customerApi, customerPaths, type ActionRow } from './customer-api.js'
import ActionFormModal from './ActionFormModal.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const COLUMNS = ['customerId', 'actionType', 'content', 'actionTime', 'nextTime', 'nextContent', 'followerId']

/**
 * 跟进记录 (/crm/action/index): follow-ups the user may see (own, department or all by the keys),
 * with 写跟进, 删除 (own ones) and 导出 (xlsx of the current conditions); a due list on top.
 */
export default function ActionListPage() {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <ActionList meta={meta} /> : null}</FeedbackProvider>
}

function ActionList({ meta }: { meta: Meta }) {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const entity = meta.entity('crmCustomerAction')
  const [form] = Form.useForm<Record<string, unknown>>()
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const [adding, setAdding] = useState(false)
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading, mutate } = useSWR(['crm-actions', JSON.stringify(params)], () => customerApi.actions(params), { keepPreviousData: true, revalidateOnFocus: false })
  const { data: due, mutate: refreshDue } = useSWR(['crm-due'], () => customerApi.due(3), { revalidateOnFocus: false })
  const { data: figures } = useSWR(['crm-figures', data?.totalCount], () => customerApi.figures(), { revalidateOnFocus: false })
  const search = () => {
    const v = form.getFieldsValue()
    const range = v.actionTime as [Dayjs, Dayjs] | undefined
    setQuery(
      Object.fromEntries(
        Object.entries({
          content: v.content,
          actionType: v.actionType,
          actionTimeStart: range?.[0]?.format('YYYY-MM-DD 00:00:00'),
          actionTimeEnd: range?.[1]?.format('YYYY-MM-DD 23:59:59'),
        }).filter(([, x]) => x !== undefined && x !== null && x !== ''),
      ),
    )
    setPage((p) => ({ ...p, index: 1 }))
  }
  const columns: ColumnType<ActionRow>[] = [
    ...COLUMNS.map((name) => {
      const field = entity.byName.get(name)!
      return {
        key: name,
        title: field.label,
        width: name === 'content' ? 320 : 150,
        ellipsis: true,
        render: (_v: unknown, r: ActionRow) =>
          name === 'customerId' ? <a onClick={() => navigate(customerPaths.detail(r.customerId))}>{String(r.customerName ?? '')}</a> : fieldText(field, r, meta.enums),
      }
    }),
    {
      key: '__actions',
      title: tr('操作'),
      width: 80,
      fixed: 'right',
      render: (_v, r) =>
        can(PERMISSION.crm.action.delete) && (
          <Popconfirm title={tr('确定删除该跟进记录？')} onConfirm={async () => {
            try {
              await customerApi.deleteActions([r.id])
              message.success(tr('删除成功'))
              await mutate()
            } catch {
              // shown by the api layer
            }
          }}>
            <a>{tr('删除')}</a>
          </Popconfirm>
        ),
    },
  ]
  return (
    <Card>
      {figures && (
        <Space size="large" style={{ marginBottom: 12 }} wrap>
          <span>
            {tr('我的客户：')}
            {figures.customerCount}
          </span>
          <span>
            {tr('今日跟进：')}
            {figures.actionToday}
          </span>
          <span>
            {tr('本月跟进：')}
            {figures.actionMonth}
          </span>
          <span>
            {tr('今日待跟进：')}
            {figures.dueToday}
          </span>
          <span style={{ color: figures.overdue ? '#cf1322' : undefined }}>
            {tr('已逾期：')}
            {figures.overdue}
          </span>
          <span>
            {tr('即将回收公海：')}
            {figures.comingReturn}
          </span>
        </Space>
      )}
      {due && due.length > 0 && (
        <Card size="small" title={tr('近3天待跟进')} style={{ marginBottom: 12 }}>
          {due.slice(0, 8).map((d) => (
            <div key={d.customerId}>
              <a onClick={() => navigate(customerPaths.detail(d.customerId))}>{d.name}</a>
              <span style={{ marginLeft: 8, color: d.overdue ? '#cf1322' : '#888' }}>
                {d.nextFollowTime} {d.overdue ? tr('（已逾期）') : ''} {d.nextContent ?? ''}
              </span>
            </div>
          ))}
        </Card>
      )}
      <Form form={form} name="crmActionSearch" onFinish={search}>
        <Row gutter={16}>
          <Col xs={24} sm={12} md={6}>
            <Form.Item name="content" label={entity.byName.get('content')!.label}>
              <Input allowClear />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6}>
            <Form.Item name="actionType" label={entity.byName.get('actionType')!.label}>
              <Select allowClear options={enumOptions('CRM_ACTION_TYPE', meta.enums)} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={8}>
            <Form.Item name="actionTime" label={entity.byName.get('actionTime')!.label}>
              <DatePicker.RangePicker />
            </Form.Item>
          </Col>
          <Col>
            <Space>
              <Button type="primary" htmlType="submit">
                {tr('查询')}
              </Button>
              <Button onClick={() => (form.resetFields(), search())}>{tr('重置')}</Button>
            </Space>
          </Col>
        </Row>
      </Form>
      <Space style={{ marginBottom: 12 }}>
        {can(PERMISSION.crm.action.add) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {tr('写跟进')}
          </Button>
        )}
        {can(PERMISSION.crm.action.export) && <Button onClick={() => customerApi.exportActions(query).catch(() => undefined)}>{tr('导出')}</Button>}
      </Space>
      <Table<ActionRow>
        rowKey="id"
        size="middle"
        loading={isLoading}
        columns={columns}
        dataSource={data?.datas ?? []}
        scroll={{ x: 1300 }}
        pagination={tablePagination({ index: page.index, size: page.size }, data?.totalCount ?? 0, setPage)}
      />
      <ActionFormModal meta={meta} open={adding} onClose={() => setAdding(false)} onSaved={() => (setAdding(false), void mutate(), void refreshDue())} />
    </Card>
  )
}
