import { Button, Input, Select, Space } from 'antd'
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { useMeta } from '../api/meta.js'
import type { FormControlProps } from '../components/form-controls.js'
import RowsEditor, { type EditorRow, type RowsEditorColumn } from './RowsEditor.js'
import { useSiblingValue } from './use-obj-columns.js'
import { useTr } from '../i18n/use-tr.js'
import { useCall } from '../app/use-call.js'
import { type EntityColumn, lowcode, lowcodeChoices } from '../../shared/contracts/lowcode.js'

/** The data object's 关联表 (joins on column pairs) and 自定义查询字段 editors. */

function useEntityColumns(entityId: unknown): EntityColumn[] {
  const id = typeof entityId === 'string' && entityId ? entityId : undefined
  const { data } = useCall(id !== undefined && lowcode.entityColumns, { id: id ?? '' }, { swr: { revalidateOnFocus: false } })
  return data ?? []
}

function useEntities() {
  const { data } = useCall(lowcodeChoices.entities, { pageIndex: 1, pageSize: 200 }, { swr: { revalidateOnFocus: false } })
  return data?.datas ?? []
}

const options = (cols: EntityColumn[]) => cols.map((c) => ({ value: c.id, label: `${c.name}（${c.columnName}）` }))

function PairsCell({ row, set, mainColumns, readOnly }: { row: EditorRow; set: (p: Record<string, unknown>) => void; mainColumns: EntityColumn[]; readOnly: boolean }) {
  const tr = useTr()
  const subColumns = useEntityColumns(row.subTableId)
  const mains = Array.isArray(row.mainTableDetailIds) ? (row.mainTableDetailIds as string[]) : []
  const subs = Array.isArray(row.subTableDetailIds) ? (row.subTableDetailIds as string[]) : []
  const count = Math.max(mains.length, subs.length, 1)
  const setPair = (i: number, main: string | undefined, sub: string | undefined) => {
    const m = [...mains]
    const s = [...subs]
    m[i] = main ?? ''
    s[i] = sub ?? ''
    set({ mainTableDetailIds: m, subTableDetailIds: s })
  }
  return (
    <Space direction="vertical" size={4}>
      {Array.from({ length: count }, (_, i) => (
        <Space key={i} size={4}>
          <Select aria-label={tr('主表字段')} style={{ width: 170 }} disabled={readOnly} value={mains[i] || undefined} options={options(mainColumns)} placeholder={tr('主表字段')} onChange={(v: string) => setPair(i, v, subs[i])} />
          <span>=</span>
          <Select aria-label={tr('关联表字段')} style={{ width: 170 }} disabled={readOnly} value={subs[i] || undefined} options={options(subColumns)} placeholder={tr('关联表字段')} onChange={(v: string) => setPair(i, mains[i], v)} />
          {!readOnly && count > 1 && (
            <Button type="link" size="small" aria-label={tr('删除关联字段')} icon={<DeleteOutlined />} onClick={() => set({ mainTableDetailIds: mains.filter((_, j) => j !== i), subTableDetailIds: subs.filter((_, j) => j !== i) })} />
          )}
        </Space>
      ))}
      {!readOnly && (
        <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={() => set({ mainTableDetailIds: [...mains, ''], subTableDetailIds: [...subs, ''] })}>
          {tr('添加关联字段')}
        </Button>
      )}
    </Space>
  )
}

export function DataObjJoinsEditor(props: FormControlProps) {
  const tr = useTr()
  const mainTableId = useSiblingValue('mainTableId', props.record?.mainTableId)
  const mainColumns = useEntityColumns(mainTableId)
  const entities = useEntities()
  const enums = useMeta()?.enums
  const readOnly = Boolean(props.readOnly || props.readPretty || props.disabled)
  const enumOptions = (name: string) => (enums?.has(name) ? enums.items(name) : []).map((i) => ({ label: enums?.text(i) ?? i['zh-CN'], value: i.code as number }))
  const cols: RowsEditorColumn[] = [
    { key: 'subTableId', title: tr('关联实体'), render: (r, set) => <Select aria-label={tr('关联实体')} style={{ width: 160 }} showSearch optionFilterProp="label" value={(r.subTableId as string) || undefined} options={entities.map((e) => ({ value: e.id, label: e.name }))} onChange={(v) => set({ subTableId: v, mainTableDetailIds: [], subTableDetailIds: [] })} /> },
    { key: 'subTableAlias', title: tr('别名'), render: (r, set) => <Input aria-label={tr('关联表别名')} style={{ width: 80 }} value={String(r.subTableAlias ?? '')} onChange={(e) => set({ subTableAlias: e.target.value })} /> },
    { key: 'relaMode', title: tr('连接方式'), render: (r, set) => <Select aria-label={tr('连接方式')} style={{ width: 100 }} value={r.relaMode as number} options={enumOptions('GEN_RELA_MODE')} onChange={(v) => set({ relaMode: v })} /> },
    { key: 'relaType', title: tr('关联关系'), render: (r, set) => <Select aria-label={tr('关联关系')} style={{ width: 100 }} value={r.relaType as number} options={enumOptions('GEN_RELA_TYPE')} onChange={(v) => set({ relaType: v })} /> },
    { key: 'pairs', title: tr('关联字段（主表 = 关联表）'), render: (r, set) => <PairsCell row={r} set={set} mainColumns={mainColumns} readOnly={readOnly} /> },
  ]
  return (
    <RowsEditor
      ariaLabel={tr('关联表')}
      value={props.value}
      onChange={props.onChange}
      readOnly={readOnly}
      addText={tr('添加关联表')}
      columns={cols}
      newRow={() => ({ subTableId: '', subTableAlias: '', relaType: 0, relaMode: 0, mainTableDetailIds: [''], subTableDetailIds: [''] })}
    />
  )
}

export function DataObjCustomColumnsEditor(props: FormControlProps) {
  const tr = useTr()
  const enums = useMeta()?.enums
  const readOnly = Boolean(props.readOnly || props.readPretty || props.disabled)
  const cols: RowsEditorColumn[] = [
    { key: 'customName', title: tr('显示名称'), render: (r, set) => <Input aria-label={tr('自定义字段名称')} style={{ width: 140 }} value={String(r.customName ?? '')} onChange={(e) => set({ customName: e.target.value })} /> },
    { key: 'customAlias', title: tr('别名'), render: (r, set) => <Input aria-label={tr('自定义字段别名')} style={{ width: 120 }} value={String(r.customAlias ?? '')} onChange={(e) => set({ customAlias: e.target.value })} /> },
    { key: 'customSql', title: 'SQL', render: (r, set) => <Input aria-label={tr('自定义SQL')} style={{ width: 260 }} value={String(r.customSql ?? '')} onChange={(e) => set({ customSql: e.target.value })} /> },
    { key: 'dataType', title: tr('数据类型'), render: (r, set) => <Select aria-label={tr('数据类型')} style={{ width: 130 }} value={r.dataType as number} options={(enums?.has('GEN_DATA_TYPE') ? enums.items('GEN_DATA_TYPE') : []).map((i) => ({ label: enums?.text(i) ?? i['zh-CN'], value: i.code as number }))} onChange={(v) => set({ dataType: v })} /> },
  ]
  return (
    <RowsEditor ariaLabel={tr('自定义查询字段')} value={props.value} onChange={props.onChange} readOnly={readOnly} addText={tr('添加自定义字段')} columns={cols} newRow={() => ({ customName: '', customAlias: '', customSql: '', dataType: 0 })} />
  )
}
