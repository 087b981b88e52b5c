import { useEffect, useMemo, useState, type ReactNode } from 'react'
import dayjs from 'dayjs'
import { Alert, Button, Card, Col, DatePicker, Empty, Form, Input, InputNumber, Modal, Row, Select, Space, Switch, Typography } from 'antd'
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { DndContext, PointerSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core'
import { useCall } from '../app/use-call.js'
import PickerInput from '../runtime/picker/PickerInput.js'
import { FeedbackProvider, useFeedback } from '../components/feedback.js'
import { entityWritten } from '../api/entity-writes.js'
import { CustomFormBody } from './CustomFormHost.js'
import { DATE_FORMATS, fieldProblems, fromFormSchema, GRID_COLUMNS, moveField, newField, PALETTE, paletteOf, retitle, toFormSchema, type DesignerField } from './form-designer-model.js'
import { useTr } from '../i18n/use-tr.js'
import { call } from '../api/call.js'
import { type CustomFormRecord, customForm, lowcodeChoices } from '../../shared/contracts/lowcode.js'
import { RequiredMark } from '../components/RequiredMark.js'

/**
 * 表单生成器: builds a custom form's `formConfig` visually. Field types from the palette are dragged
 * (or clicked) onto a 24-column grid, each field's label, name, width, rules, options and
 * dictionary / custom-selector binding are set in the property panel, the live preview renders the
 * very schema that is saved, and 保存 writes it into the chosen custom form.
 */
export default function FormDesignerPage() {
  return (
    <FeedbackProvider>
      <FormDesigner />
    </FeedbackProvider>
  )
}

const PALETTE_PREFIX = 'palette:'
const FIELD_PREFIX = 'field:'
const CANVAS = 'canvas'

function FormDesigner() {
  const tr = useTr()
  const { message } = useFeedback()
  const [formId, setFormId] = useState<string>()
  const [record, setRecord] = useState<CustomFormRecord>()
  const [fields, setFields] = useState<DesignerField[]>([])
  const [selected, setSelected] = useState<string>()
  const [saving, setSaving] = useState(false)
  const [creating, setCreating] = useState(false)
  const forms = useCall(lowcodeChoices.forms, { pageIndex: 1, pageSize: 500 }, { swr: { revalidateOnFocus: false } })
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }))

  useEffect(() => {
    if (!formId) return
    let live = true
    void call(customForm.get, { id: formId }).then((r) => {
      if (!live) return
      setRecord(r)
      const loaded = fromFormSchema(r.formConfig)
      setFields(loaded)
      setSelected(loaded[0]?.name)
    })
    return () => {
      live = false
    }
  }, [formId])

  const schema = useMemo(() => toFormSchema(fields), [fields])
  const problems = useMemo(() => fieldProblems(fields), [fields])
  const current = fields.find((f) => f.name === selected)

  const add = (component: string, at = fields.length) => {
    const field = newField(component, fields.map((f) => f.name))
    setFields(moveField([...fields, field], fields.length, at))
    setSelected(field.name)
  }
  const update = (name: string, patch: Partial<DesignerField>) => {
    if (patch.title !== undefined) {
      // the name follows the title while it is the title's proposal: select it under its new name
      const next = retitle(fields, name, patch.title)
      setFields(next)
      setSelected(next[fields.findIndex((f) => f.name === name)]?.name)
      return
    }
    setFields((list) => list.map((f) => (f.name === name ? { ...f, ...patch } : f)))
    if (patch.name !== undefined) setSelected(patch.name)
  }
  const remove = (name: string) => {
    setFields((list) => list.filter((f) => f.name !== name))
    if (selected === name) setSelected(undefined)
  }

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return
    const id = String(active.id)
    const target = String(over.id)
    const at = target.startsWith(FIELD_PREFIX) ? fields.findIndex((f) => f.name === target.slice(FIELD_PREFIX.length)) : fields.length
    if (id.startsWith(PALETTE_PREFIX)) add(id.slice(PALETTE_PREFIX.length), at < 0 ? fields.length : at)
    else if (id.startsWith(FIELD_PREFIX)) {
      const from = fields.findIndex((f) => f.name === id.slice(FIELD_PREFIX.length))
      if (from >= 0 && at >= 0 && from !== at) setFields(moveField(fields, from, at))
    }
  }

  const save = async () => {
    if (!record) return
    if (problems.length) return void message.error(problems[0])
    setSaving(true)
    try {
      await call(customForm.modify, { ...record, formConfig: JSON.stringify(schema, null, 2) })
      entityWritten('genCustomForm')
      void message.success(tr('保存成功'))
    } catch {
      // the request layer shows the server's message
    } finally {
      setSaving(false)
    }
  }

  return (
    <div className="form-designer" role="region" aria-label={tr('表单生成器')}>
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          <span>{tr('自定义表单')}</span>
          <Select
            aria-label={tr('选择自定义表单')}
            style={{ width: 260 }}
            showSearch
            optionFilterProp="label"
            placeholder={tr('请选择要设计的自定义表单')}
            value={formId}
            options={(forms.data?.datas ?? []).map((f) => ({ value: f.id, label: f.name }))}
            onChange={setFormId}
          />
          <Button icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {tr('新建表单')}
          </Button>
          <Button type="primary" disabled={!record} loading={saving} onClick={() => void save()}>
            {tr('保存')}
          </Button>
        </Space>
      </Card>
      {!record ? (
        <Empty description={tr('请选择或新建一个自定义表单')} />
      ) : (
        <DndContext sensors={sensors} onDragEnd={onDragEnd}>
          <Row gutter={12}>
            <Col span={4}>
              <Card size="small" title={tr('组件')} role="list" aria-label={tr('组件')}>
                {PALETTE.map((p) => (
                  <PaletteItem key={p.component} component={p.component} label={tr(p.label)} onAdd={() => add(p.component)} />
                ))}
              </Card>
            </Col>
            <Col span={12}>
              <Canvas empty={!fields.length}>
                {fields.map((f) => (
                  <FieldCell key={f.name} field={f} selected={f.name === selected} onSelect={() => setSelected(f.name)} onRemove={() => remove(f.name)} />
                ))}
              </Canvas>
              {problems.length > 0 && <Alert style={{ marginTop: 8 }} type="warning" showIcon message={problems[0]} />}
            </Col>
            <Col span={8}>
              <Card size="small" title={tr('属性')} role="region" aria-label={tr('字段属性')}>
                {current ? <FieldProperties key={fields.indexOf(current)} field={current} onChange={(patch) => update(current.name, patch)} /> : <Typography.Text type="secondary">{tr('请选择一个字段')}</Typography.Text>}
              </Card>
            </Col>
          </Row>
          <Card size="small" title={tr('预览')} style={{ marginTop: 12 }}>
            <div role="region" aria-label={tr('表单预览')}>
              {fields.length ? (
                <CustomFormBody key={JSON.stringify(schema)} formId="preview" preview config={{ formConfig: schema, isDialog: false, requireQuery: false }} />
              ) : (
                <Typography.Text type="secondary">{tr('从左侧拖入组件')}</Typography.Text>
              )}
            </div>
          </Card>
        </DndContext>
      )}
      <NewFormDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false)
          void forms.mutate().then(() => setFormId(id))
        }}
      />
    </div>
  )
}

