import { useRef } from 'react'
import { Alert, Button, Input, Space, Table } from 'antd'
import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined } from '@ant-design/icons'
import type { ColumnsType } from 'antd/es/table'
import type { FormControlProps } from '../../components/form-controls.js'
import { COLUMN_TYPE } from '../../../shared/generated/enum-codes.js'
import { useForm } from '@formily/react'
import { clearServerErrors, FILL, Hint, shown, useShownWhen } from './shared.js'
import { tr, useTr } from '../../i18n/use-tr.js'
import { serverMessageMatcher } from './server-message-match.js'

/** Server messages about the values, in any language (taken off the form once the values change). */
const isItemMessage = serverMessageMatcher(/^第\d+行属性值|^请添加属性值|^属性值【/)

/** One value of a choice property as the server's `syncItems` reads it: kept by id, created without, order = position. */
export interface ItemRow {
  id?: string
  code: string
  name: string
  description: string
  /** Client-only key for rows that have no id yet. */
  key: string
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v))

export function itemRowsOf(value: unknown, keyOf: (raw: Record<string, unknown>, i: number) => string): ItemRow[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((r, i) => ({
    ...(typeof r.id === 'string' && r.id ? { id: r.id } : {}),
    code: str(r.code),
    name: str(r.name),
    description: str(r.description),
    key: keyOf(r, i),
  }))
}

export const itemsWire = (rows: readonly ItemRow[]) =>
  rows.map((r) => ({ ...(r.id ? { id: r.id } : {}), code: r.code, name: r.name, description: r.description.trim() === '' ? null : r.description }))

/** Rows whose code or name repeats an earlier row's (the server answers 编号重复 / 名称重复 for them). */
export function duplicates(rows: readonly ItemRow[]): { code: Set<number>; name: Set<number>; messages: string[] } {
  const out = { code: new Set<number>(), name: new Set<number>(), messages: [] as string[] }
  for (const f of ['code', 'name'] as const) {
    const first = new Map<string, number>()
    rows.forEach((r, i) => {
      const v = r[f].trim()
      if (!v) return
      const at = first.get(v)
      if (at === undefined) first.set(v, i)
      else {
        out[f].add(i)
        out.messages.push(tr(`第${i + 1}行${f === 'code' ? '编号' : '名称'}与第${at + 1}行重复`))
      }
    })
  }
  return out
}

/**
 * The values of a 多选 / 单选 property (`productProperty.items`) as an editable list of code and name
 * (with an optional remark); the order of the list is the order of the values. Hidden for 手动录入,
 * which has no values.
 */
export default function PropertyItemsInput(props: FormControlProps) {
  const tr = useTr()
  useShownWhen('property-items', (values) => Number(values.columnType) !== COLUMN_TYPE.CUSTOM)
  const { value, onChange, disabled, readOnly, readPretty } = props
  const form = useForm()
  // Rows without an id keep a key of their own across edits and moves, held beside the value by position.
  const keys = useRef<string[]>([])
  const counter = useRef(0)
  const keyOf = (raw: Record<string, unknown>, i: number) => {
    if (typeof raw.id === 'string' && raw.id) return raw.id
    const known = keys.current[i]
    if (known && known.startsWith('new-')) return known
    return (keys.current[i] = `new-${counter.current++}`)
  }
  const rows = itemRowsOf(value, keyOf)
  const editable = !disabled && !readOnly && !readPretty

  if (readPretty)
    return (
      <div style={FILL}>
      <Table<ItemRow>
        rowKey="key"
        size="small"
        bordered
        pagination={false}
        dataSource={rows}
        columns={[
          { key: 'seq', title: tr('序号'), width: 56, align: 'center', render: (_v, _r, i) => i + 1 },
          { key: 'code', title: tr('编号'), render: (_v, r) => shown(r.code) },
          { key: 'name', title: tr('名称'), render: (_v, r) => shown(r.name) },
          { key: 'description', title: tr('备注'), render: (_v, r) => shown(r.description) },
        ]}
      />
      </div>
    )

  const emit = (list: ItemRow[]) => {
    keys.current = list.map((r) => r.key)
    clearServerErrors(form, isItemMessage)
    onChange?.(itemsWire(list))
  }
  const patch = (i: number, change: Partial<ItemRow>) => emit(rows.map((r, j) => (j === i ? { ...r, ...change } : r)))
  const move = (i: number, by: number) => {
    const list = [...rows]
    const [row] = list.splice(i, 1)
    list.splice(i + by, 0, row)
    emit(list)
  }
  const dup = duplicates(rows)

  const columns: ColumnsType<ItemRow> = [
    { key: 'seq', title: tr('序号'), width: 56, align: 'center', render: (_v, _r, i) => i + 1 },
    {
      key: 'code',
      title: tr('编号'),
      width: 180,
      render: (_v, r, i) => (
        <Input
          value={r.code}
          disabled={!editable}
          status={dup.code.has(i) ? 'error' : undefined}
          aria-label={tr(`第${i + 1}行编号`)}
          placeholder={tr('请输入编号')}
          onChange={(e) => patch(i, { code: e.target.value })}
        />
      ),
    },
    {
      key: 'name',
      title: tr('名称'),
      width: 200,
      render: (_v, r, i) => (
        <Input
          value={r.name}
          disabled={!editable}
          status={dup.name.has(i) ? 'error' : undefined}
          aria-label={tr(`第${i + 1}行名称`)}
          placeholder={tr('请输入名称')}
          onChange={(e) => patch(i, { name: e.target.value })}
        />
      ),
    },
    {
      key: 'description',
      title: tr('备注'),
      render: (_v, r, i) => (
        <Input value={r.description} disabled={!editable} aria-label={tr(`第${i + 1}行备注`)} placeholder={tr('请输入备注')} onChange={(e) => patch(i, { description: e.target.value })} />
      ),
    },
  ]
  if (editable)
    columns.push({
      key: 'op',
      title: tr('操作'),
      width: 120,
      align: 'center',
      render: (_v, _r, i) => (
        <Space size={0}>
          <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={tr(`上移第${i + 1}行`)} disabled={i === 0} onClick={() => move(i, -1)} />
          <Button type="text" size="small" icon={<ArrowDownOutlined />} aria-label={tr(`下移第${i + 1}行`)} disabled={i === rows.length - 1} onClick={() => move(i, 1)} />
          <Button type="link" size="small" danger aria-label={tr(`删除第${i + 1}行`)} onClick={() => emit(rows.filter((_r, j) => j !== i))}>
            {tr('删除')}
          </Button>
        </Space>
      ),
    })

  return (
    <div className="product-property-items" style={FILL}>
      <Table<ItemRow>
        rowKey="key"
        size="small"
        bordered
        pagination={false}
        dataSource={rows}
        columns={columns}
        scroll={{ y: 320 }}
        locale={{ emptyText: tr('请添加属性值') }}
      />
      {dup.messages.length > 0 && <Alert style={{ marginTop: 6 }} type="warning" showIcon message={dup.messages.join('；')} />}
      {editable && (
        <div style={{ marginTop: 8, display: 'flex', gap: 12, alignItems: 'center' }}>
          <Button
            icon={<PlusOutlined aria-hidden />}
            onClick={() => emit([...rows, { code: '', name: '', description: '', key: `new-${counter.current++}` }])}
          >
            {tr('添加属性值')}
          </Button>
          <Hint>{tr('已被商品使用的属性值不能删除；顺序即属性值的排序')}</Hint>
        </div>
      )}
    </div>
  )
}
