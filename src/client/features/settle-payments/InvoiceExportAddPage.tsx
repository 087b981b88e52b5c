import { useMemo, useState } from 'react'
import { Button, Card, Descriptions, Form, Radio, Space } from 'antd'
import { useNavigate } from 'react-router-dom'
import { useMeta } from '../../api/meta.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { InvoiceFields, todayText } from './invoice-fields.js'
import { useTr } from '../../i18n/use-tr.js'
import { settle, type InvoiceSheet as Sheet } from '../../../shared/contracts/settle.js'
import { call } from '../../api/call.js'
import ListView from '../../runtime/ListView.js'
import { term } from '../../i18n/term.js'
import type { ListSource } from '../../runtime/list-source.js'

/** SETTLE_INVOICE_BIZ_TYPE (its candidates: settle.invoiceCandidates); labels in Simplified, shown through tr(). */
const SOURCES = {
  1: { label: '销售出库单', party: 'customerName' as const, partyLabel: '客户' }, // i18n-ignore
  2: { label: '采购收货单', party: 'supplierName' as const, partyLabel: '供应商' }, // i18n-ignore
}

/** The approved sheets of a kind that may be invoiced, as a list. */
function candidatesOf(bizType: 1 | 2): ListSource {
  const source = SOURCES[bizType]
  return {
    name: 'invoice-candidates',
    call: settle.invoiceCandidates[bizType],
    query: [],
    columns: [
      { key: 'code', title: term('单号') },
      { key: source.party, title: source.partyLabel },
      { key: 'totalAmount', title: term('单据金额'), numeric: true },
      { key: 'approveTime', title: term('审核时间') },
    ],
    seq: false,
    size: 'small',
  }
}

/** 新增开票 (/invoice/export/add): choose an approved sale out or receive sheet, then record its invoice. */
export default function InvoiceExportAddPage({ listPath }: { listPath: string }) {
  return (
    <FeedbackProvider>
      <AddInvoice listPath={listPath} />
    </FeedbackProvider>
  )
}

function AddInvoice({ listPath }: { listPath: string }) {
  const tr = useTr()
  const meta = useMeta()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const [bizType, setBizType] = useState<1 | 2>(1)
  const [sheet, setSheet] = useState<Sheet | null>(null)
  const [saving, setSaving] = useState(false)
  const [form] = Form.useForm<Record<string, unknown>>()
  const source = SOURCES[bizType]
  const candidates = useMemo(() => candidatesOf(bizType), [bizType])
  const choose = (row: Sheet) => {
    setSheet(row)
    form.setFieldsValue({ amount: row.totalAmount, invoiceDate: todayText(), taxRate: 13, invoiceType: 1 })
  }
  const save = async (values: Record<string, unknown>) => {
    if (!sheet) return
    setSaving(true)
    try {
      await call(settle.exportInvoice, { ...values, bizType, bizCode: sheet.code })
      message.success(tr('开票成功！'))
      navigate(listPath)
    } catch {
      // The shell shows the server's message.
    } finally {
      setSaving(false)
    }
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Card size="small" title={tr('选择业务单据')}>
        <Radio.Group
          value={bizType}
          onChange={(e) => {
            setBizType(e.target.value as 1 | 2)
            setSheet(null)
          }}
          options={[
            { value: 1, label: tr(SOURCES[1].label) },
            { value: 2, label: tr(SOURCES[2].label) },
          ]}
          optionType="button"
        />
        <ListView<Sheet> source={candidates} choose="single" onChoose={(rows) => rows[0] && choose(rows[0])} />
      </Card>
      {sheet && meta && (
        <Card size="small" title={tr('发票信息')}>
          <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={tr(source.label)}>{sheet.code}</Descriptions.Item>
            <Descriptions.Item label={tr(source.partyLabel)}>{sheet[source.party] ?? ''}</Descriptions.Item>
            <Descriptions.Item label={tr('单据金额')}>{sheet.totalAmount}</Descriptions.Item>
          </Descriptions>
          <Form form={form} name="invoice-export-add" layout="vertical" onFinish={save} style={{ maxWidth: 480 }}>
            <InvoiceFields meta={meta} />
            <Space>
              <Button type="primary" htmlType="submit" loading={saving}>
                {tr('保存')}
              </Button>
              <Button onClick={() => navigate(listPath)}>{tr('取消')}</Button>
            </Space>
          </Form>
        </Card>
      )}
    </Space>
  )
}