function PaletteItem({ component, label, onAdd }: { component: string; label: string; onAdd: () => void }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: `${PALETTE_PREFIX}${component}` })
  return (
    <div
      ref={setNodeRef}
      {...listeners}
      {...attributes}
      role="listitem"
      aria-label={label}
      className="form-designer-palette-item"
      onClick={onAdd}
      style={{
        padding: '4px 8px',
        marginBottom: 6,
        border: '1px dashed #d9d9d9',
        borderRadius: 4,
        cursor: 'grab',
        background: '#fff',
        opacity: isDragging ? 0.6 : 1,
        transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined,
        position: 'relative',
        zIndex: isDragging ? 10 : undefined,
      }}
    >
      {label}
    </div>
  )
}

function Canvas({ empty, children }: { empty: boolean; children: ReactNode }) {
  const tr = useTr()
  const { setNodeRef, isOver } = useDroppable({ id: CANVAS })
  return (
    <div
      ref={setNodeRef}
      role="list"
      aria-label={tr('表单画布')}
      style={{
        display: 'grid',
        gridTemplateColumns: `repeat(${GRID_COLUMNS}, minmax(0, 1fr))`,
        gap: 8,
        minHeight: 240,
        padding: 8,
        border: `2px dashed ${isOver ? '#1677ff' : '#d9d9d9'}`,
        borderRadius: 6,
        alignContent: 'start',
      }}
    >
      {empty ? <Typography.Text type="secondary" style={{ gridColumn: `span ${GRID_COLUMNS}` }}>{tr('把左侧的组件拖到这里（或点击组件添加）')}</Typography.Text> : children}
    </div>
  )
}

