import { useState } from 'react'
import { Input, Select, Switch } from 'antd'
import { useForm } from '@formily/react'
import { useMeta } from '../api/meta.js'
import PickerInput from '../runtime/picker/PickerInput.js'
import type { FormControlProps } from '../components/form-controls.js'
import RowsEditor, { newRowId, type RowsEditorColumn } from './RowsEditor.js'
import { useTr } from '../i18n/use-tr.js'
import { lowcode } from '../../shared/contracts/lowcode.js'
import { tableLabel, useGenTables } from './use-gen-tables.js'
import { call } from '../api/call.js'

/** The data entity's 数据表 (the table picker `/selector/gen/table`) and its 字段 grid. */

/**
 * 数据表: a searchable dropdown over the tenant's tables (name or comment). Choosing one loads its
 * columns from the database into the 字段 grid, with the labels and types a new entity starts from.
 */
export function DataEntityTableInput({ value, onChange, readOnly, readPretty, disabled, id, ...rest }: FormControlProps) {
  const tr = useTr()
  const form = useForm()
  const [search, setSearch] = useState('')
  const { tables, loading } = useGenTables(search)
  const current = typeof value === 'string' ? value : ''
  if (readPretty) return <span>{current || '-'}</span>
  const options = tables.map((t) => ({ value: t.tableName, label: tableLabel(t) }))
  if (current && !options.some((o) => o.value === current)) options.unshift({ value: current, label: current })
  const choose = async (tableName: string | undefined) => {
    onChange?.(tableName ?? null)
    if (!tableName) return
    const columns = await call(lowcode.tableColumns, { tableName })
    form.setValuesIn(
      'columns',
      columns.map((c, i) => ({ ...c, id: newRowId(), columnOrder: i + 1 })),
    )
    const picked = tables.find((t) => t.tableName === tableName)
    if (picked?.tableComment && !form.values.name) form.setValuesIn('name', [...picked.tableComment].slice(0, 20).join(''))
  }
  return (
    <Select
      id={id}
      aria-label={rest['aria-label']}
      showSearch
      allowClear
      filterOption={false}
      loading={loading}
      disabled={disabled || readOnly}
      placeholder={tr('请选择数据表')}
      value={current || undefined}
      options={options}
      onSearch={setSearch}
      onChange={(v: string | undefined) => void choose(v)}
      notFoundContent={loading ? tr('加载中…') : tr('没有匹配的数据表')}
    />
  )
}

/** 字段: one row per column of the table, edited in place; types are chosen by their Chinese names. */
export function DataEntityColumnsEditor(props: FormControlProps) {
  const tr = useTr()
  const enums = useMeta()?.enums
  const readOnly = Boolean(props.readOnly || props.readPretty || props.disabled)
  const enumOptions = (name: string) => (enums?.has(name) ? enums.items(name) : []).map((i) => ({ label: enums?.text(i) ?? i['zh-CN'], value: i.code as number }))
  const enumNames = (enums?.titles() ?? []).map((e) => ({ value: e.name, label: `${e.title}（${e.name}）` }))
  const cols: RowsEditorColumn[] = [
    { key: 'columnName', title: tr('字段名'), render: (r) => <code>{String(r.columnName ?? '')}</code> },
    { key: 'dbDataType', title: tr('数据库类型'), render: (r) => String(r.dbDataType ?? '') },
    { key: 'name', title: tr('显示名称'), render: (r, set) => <Input aria-label={tr(`${String(r.columnName)}显示名称`)} style={{ width: 130 }} disabled={readOnly} value={String(r.name ?? '')} onChange={(e) => set({ name: e.target.value })} /> },
    { key: 'isKey', title: tr('主键'), render: (r, set) => <Switch aria-label={tr('是否主键')} size="small" disabled={readOnly} checked={r.isKey === true} onChange={(v) => set({ isKey: v })} /> },
    { key: 'dataType', title: tr('数据类型'), render: (r, set) => <Select aria-label={tr(`${String(r.columnName)}数据类型`)} style={{ width: 120 }} disabled={readOnly} value={r.dataType as number} options={enumOptions('GEN_DATA_TYPE')} onChange={(v) => set({ dataType: v })} /> },
    { key: 'viewType', title: tr('显示类型'), render: (r, set) => <Select aria-label={tr(`${String(r.columnName)}显示类型`)} style={{ width: 150 }} disabled={readOnly} value={r.viewType as number} options={enumOptions('GEN_VIEW_TYPE')} onChange={(v) => set({ viewType: v })} /> },
    { key: 'fixEnum', title: tr('内置枚举'), render: (r, set) => <Switch aria-label={tr('是否内置枚举')} size="small" disabled={readOnly} checked={r.fixEnum === true} onChange={(v) => set({ fixEnum: v, enumFront: v ? r.enumFront ?? null : null })} /> },
    { key: 'enumFront', title: tr('枚举'), render: (r, set) => <Select aria-label={tr('前端枚举名')} style={{ width: 170 }} showSearch optionFilterProp="label" allowClear disabled={readOnly || r.fixEnum !== true} value={(r.enumFront as string) || undefined} options={enumNames} onChange={(v: string | undefined) => set({ enumFront: v ?? null })} /> },
    { key: 'dataDicId', title: tr('数据字典'), render: (r, set) => <div style={{ width: 140 }}><PickerInput kind="dic" aria-label={tr('数据字典')} disabled={readOnly} value={(r.dataDicId as string) || undefined} onChange={(v) => set({ dataDicId: typeof v === 'string' ? v : null })} /></div> },
    { key: 'customSelectorId', title: tr('自定义选择器'), render: (r, set) => <div style={{ width: 140 }}><PickerInput kind="gen/custom/selector" aria-label={tr('自定义选择器')} disabled={readOnly} value={(r.customSelectorId as string) || undefined} onChange={(v) => set({ customSelectorId: typeof v === 'string' ? v : null })} /></div> },
    { key: 'description', title: tr('备注'), render: (r, set) => <Input aria-label={tr('字段备注')} style={{ width: 120 }} disabled={readOnly} value={String(r.description ?? '')} onChange={(e) => set({ description: e.target.value || null })} /> },
  ]
  return (
    <RowsEditor
      ariaLabel={tr('字段')}
      value={props.value}
      onChange={(rows) => props.onChange?.(rows.map((r, i) => ({ ...r, columnOrder: i + 1 })))}
      readOnly={readOnly}
      addText=""
      hideAdd
      columns={cols}
      newRow={() => ({})}
    />
  )
}
