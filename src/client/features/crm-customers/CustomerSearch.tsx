import { Button, Col, Form, Row, Space } from 'antd'
import type { Meta } from '../../api/meta.js'
import { FieldInput } from './CustomerForm.js'
import { SEARCH_FIELDS } from './customer-columns.js'
import { useTr } from '../../i18n/use-tr.js'

/** 查询 / 重置 over the customer conditions; answers only the conditions that carry a value. */
export default function CustomerSearch({ meta, onSearch }: { meta: Meta; onSearch: (values: Record<string, unknown>) => void }) {
  const tr = useTr()
  const [form] = Form.useForm<Record<string, unknown>>()
  const entity = meta.entity('customer')
  const search = () => onSearch(Object.fromEntries(Object.entries(form.getFieldsValue()).filter(([, v]) => v !== undefined && v !== null && v !== '')))
  return (
    <Form form={form} name="crmCustomerSearch" onFinish={search}>
      <Row gutter={16}>
        {SEARCH_FIELDS.map((name) => {
          const field = entity.byName.get(name)
          if (!field) return null
          return (
            <Col key={name} xs={24} sm={12} md={8} lg={6}>
              <Form.Item name={name} label={field.label}>
                <FieldInput field={{ ...field, control: undefined }} meta={meta} />
              </Form.Item>
            </Col>
          )
        })}
        <Col>
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
        </Col>
      </Row>
    </Form>
  )
}
