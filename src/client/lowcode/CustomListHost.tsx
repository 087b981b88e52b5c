import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { Button, Result, Space, Spin, Table, Tag, Tooltip } from 'antd'
import type { ColumnType } from 'antd/es/table'
import { useNavigate } from 'react-router-dom'
import { call, callDownload } from '../api/call.js'
import { useCall, useSessionRead } from '../app/use-call.js'
import { lowcodeRuntime } from '../../shared/contracts/lowcode.js'
import { useMeta } from '../api/meta.js'
import { useFeedback } from '../components/feedback.js'
import { tablePagination, usePageState } from '../components/pager.js'
import { GEN_CUSTOM_LIST_TYPE as LT, GEN_QUERY_WIDTH_TYPE as WT } from '../../shared/generated/enum-codes.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { asRequestParam, buttonAction, buttonLook, type ButtonPlace } from './button-action.js'
import CustomFormHost from './CustomFormHost.js'
import CustomQueryForm from './CustomQueryForm.js'
import { buildConditions, initialQueryValues } from './list-conditions.js'
import { allKeys, nestRows, SHOW_MARK } from './list-rows.js'
import type { CustomListConfig, ListButtonConfig, ListCondition, ListFieldConfig, ListRow } from '../../shared/contracts/lowcode-wire.js'
import { runButtonScript, runScript } from '../sandbox/script-runner.js'
import { ScriptError } from '../../shared/sandbox/script-error.js'
import { ROW_KEY, useFormattedCells, type FormattedCells } from './use-formatted-cells.js'
import { tr, useTr } from '../i18n/use-tr.js'

export interface CustomListHostProps {
  /** customListId */
  listId: string
  /** Selectors: choose rows whatever the list type says. */
  selectMode?: 'single' | 'multiple'
  /** Double-clicking a cell emits its row (001 §2). */
  onRowDoubleClick?: (row: ListRow) => void
  onSelectionChange?: (rows: ListRow[]) => void
  /** Hide toolbar and row buttons (inside a selector). */
  hideButtons?: boolean
}

/** The custom list screen (001 §2 "Custom list screen") rendered from `GET /gen/api/custom/list/config?id`. */
export default function CustomListHost(props: CustomListHostProps) {
  const tr = useTr()
  const { data: config, error } = useCall(lowcodeRuntime.listConfig, { id: props.listId }, { swr: { revalidateOnFocus: false } })
  const meta = useMeta()
  if (error) return <Result status="warning" title={tr('自定义列表加载失败')} subTitle={error instanceof Error ? error.message : undefined} />
  if (!config || !meta) return <Spin style={{ display: 'block', padding: 48 }} />
  return <CustomList {...props} config={config} enums={meta.enums} />
}

type Opened = { formId: string; requestParam?: Record<string, unknown> }

