import { useState } from 'react'
import { Button, Card, Descriptions, Form, Input, Select, Space, Table, Tag } from 'antd'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { todayText } from './invoice-fields.js'
import { useTr } from '../../i18n/use-tr.js'
import { settle, type PaymentPlanLine as Plan } from '../../../shared/contracts/settle.js'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'


/** SETTLE_PAYMENT_ORDER_KIND of a receive sheet; SETTLE_FEE_SHEET_TYPE 付款. */
const RECEIVE_SHEET = 2
const PAY = 2

/**
 * 采购收货单 登记付款 (/purchase/receive/addPayments/{id}, key purchase:receive:add-payments): a payment to
 * the sheet's supplier against the sheet. The server allocates it to the sheet's plan lines by period,
 * creating one plan for the whole total when the sheet has none, and refuses more than is still unpaid.
 */
export default function AddPaymentsPage({ id }: { id: string }) {
  return (
    <FeedbackProvider>
      <AddPayments id={id} />
    </FeedbackProvider>
  )
}

function AddPayments({ id }: { id: string }) {
  const tr = useTr()
  const { message } = useFeedback()
  const [form] = Form.useForm<Record<string, unknown>>()
  const [saving, setSaving] = useState(false)
  const { data: sheet } = useCall(settle.receiveSheet, { id })
  const { data: plans, mutate } = useCall(sheet && settle.paymentPlans, { orderKind: RECEIVE_SHEET, orderCode: sheet?.code, pageSize: 100 })
  const { data: payTypes } = useCall(settle.payTypes, { pageIndex: 1, pageSize: 100, available: true })
  const save = async (values: Record<string, unknown>) => {
    if (!sheet) return
    setSaving(true)
    try {
      await call(settle.createPayment, { ...values, direction: PAY, supplierId: sheet.supplierId, orderKind: RECEIVE_SHEET, orderCode: sheet.code })
      message.success(tr('登记付款成功！'))
      form.resetFields(['amount', 'description'])
      await mutate()
    } catch {
      // The shell shows the server's message.
    } finally {
      setSaving(false)
    }
  }
  if (!sheet) return <Card loading />
  const rows = plans?.datas ?? []
  const unpaid = rows.length ? rows.reduce((s, p) => s + Math.round(Number(p.remainAmount) * 100), 0) / 100 : Number(sheet.totalAmount)
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Card size="small" title={tr('采购收货单')}>
        <Descriptions size="small" column={3}>
          <Descriptions.Item label={tr('单号')}>{sheet.code}</Descriptions.Item>
          <Descriptions.Item label={tr('供应商')}>{sheet.supplierName ?? ''}</Descriptions.Item>
          <Descriptions.Item label={tr('单据金额')}>{sheet.totalAmount}</Descriptions.Item>
          <Descriptions.Item label={tr('未付金额')}>
            <span data-testid="unpaid-amount">{unpaid.toFixed(2)}</span>
          </Descriptions.Item>
        </Descriptions>
        <Table<Plan>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={rows}
          locale={{ emptyText: tr('暂无付款计划：登记付款时按单据金额生成一期') }}
          columns={[
            { title: tr('期数'), dataIndex: 'period' },
            { title: tr('到期日期'), dataIndex: 'dueDate' },
            { title: tr('计划金额'), dataIndex: 'planAmount', align: 'right' },
            { title: tr('已付金额'), dataIndex: 'paidAmount', align: 'right' },
            { title: tr('未付金额'), dataIndex: 'remainAmount', align: 'right' },
            { title: tr('状态'), dataIndex: 'overdue', render: (v: boolean, r) => (Number(r.remainAmount) === 0 ? <Tag color="green">{tr('已付清')}</Tag> : v ? <Tag color="red">{tr('已逾期')}</Tag> : <Tag>{tr('未付清')}</Tag>) },
          ]}
        />
      </Card>
      <Card size="small" title={tr('登记付款')}>
        <Form form={form} name="receive-add-payments" layout="vertical" onFinish={save} style={{ maxWidth: 480 }} initialValues={{ payDate: todayText() }}>
          <Form.Item name="payTypeId" label={tr('支付方式')} rules={[{ required: true, message: tr('请选择支付方式') }]}>
            <Select placeholder={tr('请选择')} showSearch optionFilterProp="label" options={(payTypes?.datas ?? []).map((p) => ({ value: p.id, label: p.name }))} />
          </Form.Item>
          <Form.Item name="amount" label={tr('付款金额')} rules={[{ required: true, message: tr('请输入金额') }, { pattern: /^\d+(\.\d{1,2})?$/, message: tr('金额最多允许2位小数，且不能为负数') }]}>
            <Input placeholder={tr('请输入金额')} />
          </Form.Item>
          <Form.Item name="payDate" label={tr('付款日期')} rules={[{ required: true, message: tr('请选择收付款日期') }]}>
            <Input type="date" aria-label={tr('付款日期')} />
          </Form.Item>
          <Form.Item name="description" label={tr('备注')}>
            <Input.TextArea maxLength={200} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {tr('保存')}
          </Button>
        </Form>
      </Card>
    </Space>
  )
}
