import { Form, Input, InputNumber, Select } from 'antd'
import type { Meta } from '../../api/meta.js'
import { enumOptions } from '../../runtime/query-params.js'
import { useTr } from '../../i18n/use-tr.js'

/** Today as yyyy-MM-dd (the server's date format). */
export const todayText = () => {
  const d = new Date()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** 发票类型, 发票号码, 开票日期, 价税合计, 税率 and 备注: the fields every invoice form shares (rules as in the entity files). */
export function InvoiceFields({ meta }: { meta: Meta }) {
  const tr = useTr()
  return (
    <>
      <Form.Item name="invoiceType" label={tr('发票类型')} rules={[{ required: true, message: tr('请选择发票类型') }]}>
        <Select options={enumOptions('INVOICE_TYPE', meta.enums)} placeholder={tr('请选择')} />
      </Form.Item>
      <Form.Item name="invoiceNo" label={tr('发票号码')} rules={[{ required: true, message: tr('请输入发票号码') }, { pattern: /^\d{1,20}$/, message: tr('发票号码只能是数字') }]}>
        <Input maxLength={20} placeholder={tr('请输入发票号码')} />
      </Form.Item>
      <Form.Item name="invoiceDate" label={tr('开票日期')} rules={[{ required: true, message: tr('请选择开票日期') }]}>
        <DateText />
      </Form.Item>
      <Form.Item name="amount" label={tr('价税合计')} rules={[{ required: true, message: tr('请输入价税合计') }, { pattern: /^\d+(\.\d{1,2})?$/, message: tr('价税合计最多允许2位小数，且不能为负数') }]}>
        <Input placeholder={tr('请输入价税合计')} />
      </Form.Item>
      <Form.Item name="taxRate" label={tr('税率（%）')} rules={[{ required: true, message: tr('请输入税率') }]}>
        <InputNumber min={0} max={100} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="description" label={tr('备注')}>
        <Input.TextArea maxLength={200} />
      </Form.Item>
    </>
  )
}

/** A date field kept as yyyy-MM-dd text. */
function DateText({ value, onChange, id }: { value?: string; onChange?: (v: string | undefined) => void; id?: string }) {
  const tr = useTr()
  return (
    <Input
      id={id}
      type="date"
      value={value ?? ''}
      onChange={(e) => onChange?.(e.target.value || undefined)}
      style={{ width: '100%' }}
      aria-label={tr('开票日期')}
    />
  )
}