function CustomList({ listId, config, enums, selectMode, onRowDoubleClick, onSelectionChange, hideButtons }: CustomListHostProps & { config: CustomListConfig; enums: EnumCatalog }) {
  const tr = useTr()
  const { listConfig, queryParams } = config
  const { message } = useFeedback()
  const navigate = useNavigate()
  const [conditions, setConditions] = useState<ListCondition[]>(() => buildConditions(queryParams, initialQueryValues(queryParams)))
  const [page, setPage] = usePageState()
  const [searchCount, setSearchCount] = useState(0)
  const [selected, setSelected] = useState<ListRow[]>([])
  const [current, setCurrent] = useState<string>()
  const [opened, setOpened] = useState<Opened | null>(null)

  const mode = listConfig.treeData ? 'tree' : listConfig.hasPage ? 'page' : 'list'
  const idColumn = listConfig.idColumn || undefined
  const childrenKey = listConfig.treeChildrenKey || 'children'
  const body = mode === 'page' ? { pageIndex: page.index, pageSize: page.size, conditions } : { conditions }
  const { data, isLoading, mutate } = useSessionRead(
    ['custom-list-rows', listId, mode, JSON.stringify(body), searchCount],
    async () => {
      const params = { query: { id: listId }, body }
      const answer = mode === 'tree' ? await call(lowcodeRuntime.queryTree, params) : mode === 'list' ? await call(lowcodeRuntime.queryList, params) : await call(lowcodeRuntime.query, params)
      const rows = Array.isArray(answer) ? answer : answer.datas
      return { rows: rows.map((r, i) => ({ ...r, [ROW_KEY]: idColumn && r[idColumn] != null ? String(r[idColumn]) : String(i) })), total: Array.isArray(answer) ? answer.length : answer.totalCount }
    },
    { keepPreviousData: true, revalidateOnFocus: false },
  )
  const flat = useMemo(() => data?.rows ?? [], [data])
  const cells = useFormattedCells(listConfig.fields, flat)
  const rows = useMemo(
    () => (mode === 'tree' && idColumn && listConfig.treePidColumn ? nestRows(flat, idColumn, listConfig.treePidColumn, childrenKey) : flat),
    [mode, flat, idColumn, listConfig.treePidColumn, childrenKey],
  )

  const search = (values: Record<string, unknown>) => {
    setConditions(buildConditions(queryParams, values))
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }
  const exportRows = async (values: Record<string, unknown>) => {
    await callDownload(lowcodeRuntime.exportList, { query: { id: listId }, body: { conditions: buildConditions(queryParams, values) } })
  }

  const plainRow = (row: ListRow) => Object.fromEntries(Object.entries(row).filter(([k, v]) => k !== ROW_KEY && !Array.isArray(v)))
  const press = useCallback(
    async (button: ListButtonConfig, place: ButtonPlace, row?: ListRow) => {
      const action = buttonAction(button, place)
      // What scripts see: the row, or the list's selection and conditions (no live component in a sandbox).
      const arg = place === 'row' && row ? plainRow(row) : { listId, selectedRows: selected.map(plainRow), conditions }
      try {
        switch (action.kind) {
          case 'external':
            window.open(action.url, '_blank', 'noopener,noreferrer')
            return
          case 'route':
            navigate(action.path)
            return
          case 'form': {
            const param = action.paramScript ? asRequestParam(await runScript(action.paramScript, [arg], { params: action.params })) : place === 'row' && row ? plainRow(row) : undefined
            setOpened({ formId: action.formId, requestParam: param })
            return
          }
          case 'script': {
            // The script answers what the list should do, as data (sandbox ButtonScriptAction).
            const ctx = place === 'row' && row ? { listId, row: plainRow(row), selectedRows: selected.map(plainRow), conditions } : arg
            const todo = await runButtonScript(action.script, ctx)
            if (todo.message) void message[todo.messageType ?? 'info'](todo.message)
            if (todo.openUrl) window.open(todo.openUrl, '_blank', 'noopener,noreferrer')
            if (todo.navigate) navigate(todo.navigate)
            if (todo.reload) void mutate()
            return
          }
          default:
            void message.error(action.reason)
        }
      } catch (e) {
        void message.error(e instanceof ScriptError ? e.message : e instanceof Error ? e.message : String(e))
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [selected, conditions, listId, navigate, message, mutate],
  )

  const choose = selectMode ?? (listConfig.listType === LT.SINGLE ? 'single' : listConfig.listType === LT.MULTIPLE ? 'multiple' : undefined)
  const columns: ColumnType<ListRow>[] = []
  if (!choose && mode !== 'tree')
    columns.push({ key: '__seq', title: tr('序号'), width: 50, align: 'center', render: (_v, _r, i) => (mode === 'page' ? (page.index - 1) * page.size : 0) + i + 1 })
  for (const f of listConfig.fields) columns.push(fieldColumn(f, enums, cells))
  if (!hideButtons && config.handleColumns.length)
    columns.push({
      key: '__actions',
      title: tr('操作'),
      fixed: 'right',
      width: config.handleColumns.reduce((w, b) => w + (b.width || 60), 16),
      render: (_v, row) => (
        <Space size={0} wrap>
          {config.handleColumns.map((b) => (
            <ListButton key={b.id} button={b} size="small" forceLink onClick={() => void press(b, 'row', row)} />
          ))}
        </Space>
      ),
    })

  const select = (keys: React.Key[], chosen: ListRow[]) => {
    setSelected(chosen)
    onSelectionChange?.(chosen)
    void keys
  }

  return (
    <div className="custom-list" data-list-id={listId}>
      <CustomQueryForm params={queryParams} enums={enums} labelWidth={listConfig.labelWidth} onSearch={search} onExport={listConfig.allowExport ? (v) => void exportRows(v) : undefined} />
      {!hideButtons && config.toolbars.length > 0 && (
        <Space wrap style={{ marginBottom: 8 }}>
          {config.toolbars.map((b) => (
            <ListButton key={b.id} button={b} onClick={() => void press(b, 'toolbar')} />
          ))}
        </Space>
      )}
      <Table<ListRow>
        rowKey={ROW_KEY}
        size="small"
        bordered
        columns={columns}
        dataSource={rows}
        loading={isLoading}
        scroll={{ x: 'max-content' }}
        childrenColumnName={childrenKey}
        expandable={mode === 'tree' ? { expandedRowKeys: idColumn ? allKeys(rows, ROW_KEY, childrenKey) : undefined, expandIcon: () => null, indentSize: 20 } : undefined}
        rowClassName={(row) => [row[ROW_KEY] === current && !choose ? 'custom-list-current' : '', mode === 'tree' && row[SHOW_MARK] === false ? 'custom-list-dim' : ''].join(' ')}
        rowSelection={
          choose
            ? {
                type: choose === 'single' ? 'radio' : 'checkbox',
                selectedRowKeys: selected.map((r) => r[ROW_KEY] as string),
                onChange: select,
              }
            : undefined
        }
        onRow={(row) => ({
          onClick: () => {
            setCurrent(row[ROW_KEY] as string)
            if (choose === 'single') select([row[ROW_KEY] as string], [row])
          },
          onDoubleClick: () => onRowDoubleClick?.(row),
        })}
        pagination={
          mode === 'page'
            ? tablePagination(page, data?.total ?? 0, setPage)
            : false
        }
      />
      {opened && (
        <CustomFormHost
          formId={opened.formId}
          requestParam={opened.requestParam}
          asDialog
          onClose={() => setOpened(null)}
          onSubmitted={() => void mutate()}
        />
      )}
    </div>
  )
}

function ListButton({ button, onClick, size, forceLink }: { button: ListButtonConfig; onClick: () => void; size?: 'small'; forceLink?: boolean }) {
  const look = buttonLook(button.viewType)
  const type = forceLink && look.type !== 'link' ? 'link' : look.type
  return (
    <Button type={type} danger={look.danger} size={size} onClick={onClick}>
      {button.name}
    </Button>
  )
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? tr('是') : tr('否')
  return String(value)
}

function fieldColumn(f: ListFieldConfig, enums: EnumCatalog, cells: FormattedCells): ColumnType<ListRow> {
  const column: ColumnType<ListRow> = {
    key: f.columnName,
    dataIndex: f.columnName,
    title: f.name,
    align: f.isNumberType ? 'right' : undefined,
    ellipsis: true,
  }
  if (f.width) {
    if (f.widthType === WT.MIN) (column as { minWidth?: number }).minWidth = f.width
    else column.width = f.width
  }
  column.render = (value: unknown, row: ListRow): ReactNode => {
    if (f.hasAvailableTag && (value === true || value === false))
      return <Tag color={value ? 'green' : 'red'}>{enums.has('AVAILABLE') ? enums.label('AVAILABLE', value) : value ? tr('启用') : tr('停用')}</Tag>
    if (f.fixEnum && f.frontType && enums.has(f.frontType)) return enums.label(f.frontType, value) ?? cellText(value)
    const formatted = cells.get(f.columnName)?.get(String(row[ROW_KEY]))
    if (formatted && 'text' in formatted) return formatted.text
    if (formatted && 'error' in formatted)
      return (
        <Tooltip title={formatted.error}>
          <span className="custom-list-format-error">{cellText(value)}</span>
        </Tooltip>
      )
    return cellText(value)
  }
  return column
}
