import { useEffect, useState } from 'react'
import { Form, Input, Select } from 'antd'
import DateInput from '../../components/DateInput.js'
import dayjs, { type Dayjs } from 'dayjs'
import type { Meta } from '../../api/meta.js'
import { enumOptions } from '../../runtime/query-params.js'
import { useFeedback } from '../../components/feedback.js'
import { call } from '../../api/call.js'
import { crmActions, crmCustomers, type CustomerRow } from '../../../shared/contracts/crm-customers.js'
import { useTr } from '../../i18n/use-tr.js'
import GuardedModal from '../../runtime/GuardedModal.js'

const FORMAT = 'YYYY-MM-DD HH:mm:ss'

/**
 * 写跟进: one follow-up of a customer (schemas/entities/crm-customer-action.json). Without a fixed
 * customer the salesperson picks one of the customers they own.
 */
export default function ActionFormModal({ meta, open, customerId, onClose, onSaved }: { meta: Meta; open: boolean; customerId?: string; onClose: () => void; onSaved: () => void }) {
  const tr = useTr()
  const entity = meta.entity('crmCustomerAction')
  const label = (name: string) => entity.byName.get(name)?.label ?? name
  const [form] = Form.useForm<Record<string, unknown>>()
  const [saving, setSaving] = useState(false)
  const [customers, setCustomers] = useState<CustomerRow[]>([])
  const { message } = useFeedback()
  useEffect(() => {
    if (!open) return
    form.resetFields()
    // 跟进时间 left empty means now, by the server's clock.
    form.setFieldsValue({ customerId, actionType: 1 })
    if (!customerId) call(crmCustomers.mine, { scope: 1, pageSize: 200 }).then((p) => setCustomers(p.datas)).catch(() => setCustomers([]))
  }, [open, customerId, form])
  const submit = async () => {
    const values = await form.validateFields()
    const time = (v: unknown) => (v ? (v as Dayjs).format(FORMAT) : undefined)
    setSaving(true)
    try {
      await call(crmActions.create, { ...values, customerId: customerId ?? values.customerId, actionTime: time(values.actionTime), nextTime: time(values.nextTime) })
      message.success(tr('跟进记录已保存'))
      onSaved()
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setSaving(false)
    }
  }
  return (
    <GuardedModal title={tr('写跟进')} open={open} onCancel={onClose} onOk={submit} confirmLoading={saving} okText={tr('保存')} cancelText={tr('取消')} destroyOnHidden width={560}>
      <Form form={form} name="crmAction" layout="vertical">
        {!customerId && (
          <Form.Item name="customerId" label={label('customerId')} rules={[{ required: true, message: tr('请选择客户') }]}>
            <Select showSearch optionFilterProp="label" options={customers.map((c) => ({ value: c.id, label: `${c.name}（${c.code}）` }))} placeholder={tr('请选择客户')} />
          </Form.Item>
        )}
        <Form.Item name="actionType" label={label('actionType')} rules={[{ required: true, message: tr('请选择跟进方式') }]}>
          <Select options={enumOptions('CRM_ACTION_TYPE', meta.enums)} />
        </Form.Item>
        <Form.Item name="actionTime" label={label('actionTime')}>
          <DateInput showTime format={FORMAT} style={{ width: '100%' }} placeholder={tr('不填为当前时间')} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
        </Form.Item>
        <Form.Item name="content" label={label('content')} rules={[{ required: true, message: tr('请输入跟进内容') }, { max: 2000, message: tr('跟进内容最多2000个字符') }]}>
          <Input.TextArea rows={4} placeholder={tr('沟通了什么、客户的反馈、下一步')} />
        </Form.Item>
        <Form.Item name="nextTime" label={label('nextTime')}>
          <DateInput showTime format={FORMAT} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="nextContent" label={label('nextContent')} rules={[{ max: 500, message: tr('下次跟进内容最多500个字符') }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}
