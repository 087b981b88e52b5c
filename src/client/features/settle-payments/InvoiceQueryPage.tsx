import { useState } from 'react'
import { Button, Card, Form, Input, Select, Space, Table, Tag } from 'antd'
import useSWR from 'swr'
import { api, type Page } from '../../api/http.js'
import { useMeta } from '../../api/meta.js'
import { DEFAULT_PAGE_SIZE, tablePagination } from '../../components/pager.js'
import { enumOptions } from '../../runtime/query-params.js'
import { useTr } from '../../i18n/use-tr.js'

type InvoiceRow = {
  id: string
  sourceName: string
  bizCode: string | null
  directionName: string
  supplierName: string | null
  customerName: string | null
  invoiceTypeName: string
  invoiceNo: string
  invoiceDate: string
  amount: string
  taxRate: number
  taxAmount: string
  description: string | null
}

/** 发票查询 (GET /settle/invoice/query): 收付款发票 and 开票 in one paged list. */
export default function InvoiceQueryPage() {
  const tr = useTr()
  const meta = useMeta()
  const [form] = Form.useForm<Record<string, unknown>>()
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading } = useSWR(['settle-invoices', JSON.stringify(params)], () => api.get<Page<InvoiceRow>>('/settle/invoice/query', params), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  })
  const search = () => {
    const values = form.getFieldsValue()
    setQuery(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== '')))
    setPage((p) => ({ ...p, index: 1 }))
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Card size="small">
        <Form form={form} name="invoice-query" layout="inline" onFinish={search}>
          <Form.Item name="invoiceNo" label={tr('发票号码')}>
            <Input allowClear placeholder={tr('发票号码')} />
          </Form.Item>
          <Form.Item name="invoiceType" label={tr('发票类型')}>
            <Select allowClear style={{ width: 180 }} options={meta ? enumOptions('INVOICE_TYPE', meta.enums) : []} />
          </Form.Item>
          <Form.Item name="direction" label={tr('收付方向')}>
            <Select allowClear style={{ width: 120 }} options={meta ? enumOptions('SETTLE_FEE_SHEET_TYPE', meta.enums) : []} />
          </Form.Item>
          <Form.Item name="invoiceDateStart" label={tr('开票日期')}>
            <Input type="date" aria-label={tr('开票日期起')} />
          </Form.Item>
          <Form.Item name="invoiceDateEnd" label={tr('至')}>
            <Input type="date" aria-label={tr('开票日期止')} />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                {tr('查询')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields()
                  search()
                }}
              >
                {tr('重置')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card size="small">
        <Table<InvoiceRow>
          rowKey="id"
          size="small"
          loading={isLoading}
          dataSource={data?.datas ?? []}
          pagination={tablePagination(page, data?.totalCount ?? 0, setPage)}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: tr('来源'), dataIndex: 'sourceName', render: (v: string) => <Tag>{v}</Tag> },
            { title: tr('单号'), dataIndex: 'bizCode' },
            { title: tr('收付方向'), dataIndex: 'directionName' },
            { title: tr('往来单位'), render: (_: unknown, r) => r.supplierName ?? r.customerName ?? '' },
            { title: tr('发票类型'), dataIndex: 'invoiceTypeName' },
            { title: tr('发票号码'), dataIndex: 'invoiceNo' },
            { title: tr('开票日期'), dataIndex: 'invoiceDate' },
            { title: tr('价税合计'), dataIndex: 'amount', align: 'right' },
            { title: tr('税率（%）'), dataIndex: 'taxRate', align: 'right' },
            { title: tr('税额'), dataIndex: 'taxAmount', align: 'right' },
            { title: tr('备注'), dataIndex: 'description' },
          ]}
        />
      </Card>
    </Space>
  )
}
