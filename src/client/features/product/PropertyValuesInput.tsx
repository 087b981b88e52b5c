import { useEffect, useRef, type ReactNode } from 'react'
import { Alert, Input, InputNumber, Select, Spin, Tag, TimePicker } from 'antd'
import DateInput from '../../components/DateInput.js'
import dayjs, { type Dayjs } from 'dayjs'
import { observer, useField, useForm } from '@formily/react'
import type { Field } from '@formily/core'
import { useCall } from '../../app/use-call.js'
import { product, type PropertyDef } from '../../../shared/contracts/product.js'
import type { FormControlProps } from '../../components/form-controls.js'
import { COLUMN_DATA_TYPE, COLUMN_TYPE } from '../../../shared/generated/enum-codes.js'
import { controlText, displayText, entriesOf, propertyWire, type PropertyEntry, type PropertyText } from './property-values.js'
import { FILL, Hint, truthy, type Values } from './shared.js'
import { useTr } from '../../i18n/use-tr.js'
import { RequiredMark } from '../../components/RequiredMark.js'

const DATE = 'YYYY-MM-DD'
const TIME = 'HH:mm:ss'
const DATE_TIME = 'YYYY-MM-DD HH:mm:ss'

function toDayjs(text: PropertyText | undefined, format: string): Dayjs | null {
  if (typeof text !== 'string' || !text) return null
  const d = format === TIME ? dayjs(`1970-01-01 ${text}`) : dayjs(text)
  return d.isValid() ? d : null
}

function PropertyControl({
  def,
  text,
  disabled,
  invalid,
  onChange,
}: {
  def: PropertyDef
  text: PropertyText | undefined
  disabled: boolean
  invalid: boolean
  onChange: (text: PropertyText | undefined) => void
}) {
  const tr = useTr()
  const common = { 'aria-label': def.name, disabled, status: invalid ? ('error' as const) : undefined, style: { width: '100%' } }
  const options = (def.items ?? []).map((i) => ({ value: i.id, label: i.name }))
  const value = controlText(def, text)
  switch (def.columnType) {
    case COLUMN_TYPE.MULTIPLE:
      return (
        <Select
          {...common}
          mode="multiple"
          allowClear
          placeholder={tr(`请选择${def.name}`)}
          options={options}
          value={(value as string[] | undefined) ?? []}
          onChange={(ids: string[]) => onChange(ids.length ? ids : undefined)}
        />
      )
    case COLUMN_TYPE.SINGLE:
      return (
        <Select
          {...common}
          allowClear
          placeholder={tr(`请选择${def.name}`)}
          options={options}
          value={(value as string | undefined) ?? null}
          onChange={(id: string | null | undefined) => onChange(id ?? undefined)}
        />
      )
  }
  const str = typeof value === 'string' ? value : undefined
  const placeholder = tr(`请输入${def.name}`)
  switch (def.columnDataType) {
    case COLUMN_DATA_TYPE.INT:
    case COLUMN_DATA_TYPE.FLOAT:
      return (
        <InputNumber<string>
          {...common}
          stringMode
          precision={def.columnDataType === COLUMN_DATA_TYPE.INT ? 0 : undefined}
          placeholder={placeholder}
          value={str ?? null}
          onChange={(v) => onChange(v === null || v === undefined || v === '' ? undefined : String(v))}
        />
      )
    case COLUMN_DATA_TYPE.DATE:
    case COLUMN_DATA_TYPE.DATE_TIME: {
      const format = def.columnDataType === COLUMN_DATA_TYPE.DATE ? DATE : DATE_TIME
      return (
        <DateInput
          {...common}
          showTime={format === DATE_TIME}
          format={format}
          placeholder={tr(`请选择${def.name}`)}
          value={toDayjs(str, format)}
          onChange={(d) => onChange(d ? d.format(format) : undefined)}
        />
      )
    }
    case COLUMN_DATA_TYPE.TIME:
      return (
        <TimePicker
          {...common}
          format={TIME}
          placeholder={tr(`请选择${def.name}`)}
          value={toDayjs(str, TIME)}
          onChange={(d) => onChange(d ? d.format(TIME) : undefined)}
        />
      )
    default:
      return <Input {...common} placeholder={placeholder} value={str ?? ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} />
  }
}

const grid = { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '8px 16px', width: '100%', minWidth: 0 } as const

