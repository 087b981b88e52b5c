import IconPicker from '../components/IconPicker.js'
import { Input, InputNumber, Select, Switch } from 'antd'
import { useMeta } from '../api/meta.js'
import type { FormControlProps } from '../components/form-controls.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { GEN_CUSTOM_LIST_BTN_TYPE as BT, GEN_DATA_TYPE as DT, GEN_VIEW_TYPE as VT, QUERY_TYPE as QT } from '../../shared/generated/enum-codes.js'
import RowsEditor, { ScriptCell, type EditorRow, type RowsEditorColumn } from './RowsEditor.js'
import { useObjColumns, useSiblingValue } from './use-obj-columns.js'
import type { ObjColumnOption } from '../../shared/contracts/lowcode.js'
import { tr, useTr } from '../i18n/use-tr.js'

/**
 * The custom list's 列表字段 / 查询条件 / 工具栏 / 操作列 editors: tables of rows whose columns come
 * from the chosen data object (`/gen/data/obj/columns`), stored as the server's JSON rows.
 */

const NUMBER_TYPES: number[] = [DT.INTEGER, DT.SHORT, DT.LONG, DT.DOUBLE, DT.BIG_DECIMAL]

function enumSelect(enums: EnumCatalog | undefined, name: string) {
  return (enums?.has(name) ? enums.items(name) : []).map((i) => ({ label: enums?.text(i) ?? i['zh-CN'], value: i.code as string | number }))
}

function ColumnSelect({ columns, value, onChange, label }: { columns: ObjColumnOption[]; value: unknown; onChange: (c: ObjColumnOption | undefined) => void; label: string }) {
  const tr = useTr()
  return (
    <Select
      aria-label={label}
      style={{ width: 200 }}
      showSearch
      optionFilterProp="label"
      placeholder={tr('请选择字段')}
      value={typeof value === 'string' && value ? value : undefined}
      options={columns.map((c) => ({ value: c.relaId, label: `${c.name}（${c.tableAlias}.${c.dbColumnName}）` }))}
      onChange={(v: string) => onChange(columns.find((c) => c.relaId === v))}
    />
  )
}

function useEditorContext(props: FormControlProps) {
  const dataObjId = useSiblingValue('dataObjId', props.record?.dataObjId)
  const columns = useObjColumns(dataObjId)
  const enums = useMeta()?.enums
  const readOnly = Boolean(props.readOnly || props.readPretty || props.disabled)
  return { columns, enums, readOnly }
}

const nameInput = (row: EditorRow, set: (p: Record<string, unknown>) => void, label: string) => (
  <Input aria-label={label} style={{ width: 140 }} value={String(row.name ?? '')} onChange={(e) => set({ name: e.target.value })} />
)

export function ListFieldsEditor(props: FormControlProps) {
  const tr = useTr()
  const { columns, enums, readOnly } = useEditorContext(props)
  const cols: RowsEditorColumn[] = [
    { key: 'relaId', title: tr('字段'), render: (r, set) => <ColumnSelect label={tr('字段')} columns={columns} value={r.relaId} onChange={(c) => set({ relaId: c?.relaId, name: r.name || c?.name, isNumberType: c ? NUMBER_TYPES.includes(c.dataType) : false, fixEnum: Boolean(c?.fixEnum), frontType: c?.enumFront ?? null })} /> },
    { key: 'name', title: tr('显示名称'), render: (r, set) => nameInput(r, set, tr('显示名称')) },
    { key: 'widthType', title: tr('宽度类型'), render: (r, set) => <Select aria-label={tr('宽度类型')} style={{ width: 100 }} value={r.widthType as number} options={enumSelect(enums, 'GEN_QUERY_WIDTH_TYPE')} onChange={(v) => set({ widthType: v })} /> },
    { key: 'width', title: tr('宽度'), render: (r, set) => <InputNumber aria-label={tr('宽度')} min={1} max={2000} value={r.width as number} onChange={(v) => set({ width: v ?? 120 })} /> },
    { key: 'sortable', title: tr('排序'), render: (r, set) => <Switch aria-label={tr('排序')} checked={Boolean(r.sortable)} onChange={(v) => set({ sortable: v })} /> },
    { key: 'isNumberType', title: tr('数字'), render: (r, set) => <Switch aria-label={tr('数字类型')} checked={Boolean(r.isNumberType)} onChange={(v) => set({ isNumberType: v })} /> },
    { key: 'hasAvailableTag', title: tr('状态标签'), render: (r, set) => <Switch aria-label={tr('状态标签')} checked={Boolean(r.hasAvailableTag)} onChange={(v) => set({ hasAvailableTag: v })} /> },
    { key: 'fixEnum', title: tr('枚举'), render: (r, set) => <Switch aria-label={tr('内置枚举')} checked={Boolean(r.fixEnum)} onChange={(v) => set({ fixEnum: v })} /> },
    { key: 'frontType', title: tr('枚举名'), render: (r, set) => <Input aria-label={tr('枚举名')} style={{ width: 120 }} disabled={!r.fixEnum} value={String(r.frontType ?? '')} onChange={(e) => set({ frontType: e.target.value || null })} /> },
    { key: 'formatter', title: tr('格式化脚本'), render: (r, set) => <ScriptCell title={tr('格式化脚本（参数 cellValue, row）')} value={r.formatter} readOnly={readOnly} onChange={(v) => set({ formatter: v || null })} /> },
  ]
  return (
    <RowsEditor
      ariaLabel={tr('列表字段')}
      value={props.value}
      onChange={props.onChange}
      readOnly={readOnly}
      addText={tr('添加字段')}
      columns={cols}
      newRow={() => ({ relaId: '', name: '', widthType: 0, width: 120, sortable: false, isNumberType: false, hasAvailableTag: false, fixEnum: false, frontType: null, formatter: null })}
    />
  )
}

