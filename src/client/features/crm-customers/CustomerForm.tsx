import { useEffect, useState } from 'react'
import { Button, Col, Form, Input, Row, Select, Space, Spin } from 'antd'
import type { Rule } from 'antd/es/form'
import { useNavigate } from 'react-router-dom'
import type { Meta } from '../../api/meta.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { enumOptions } from '../../runtime/query-params.js'
import { useFeedback } from '../../components/feedback.js'
import { customerPaths } from './customer-api.js'
import { call } from '../../api/call.js'
import { crmCustomers } from '../../../shared/contracts/crm-customers.js'
import { tr, useTr } from '../../i18n/use-tr.js'
import { nextCode } from '../../runtime/next-code.js'
import DictionarySelect from '../../components/DictionarySelect.js'

/** What a salesperson fills in for a customer (fields of schemas/entities/customer.json). */
export const CUSTOMER_FORM_FIELDS = ['code', 'name', 'level', 'dealStatus', 'industry', 'source', 'contact', 'telephone', 'email', 'settleType', 'address', 'description'] as const
const WIDE = new Set(['address', 'description'])

/** Validation rules from the field's schema: the server checks the same and has the last word. */
export function fieldRules(field: FieldModel): Rule[] {
  const rules: Rule[] = []
  if (field.requiredMessage) rules.push({ required: true, message: field.requiredMessage })
  if (field.maxLength) rules.push({ max: field.maxLength, message: tr(`${field.label}最多${field.maxLength}个字符`) })
  return rules
}

/** The input of one field; Form.Item's id, value and onChange pass through to the antd control. */
export function FieldInput({ field, meta, ...control }: { field: FieldModel; meta: Meta; id?: string; value?: unknown; onChange?: (v: unknown) => void }) {
  const tr = useTr()
  const props = control as Record<string, unknown>
  if (field.enum) return <Select {...props} allowClear={!field.required} options={enumOptions(field.enum, meta.enums)} placeholder={tr(`请选择${field.label}`)} />
  if (field.dictionary) return <DictionarySelect {...props} dicCode={field.dictionary} stores="name" allowClear={!field.required} placeholder={tr(`请选择${field.label}`)} />
  if (field.control === 'textarea') return <Input.TextArea {...props} rows={3} placeholder={tr(`请输入${field.label}`)} />
  return <Input {...props} placeholder={tr(`请输入${field.label}`)} />
}

/**
 * 新增客户 / 修改客户 (and their H5 variants: `compact` lays the fields in one column for a 375 px
 * phone). The creator becomes the customer's owner (负责人).
 */
export default function CustomerForm({ meta, id, compact }: { meta: Meta; id?: string; compact?: boolean }) {
  const tr = useTr()
  const entity = meta.entity('customer')
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const [form] = Form.useForm<Record<string, any>>()
  const [loading, setLoading] = useState(Boolean(id))
  const [saving, setSaving] = useState(false)
  const navigate = useNavigate()
  const { message } = useFeedback()
  useEffect(() => {
    if (!id) {
      form.setFieldsValue({ settleType: entity.byName.get('settleType')?.default, dealStatus: 0 })
      void nextCode('customer', 'code').then((code) => code && !form.getFieldValue('code') && form.setFieldsValue({ code }))
      return
    }
    call(crmCustomers.get, { id })
      .then((row) => form.setFieldsValue(row))
      .finally(() => setLoading(false))
  }, [id, form, entity])
  const submit = async () => {
    const values = await form.validateFields()
    setSaving(true)
    try {
      const saved = id ? (await call(crmCustomers.modify, { ...values, id }), id) : await call(crmCustomers.create, { available: true, ...values })
      message.success(id ? tr('修改成功') : tr('新增成功'))
      navigate(compact ? customerPaths.h5Detail(saved) : customerPaths.detail(saved))
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setSaving(false)
    }
  }
  if (loading) return <Spin style={{ display: 'block', padding: 48 }} />
  return (
    <Form form={form} name={id ? `crmCustomer_${id}` : "crmCustomerAdd"} layout="vertical" style={{ maxWidth: compact ? 375 : 960, padding: compact ? 12 : 24 }}>
      <Row gutter={16}>
        {CUSTOMER_FORM_FIELDS.map((name) => {
          const field = entity.byName.get(name)
          if (!field) return null
          return (
            <Col key={name} span={compact || WIDE.has(name) ? 24 : 12}>
              <Form.Item name={name} label={field.label} rules={fieldRules(field)}>
                <FieldInput field={field} meta={meta} />
              </Form.Item>
            </Col>
          )
        })}
      </Row>
      <Space style={{ width: compact ? '100%' : undefined }}>
        <Button onClick={() => navigate(-1)}>{tr('取消')}</Button>
        <Button type="primary" loading={saving} onClick={submit} block={compact}>
          {tr('保存')}
        </Button>
      </Space>
    </Form>
  )
}
