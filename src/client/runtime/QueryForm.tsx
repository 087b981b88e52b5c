import SearchButtons from '../components/SearchButtons.js'
import { useId, useMemo } from 'react'
import { Checkbox, Col, Form, Input, Row, Select } from 'antd'
import DateInput from '../components/DateInput.js'
import { initialSearchValues, type SearchItem } from './query-params.js'
import { searchPickerInput } from './picker/picker-slots.js'
import { tr } from '../i18n/use-tr.js'

export interface QueryFormProps {
  items: readonly SearchItem[]
  /** Raw form values; the caller turns them into wire params. */
  onSearch: (values: Record<string, unknown>) => void
  /** Show 重置 (restores the initial values, then searches). */
  showReset?: boolean
  /** Pressing Enter in an input searches. */
  enterToSearch?: boolean
  /** Columns of one input (of 24). */
  span?: number
}

/** The search form over a list or a picker: one input per declared query param, then 查询 and 重置. */
export default function QueryForm({ items, onSearch, showReset = true, enterToSearch = true, span = 6 }: QueryFormProps) {
  const [form] = Form.useForm<Record<string, unknown>>()
  // A page may hold a list and a picker form at once; unique names keep the label-to-input ids unique.
  const name = `query${useId().replace(/[^a-zA-Z0-9]/g, '')}`
  const initialValues = useMemo(() => initialSearchValues(items), [items])
  const search = () => onSearch(form.getFieldsValue(true))
  const reset = () => {
    form.resetFields()
    onSearch(initialSearchValues(items))
  }
  if (!items.length) return null
  return (
    <Form
      form={form}
      name={name}
      initialValues={initialValues}
      onFinish={enterToSearch ? search : undefined}
      labelCol={{ flex: '90px' }}
      labelWrap
      className="entity-query-form"
    >
      <Row gutter={16}>
        {items.map((item) => (
          // A date range needs two dates side by side: a wider column.
          <Col key={item.key} xs={24} sm={12} md={8} lg={item.control === 'dateRange' ? Math.min(24, span + 2) : span}>
            {item.control === 'check' ? (
              <Form.Item name={item.key} valuePropName="checked" style={{ marginBottom: 12 }}>
                <Checkbox>{item.label}</Checkbox>
              </Form.Item>
            ) : (
              <Form.Item label={item.label} name={item.key} style={{ marginBottom: 12 }}>
                {control(item)}
              </Form.Item>
            )}
          </Col>
        ))}
        <Col flex="auto">
          <SearchButtons onSearch={enterToSearch ? undefined : search} onReset={showReset ? reset : undefined} />
        </Col>
      </Row>
    </Form>
  )
}

// The input is named by the label without the colon the form draws after it.
function control(item: SearchItem) {
  const placeholder = tr(item.control === 'text' ? `请输入${item.label}` : `请选择${item.label}`)
  switch (item.control) {
    case 'select':
      return <Select options={item.options} allowClear={item.field.type !== 'boolean'} placeholder={placeholder} aria-label={item.label} />
    case 'dateRange':
      return <DateInput.RangePicker style={{ width: '100%' }} picker={item.picker} placeholder={[tr('开始日期'), tr('结束日期')]} />
    case 'date':
      return <DateInput style={{ width: '100%' }} placeholder={placeholder} aria-label={item.label} />
    case 'picker': {
      const PickerInput = searchPickerInput()
      return PickerInput ? (
        <PickerInput kind={item.pickerKind!} multiple={item.multiple} placeholder={placeholder} aria-label={item.label} />
      ) : (
        <Input disabled placeholder={placeholder} aria-label={item.label} />
      )
    }
    default:
      return <Input allowClear placeholder={placeholder} aria-label={item.label} />
  }
}