function FieldCell({ field, selected, onSelect, onRemove }: { field: DesignerField; selected: boolean; onSelect: () => void; onRemove: () => void }) {
  const tr = useTr()
  const drag = useDraggable({ id: `${FIELD_PREFIX}${field.name}` })
  const drop = useDroppable({ id: `${FIELD_PREFIX}${field.name}` })
  const t = drag.transform
  return (
    <div
      ref={(node) => {
        drag.setNodeRef(node)
        drop.setNodeRef(node)
      }}
      {...drag.listeners}
      {...drag.attributes}
      role="listitem"
      aria-label={`${field.title}（${field.name}）`}
      aria-selected={selected}
      onClick={onSelect}
      style={{
        gridColumn: `span ${field.span}`,
        padding: '6px 8px',
        border: `1px solid ${selected ? '#1677ff' : drop.isOver ? '#69b1ff' : '#d9d9d9'}`,
        borderRadius: 4,
        background: selected ? '#e6f4ff' : '#fafafa',
        cursor: 'move',
        transform: t ? `translate(${t.x}px, ${t.y}px)` : undefined,
        position: 'relative',
        zIndex: drag.isDragging ? 10 : undefined,
      }}
    >
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <span>
          {field.required && <RequiredMark />}
          {field.title}
          <Typography.Text type="secondary" style={{ marginLeft: 6, fontSize: 12 }}>
            {tr(paletteOf(field.component)?.label ?? field.component)} · {field.span}/{GRID_COLUMNS}
          </Typography.Text>
        </span>
        <Button
          type="text"
          size="small"
          danger
          aria-label={tr(`删除${field.title}`)}
          icon={<DeleteOutlined />}
          onPointerDown={(e) => e.stopPropagation()}
          onClick={(e) => {
            e.stopPropagation()
            onRemove()
          }}
        />
      </Space>
    </div>
  )
}

function FieldProperties({ field, onChange }: { field: DesignerField; onChange: (patch: Partial<DesignerField>) => void }) {
  const tr = useTr()
  const [name, setName] = useState(field.name)
  // a name that followed the title is shown as it changes
  useEffect(() => setName(field.name), [field.name])
  const entry = paletteOf(field.component)
  const dics = useCall(lowcodeChoices.dics, { pageIndex: 1, pageSize: 500 }, { swr: { revalidateOnFocus: false } })
  return (
    <Form layout="vertical" size="small">
      <Form.Item label={tr('标题')}>
        <Input aria-label={tr('标题')} value={field.title} onChange={(e) => onChange({ title: e.target.value })} />
      </Form.Item>
      <Form.Item label={tr('字段名')} extra={tr('提交的数据里这个值的名字')}>
        <Input aria-label={tr('字段名')} value={name} onChange={(e) => setName(e.target.value)} onBlur={() => name !== field.name && onChange({ name })} />
      </Form.Item>
      <Form.Item label={tr(`宽度（${GRID_COLUMNS}列栅格）`)}>
        <InputNumber aria-label={tr('宽度')} min={1} max={GRID_COLUMNS} value={field.span} onChange={(v) => onChange({ span: Number(v) || GRID_COLUMNS })} />
      </Form.Item>
      <Form.Item label={tr('占位提示')}>
        <Input aria-label={tr('占位提示')} value={field.placeholder} onChange={(e) => onChange({ placeholder: e.target.value })} />
      </Form.Item>
      <Form.Item label={tr('必填')}>
        <Switch aria-label={tr('必填')} checked={field.required} onChange={(required) => onChange({ required })} />
      </Form.Item>
      {entry?.rules === 'text' && (
        <>
          <Form.Item label={tr('校验正则')}>
            <Input aria-label={tr('校验正则')} placeholder={`${tr('例如')} ^1\\d{10}$`} value={field.pattern} onChange={(e) => onChange({ pattern: e.target.value })} />
          </Form.Item>
          <Form.Item label={tr('校验提示')}>
            <Input aria-label={tr('校验提示')} value={field.patternMessage} onChange={(e) => onChange({ patternMessage: e.target.value })} />
          </Form.Item>
          <Space>
            <Form.Item label={tr('最少字符')}>
              <InputNumber aria-label={tr('最少字符')} min={0} value={field.minLength} onChange={(v) => onChange({ minLength: v === null ? null : Number(v) })} />
            </Form.Item>
            <Form.Item label={tr('最多字符')}>
              <InputNumber aria-label={tr('最多字符')} min={1} value={field.maxLength} onChange={(v) => onChange({ maxLength: v === null ? null : Number(v) })} />
            </Form.Item>
          </Space>
        </>
      )}
      {entry?.rules === 'date' && <DateProperties field={field} onChange={onChange} />}
      {entry?.options && (
        <Form.Item label={tr('选项')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            {field.options.map((o, i) => (
              <Space key={i}>
                <Input aria-label={tr(`选项${i + 1}显示值`)} placeholder={tr('显示值')} value={o.label} onChange={(e) => onChange({ options: field.options.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)) })} />
                <Input aria-label={tr(`选项${i + 1}值`)} placeholder={tr('值')} value={o.value} onChange={(e) => onChange({ options: field.options.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })} />
                <Button type="text" danger aria-label={tr(`删除选项${i + 1}`)} icon={<DeleteOutlined />} onClick={() => onChange({ options: field.options.filter((_, j) => j !== i) })} />
              </Space>
            ))}
            <Button size="small" icon={<PlusOutlined />} onClick={() => onChange({ options: [...field.options, { label: tr(`选项${field.options.length + 1}`), value: String(field.options.length + 1) }] })}>
              {tr('添加选项')}
            </Button>
          </Space>
        </Form.Item>
      )}
      {field.component === 'DataDicSelect' && (
        <Form.Item label={tr('数据字典')}>
          <Select
            aria-label={tr('数据字典')}
            showSearch
            optionFilterProp="label"
            value={field.dicCode || undefined}
            options={(dics.data?.datas ?? []).map((d) => ({ value: d.code, label: `${d.name}（${d.code}）` }))}
            onChange={(dicCode: string) => onChange({ dicCode })}
          />
        </Form.Item>
      )}
      {field.component === 'CustomSelector' && (
        <Form.Item label={tr('自定义选择器')}>
          <PickerInput kind="gen/custom/selector" aria-label={tr('自定义选择器')} value={field.selectorId || undefined} onChange={(v) => onChange({ selectorId: typeof v === 'string' ? v : '' })} />
        </Form.Item>
      )}
    </Form>
  )
}