function Cell({ label, required, children }: { label: string; required?: boolean; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <div style={{ marginBottom: 2, color: 'rgba(0,0,0,0.75)' }}>
        {required && <RequiredMark />}
        {label}
      </div>
      {children}
    </div>
  )
}

/**
 * Property values (`properties` of a product or SPU): the properties of the form's 类目, loaded again
 * whenever it changes, each as a select (单选), a multiple select (多选) or an input of its data type
 * (手动录入), required ones marked. Values of properties the new category does not have are dropped.
 */
export default function PropertyValuesInput(props: FormControlProps) {
  return props.readPretty ? <PropertyView value={props.value} /> : <PropertyEditor {...props} />
}

const PropertyEditor = observer(function PropertyEditor({ value, onChange, disabled, readOnly, record }: FormControlProps) {
  const tr = useTr()
  const form = useForm<Values>()
  const field = useField<Field>()
  const categoryId = typeof form.values.categoryId === 'string' ? form.values.categoryId : ''
  const editable = !disabled && !readOnly
  const { data: defs, isLoading, error } = useCall(Boolean(categoryId) && product.categoryProperties, { categoryId }, {
    swr: { revalidateOnFocus: false, shouldRetryOnError: false },
  })
  const entries = entriesOf(value)
  const loaded = defs && categoryId ? defs : undefined

  // A category other than the record's: what it does not offer cannot be saved with it.
  const startCategory = useRef(typeof record?.categoryId === 'string' ? record.categoryId : '')
  useEffect(() => {
    if (!loaded || categoryId === startCategory.current) return
    const offered = new Set(loaded.map((d) => d.id))
    if ([...entries.keys()].some((id) => !offered.has(id)))
      onChange?.(propertyWire(loaded, new Map([...entries].filter(([id]) => offered.has(id)))))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, categoryId])

  if (!categoryId) return <Hint>{tr('请先选择类目')}</Hint>
  if (isLoading && !loaded) return <Spin size="small" />
  if (error || !loaded) return <Alert type="error" showIcon message={tr('商品属性加载失败')} />

  // The server names a required property in its message (请选择… / 请输入…): mark that one.
  const serverMessage = field.selfErrors.join(' ')
  const set = (def: PropertyDef, text: PropertyText | undefined) => {
    const next = new Map(entries)
    if (text === undefined) next.delete(def.id)
    else next.set(def.id, { id: def.id, text })
    // What the server said about the values (put on this field) is answered by editing them.
    field.setFeedback({ type: 'error', code: 'EffectError', messages: [] })
    onChange?.(propertyWire(loaded, next))
  }
  const offered = new Set(loaded.map((d) => d.id))
  const others = [...entries.values()].filter((e) => !offered.has(e.id))

  if (!loaded.length && !others.length) return <Hint>{tr('该类目没有商品属性')}</Hint>
  return (
    <div className="product-properties" style={FILL}>
      <div style={grid}>
        {loaded.map((def) => {
          const text = entries.get(def.id)?.text
          const required = truthy(def.isRequired)
          return (
            <Cell key={def.id} label={def.name} required={required}>
              <PropertyControl
                def={def}
                text={text}
                disabled={!editable}
                invalid={required && text === undefined && serverMessage.includes(def.name)}
                onChange={(t) => set(def, t)}
              />
            </Cell>
          )
        })}
      </div>
      {others.length > 0 && (
        <div style={{ marginTop: 8 }}>
          <Hint>{tr('其他属性（该类目不再提供，值保持不变）：')}</Hint>
          {others.map((e) => (
            <Tag key={e.id} style={{ marginLeft: 4 }}>
              {e.name ?? e.id}：{displayText(undefined, e)}
            </Tag>
          ))}
        </div>
      )}
    </div>
  )
})

/** Detail forms: name and value of each property the record holds. */
function PropertyView({ value }: { value: unknown }) {
  const entries = [...entriesOf(value).values()]
  if (!entries.length) return <span>-</span>
  return (
    <div style={grid}>
      {entries.map((e: PropertyEntry) => (
        <div key={e.id} style={{ minWidth: 0 }}>
          <span style={{ color: 'rgba(0,0,0,0.65)' }}>{e.name ?? e.id}：</span>
          <span>{displayText(undefined, e)}</span>
        </div>
      ))}
    </div>
  )
}