function defaultViewType(c: ObjColumnOption): number {
  if (c.dataType === DT.LOCAL_DATE_TIME || c.dataType === DT.LOCAL_DATE) return VT.DATE_RANGE
  if (c.customSelectorId) return VT.CUSTOM_SELECTOR
  if (c.dataDicId) return VT.DATA_DIC
  if (c.fixEnum || c.dataType === DT.BOOLEAN) return VT.SELECT
  return VT.INPUT
}

export function ListQueryParamsEditor(props: FormControlProps) {
  const tr = useTr()
  const { columns, enums, readOnly } = useEditorContext(props)
  const cols: RowsEditorColumn[] = [
    {
      key: 'relaId',
      title: tr('字段'),
      render: (r, set) => (
        <ColumnSelect
          label={tr('查询字段')}
          columns={columns}
          value={r.relaId}
          onChange={(c) =>
            c &&
            set({
              relaId: c.relaId,
              name: r.name || c.name,
              viewType: defaultViewType(c),
              queryType: c.dataType === DT.STRING && !c.fixEnum ? QT.AROUND_LIKE : QT.EQ,
              fixEnum: c.fixEnum,
              frontType: c.enumFront,
              hasAvailableTag: c.dbColumnName === 'available',
              customSelectorId: c.customSelectorId,
            })
          }
        />
      ),
    },
    { key: 'name', title: tr('显示名称'), render: (r, set) => nameInput(r, set, tr('查询名称')) },
    { key: 'viewType', title: tr('显示类型'), render: (r, set) => <Select aria-label={tr('显示类型')} style={{ width: 140 }} value={r.viewType as number} options={enumSelect(enums, 'GEN_VIEW_TYPE')} onChange={(v) => set({ viewType: v })} /> },
    { key: 'queryType', title: tr('查询类型'), render: (r, set) => <Select aria-label={tr('查询类型')} style={{ width: 120 }} value={r.queryType as number} options={enumSelect(enums, 'QUERY_TYPE')} onChange={(v) => set({ queryType: v })} /> },
    { key: 'defaultValue', title: tr('默认值'), render: (r, set) => <Input aria-label={tr('默认值')} style={{ width: 120 }} value={String(r.defaultValue ?? '')} onChange={(e) => set({ defaultValue: e.target.value || null })} /> },
    { key: 'hasAvailableTag', title: tr('状态'), render: (r, set) => <Switch aria-label={tr('状态标签')} checked={Boolean(r.hasAvailableTag)} onChange={(v) => set({ hasAvailableTag: v })} /> },
    { key: 'dataDicCode', title: tr('字典编号'), render: (r, set) => <Input aria-label={tr('字典编号')} style={{ width: 110 }} disabled={r.viewType !== VT.DATA_DIC} value={String(r.dataDicCode ?? '')} onChange={(e) => set({ dataDicCode: e.target.value || null })} /> },
    { key: 'customSelectorId', title: tr('选择器ID'), render: (r, set) => <Input aria-label={tr('自定义选择器ID')} style={{ width: 110 }} disabled={r.viewType !== VT.CUSTOM_SELECTOR} value={String(r.customSelectorId ?? '')} onChange={(e) => set({ customSelectorId: e.target.value || null })} /> },
    { key: 'formWidth', title: tr('宽度'), render: (r, set) => <InputNumber aria-label={tr('表单宽度')} min={4} max={24} value={r.formWidth as number} onChange={(v) => set({ formWidth: v ?? 6 })} /> },
    { key: 'frontShow', title: tr('显示'), render: (r, set) => <Switch aria-label={tr('前端显示')} checked={r.frontShow !== false} onChange={(v) => set({ frontShow: v })} /> },
  ]
  return (
    <RowsEditor
      ariaLabel={tr('查询条件')}
      value={props.value}
      onChange={props.onChange}
      readOnly={readOnly}
      addText={tr('添加查询条件')}
      columns={cols}
      newRow={() => ({ relaId: '', name: '', viewType: VT.INPUT, queryType: QT.EQ, defaultValue: null, fixEnum: false, frontType: null, hasAvailableTag: false, dataDicCode: null, customSelectorId: null, formWidth: 6, frontShow: true })}
    />
  )
}