/** What a date field is set by: date-time or date, its format, today as default (a single date) and the days it allows. */
function DateProperties({ field, onChange }: { field: DesignerField; onChange: (patch: Partial<DesignerField>) => void }) {
  const tr = useTr()
  const formats = field.showTime ? DATE_FORMATS.dateTime : DATE_FORMATS.date
  const bound = (value: string, key: 'minDate' | 'maxDate', label: string) => (
    <Form.Item label={label}>
      <DatePicker aria-label={label} value={value ? dayjs(value) : null} onChange={(d) => onChange({ [key]: d ? d.format('YYYY-MM-DD') : '' })} />
    </Form.Item>
  )
  return (
    <>
      <Form.Item label={tr('包含时间')}>
        <Switch aria-label={tr('包含时间')} checked={field.showTime} onChange={(showTime) => onChange({ showTime, dateFormat: '' })} />
      </Form.Item>
      <Form.Item label={tr('日期格式')}>
        <Select
          aria-label={tr('日期格式')}
          value={field.dateFormat || formats[0]}
          options={formats.map((f) => ({ value: f, label: `${f} (${dayjs().format(f)})` }))}
          onChange={(dateFormat: string) => onChange({ dateFormat: dateFormat === formats[0] ? '' : dateFormat })}
        />
      </Form.Item>
      {field.component === 'DatePicker' && (
        <Form.Item label={tr('默认今天')}>
          <Switch aria-label={tr('默认今天')} checked={field.defaultToday} onChange={(defaultToday) => onChange({ defaultToday })} />
        </Form.Item>
      )}
      <Space>
        {bound(field.minDate, 'minDate', tr('最早日期'))}
        {bound(field.maxDate, 'maxDate', tr('最晚日期'))}
      </Space>
    </>
  )
}

function NewFormDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const tr = useTr()
  const [name, setName] = useState('')
  const [saving, setSaving] = useState(false)
  const create = async () => {
    setSaving(true)
    try {
      const id = await call(customForm.create, { name: name.trim(), formConfig: JSON.stringify(toFormSchema([])), isDialog: true, requireQuery: false, available: true })
      entityWritten('genCustomForm')
      setName('')
      onCreated(id)
    } catch {
      // the request layer shows the server's message
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal open={open} title={tr('新建自定义表单')} onCancel={onClose} onOk={() => void create()} okButtonProps={{ loading: saving, disabled: !name.trim() }} destroyOnClose>
      <Input aria-label={tr('表单名称')} placeholder={tr('请输入表单名称')} maxLength={20} value={name} onChange={(e) => setName(e.target.value)} />
    </Modal>
  )
}
