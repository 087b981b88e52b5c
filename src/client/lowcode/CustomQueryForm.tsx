import SearchButtons from '../components/SearchButtons.js'
import { useId, useMemo } from 'react'
import { Button, Col, Form, Input, Row, Select, TimePicker } from 'antd'
import DateInput from '../components/DateInput.js'
import { DownloadOutlined } from '@ant-design/icons'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { GEN_DATA_TYPE as DT, GEN_VIEW_TYPE as VT } from '../../shared/generated/enum-codes.js'
import { ALL, DATE_FORMAT, DATETIME_FORMAT, initialQueryValues, isBooleanQuery, isMultiQuery, queryKey } from './list-conditions.js'
import type { ListQueryParamConfig } from '../../shared/contracts/lowcode-wire.js'
import CustomSelectorInput from './CustomSelectorInput.js'
import DataDicSelect from '../components/DictionarySelect.js'
import { useTr } from '../i18n/use-tr.js'

export interface CustomQueryFormProps {
  params: readonly ListQueryParamConfig[]
  enums: EnumCatalog
  labelWidth?: number
  onSearch: (values: Record<string, unknown>) => void
  /** Shown when the list allows export. */
  onExport?: (values: Record<string, unknown>) => void
}

/** The search form of a custom list: one input per query param (by view type), 查询, 重置 and 导出. */
export default function CustomQueryForm({ params, enums, labelWidth = 80, onSearch, onExport }: CustomQueryFormProps) {
  const tr = useTr()
  const [form] = Form.useForm<Record<string, unknown>>()
  const name = `lcq${useId().replace(/[^a-zA-Z0-9]/g, '')}`
  const initialValues = useMemo(() => initialQueryValues(params), [params])
  const values = () => form.getFieldsValue(true) as Record<string, unknown>
  const visible = params.map((p, i) => ({ p, i })).filter(({ p }) => p.frontShow !== false)
  return (
    <Form form={form} name={name} initialValues={initialValues} onFinish={() => onSearch(values())} labelCol={{ flex: `${labelWidth}px` }} labelWrap>
      <Row gutter={16}>
        {visible.map(({ p, i }) => (
          <Col key={i} xs={24} sm={12} md={8} lg={Math.min(24, Math.max(4, p.formWidth || (p.viewType === VT.DATE_RANGE ? 8 : 6)))}>
            <Form.Item label={p.name} name={queryKey(i)} style={{ marginBottom: 12 }}>
              <QueryInput param={p} enums={enums} />
            </Form.Item>
          </Col>
        ))}
        <Col flex="auto">
          <SearchButtons
            onReset={
              visible.length > 0
                ? () => {
                    form.resetFields()
                    onSearch(values())
                  }
                : undefined
            }
          >
            {onExport && (
              <Button icon={<DownloadOutlined aria-hidden />} onClick={() => onExport(values())}>
                {tr('导出')}
              </Button>
            )}
          </SearchButtons>
        </Col>
      </Row>
    </Form>
  )
}

interface QueryInputProps {
  param: ListQueryParamConfig
  enums: EnumCatalog
  value?: unknown
  onChange?: (value: unknown) => void
  id?: string
}

function QueryInput({ param: p, enums, value, onChange, id }: QueryInputProps) {
  const tr = useTr()
  const multiple = isMultiQuery(p)
  const common = { id, value, onChange, 'aria-label': p.name }
  const choose = tr(`请选择${p.name}`)
  if (isBooleanQuery(p)) {
    const items = enums.has('AVAILABLE') ? enums.items('AVAILABLE') : []
    const tagOf = (code: boolean) => (p.hasAvailableTag ? items.find((i) => i.code === code) : undefined)
    const label = (code: boolean) => {
      const tag = tagOf(code)
      return tag ? enums.text(tag) : code ? tr('是') : tr('否')
    }
    return (
      <Select
        {...common}
        value={value ?? ALL}
        options={[
          { label: tr('全部'), value: ALL },
          { label: label(true), value: 'true' },
          { label: label(false), value: 'false' },
        ]}
      />
    )
  }
  if (p.fixEnum && p.frontType && enums.has(p.frontType))
    return (
      <Select
        {...common}
        placeholder={choose}
        allowClear
        mode={multiple ? 'multiple' : undefined}
        options={enums.items(p.frontType).map((i) => ({ label: enums.text(i), value: i.code as string | number }))}
      />
    )
  const dateTime = p.dataType === DT.LOCAL_DATE_TIME
  switch (p.viewType) {
    case VT.DATE_RANGE:
      return <DateInput.RangePicker {...(common as object)} style={{ width: '100%' }} format={DATE_FORMAT} placeholder={[tr('开始日期'), tr('结束日期')]} />
    case VT.DATE:
      return <DateInput {...(common as object)} style={{ width: '100%' }} format={DATE_FORMAT} placeholder={choose} />
    case VT.DATETIME:
      return <DateInput {...(common as object)} style={{ width: '100%' }} showTime={dateTime} format={dateTime ? DATETIME_FORMAT : DATE_FORMAT} placeholder={choose} />
    case VT.TIME:
      return <TimePicker {...(common as object)} style={{ width: '100%' }} placeholder={choose} />
    case VT.DATA_DIC:
      return p.dataDicCode ? <DataDicSelect dicCode={p.dataDicCode} multiple={multiple} placeholder={choose} {...common} /> : <Input {...(common as object)} allowClear />
    case VT.CUSTOM_SELECTOR:
      return p.customSelectorId ? (
        <CustomSelectorInput selectorId={p.customSelectorId} multiple={multiple} placeholder={choose} {...common} />
      ) : (
        <Input {...(common as object)} allowClear />
      )
    case VT.SELECT:
      return <Select {...common} mode="tags" allowClear placeholder={choose} open={false} />
    default:
      return multiple ? (
        <Select {...common} mode="tags" allowClear placeholder={tr(`请输入${p.name}，回车确认`)} open={false} />
      ) : (
        <Input {...(common as object)} allowClear placeholder={tr(`请输入${p.name}`)} />
      )
  }
}