function ButtonsEditor(props: FormControlProps & { label: string; withWidth: boolean }) {
  const tr = useTr()
  const enums = useMeta()?.enums
  const readOnly = Boolean(props.readOnly || props.readPretty || props.disabled)
  const cols: RowsEditorColumn[] = [
    { key: 'name', title: tr('名称'), render: (r, set) => nameInput(r, set, tr('按钮名称')) },
    { key: 'viewType', title: tr('样式'), render: (r, set) => <Select aria-label={tr('按钮样式')} style={{ width: 110 }} value={r.viewType as string} options={enumSelect(enums, 'GEN_CUSTOM_LIST_BTN_VIEW_TYPE')} onChange={(v) => set({ viewType: v })} /> },
    { key: 'btnType', title: tr('类型'), render: (r, set) => <Select aria-label={tr('按钮类型')} style={{ width: 120 }} value={r.btnType as number} options={enumSelect(enums, 'GEN_CUSTOM_LIST_BTN_TYPE')} onChange={(v) => set({ btnType: v, btnConfig: null })} /> },
    {
      key: 'btnConfig',
      title: tr('配置'),
      render: (r, set) =>
        r.btnType === BT.EXECUTE_SCRIPT ? (
          <ScriptCell title={tr('执行脚本')} value={r.btnConfig} readOnly={readOnly} onChange={(v) => set({ btnConfig: v || null })} />
        ) : (
          <Input
            aria-label={tr('按钮配置')}
            style={{ width: 200 }}
            placeholder={r.btnType === BT.EXTERNAL ? 'https://…' : r.btnType === BT.ROUTE ? tr('/路由地址') : tr('自定义表单ID')}
            value={String(r.btnConfig ?? '')}
            onChange={(e) => set({ btnConfig: e.target.value || null })}
          />
        ),
    },
    {
      key: 'requestParam',
      title: tr('请求参数脚本'),
      render: (r, set) =>
        r.btnType === BT.CUSTOM_FORM ? <ScriptCell title={tr('请求参数脚本')} value={r.requestParam} readOnly={readOnly} onChange={(v) => set({ requestParam: v || null })} /> : null,
    },
    { key: 'icon', title: tr('图标'), render: (r, set) => <IconPicker aria-label={tr('图标')} style={{ width: 150 }} value={typeof r.icon === 'string' ? r.icon : null} onChange={(icon) => set({ icon })} /> },
  ]
  if (props.withWidth)
    cols.push({ key: 'width', title: tr('宽度'), render: (r, set) => <InputNumber aria-label={tr('按钮宽度')} min={20} max={400} value={r.width as number} onChange={(v) => set({ width: v ?? 60 })} /> })
  return (
    <RowsEditor
      ariaLabel={props.label}
      value={props.value}
      onChange={props.onChange}
      readOnly={readOnly}
      addText={tr('添加按钮')}
      columns={cols}
      newRow={() => ({ name: '', viewType: props.withWidth ? 'link' : 'primary', btnType: BT.CUSTOM_FORM, btnConfig: null, requestParam: null, icon: null, ...(props.withWidth ? { width: 60 } : {}) })}
    />
  )
}

export const ListToolbarsEditor = (props: FormControlProps) => <ButtonsEditor {...props} label={tr('工具栏')} withWidth={false} />
export const ListHandleColumnsEditor = (props: FormControlProps) => <ButtonsEditor {...props} label={tr('操作列')} withWidth />
