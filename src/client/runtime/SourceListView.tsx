import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { Table } from 'antd'
import type { ColumnType } from 'antd/es/table'
import useSWR from 'swr'
import { api, download, type Page } from '../api/http.js'
import { useMeta, type Meta } from '../api/meta.js'
import { usePermission } from '../app/session.js'
import { ExportButton } from '../components/ExportButton.js'
import { useTr } from '../i18n/use-tr.js'
import ListFrame from './ListFrame.js'
import type { ListContext } from './ListView.js'
import { renderCell, SEQ_WIDTH } from './list-columns.js'
import { sourceFields, sourceSearchItems, type ListSource, type SourceColumn } from './list-source.js'
import { tablePagination, usePageState } from '../components/pager.js'
import { initialSearchValues, toWireQuery } from './query-params.js'

export type SourceRow = Record<string, unknown>

export interface SourceListViewProps<Row extends SourceRow> {
  source: ListSource
  /** Conditions of the page's own state (a tab, a side), sent with the source's fixed params; a search input of the same name wins. */
  params?: Record<string, unknown>
  /** Cells the page draws itself (a link that opens the row, a tag), by column key. */
  render?: Partial<Record<string, (row: Row, ctx: ListContext) => ReactNode>>
  /** The links of the 操作 column. */
  rowActions?: (row: Row, ctx: ListContext) => ReactNode
  rowActionsWidth?: number
  /** The toolbar's buttons (导出 follows when the source declares it); false for one not shown. */
  toolbar?: (ctx: ListContext) => ReactNode[]
  /** Rows can be chosen for the toolbar's buttons. */
  selectable?: boolean
  /** Over the search card (figures, reminders). */
  before?: ReactNode
  /** Over the toolbar (tabs). */
  header?: ReactNode
  /** After the cards (the page's dialogs and drawers). */
  after?: ReactNode
  /** Bumped by the page after a change so the rows are fetched again. */
  version?: number
  /** Fetch again when the window regains focus (rows another page changes, e.g. a claim approved on its detail page). */
  refreshOnFocus?: boolean
  emptyText?: string
  className?: string
}

/**
 * The list screen of a declared source (`src/client/views/`): the engine's search form from its query
 * params, a paged table of its columns, 导出 when declared, and what the page adds (row links, toolbar,
 * tabs). The entity lists (ListView) are the same frame over `{entity}/query`.
 */
export default function SourceListView<Row extends SourceRow>(props: SourceListViewProps<Row>) {
  const meta = useMeta()
  return meta ? <SourceList meta={meta} {...props} /> : null
}

function SourceList<Row extends SourceRow>({
  meta,
  source,
  params: pageParams,
  render = {},
  rowActions,
  rowActionsWidth,
  toolbar,
  selectable,
  before,
  header,
  after,
  version = 0,
  refreshOnFocus = false,
  emptyText,
  className,
}: SourceListViewProps<Row> & { meta: Meta }) {
  const tr = useTr()
  const can = usePermission()
  const fields = useMemo(() => sourceFields(source, meta, tr), [source, meta, tr])
  const items = useMemo(() => sourceSearchItems(source, fields, meta, can), [fields, source, meta, can])
  const [query, setQuery] = useState(() => toWireQuery(items, initialSearchValues(items), 'list'))
  const [page, setPage] = usePageState()
  const [selected, setSelected] = useState<string[]>([])
  // 查询 fetches again even when the conditions are unchanged (the user wants fresh rows).
  const [searchCount, setSearchCount] = useState(0)
  // Another tab or side of the page starts at its first page with nothing chosen.
  const pageKey = JSON.stringify([source.path, pageParams ?? {}])
  const [shownKey, setShownKey] = useState(pageKey)
  if (shownKey !== pageKey) {
    setShownKey(pageKey)
    setPage((p) => ({ ...p, index: 1 }))
    setSelected([])
  }
  // A page's params are defaults: a search input of the same name that carries a value wins.
  const conditions = { ...source.params, ...pageParams, ...Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) }
  const params = { ...conditions, pageIndex: page.index, pageSize: page.size }
  const { method = 'get', path } = source
  const { data, isLoading, mutate } = useSWR(
    [source.name, path, JSON.stringify(params), version, searchCount],
    () => (method === 'get' ? api.get<Page<Row>>(path, params) : api.post<Page<Row>>(path, params)),
    { keepPreviousData: true, revalidateOnFocus: refreshOnFocus },
  )
  const reload = useCallback(() => void mutate(), [mutate])
  const ctx: ListContext = { selected, clearSelection: () => setSelected([]), reload, query: conditions }

  const search = (values: Record<string, unknown>) => {
    setQuery(toWireQuery(items, values, 'list'))
    setPage((p) => ({ ...p, index: 1 }))
    setSelected([])
    setSearchCount((n) => n + 1)
  }

  const column = (declared: string | SourceColumn): ColumnType<Row> => {
    const c = typeof declared === 'string' ? { key: declared } : declared
    const field = fields.get(c.key)
    const own = render[c.key]
    const cell = own ? (row: Row) => own(row, ctx) : field ? (row: Row) => renderCell(field, row, meta.enums) : undefined
    return {
      key: c.key,
      dataIndex: c.key,
      title: c.title ? tr(c.title) : (field?.label ?? c.key),
      width: c.width,
      align: c.numeric ? 'right' : undefined,
      ellipsis: c.ellipsis ?? true,
      render: cell ? (_v: unknown, row: Row) => cell(row) : undefined,
    }
  }
  const seq: ColumnType<Row> = {
    key: '__seq',
    title: tr('序号'),
    width: SEQ_WIDTH,
    align: 'center',
    render: (_v, _r, i) => (page.index - 1) * page.size + i + 1,
  }
  const columns = [...(source.seq === false ? [] : [seq]), ...source.columns.map(column)]
  if (rowActions)
    columns.push({ key: '__actions', title: tr('操作'), fixed: 'right', width: rowActionsWidth ?? 150, render: (_v, row) => rowActions(row, ctx) })

  const exporting = source.export
  const buttons = [
    ...(toolbar?.(ctx) ?? []),
    exporting && can(exporting.permission) && (
      <ExportButton key="export" run={() => download(exporting.method, exporting.path, { query: conditions })} />
    ),
  ]
  const keys = typeof source.rowKey === 'string' ? [source.rowKey] : (source.rowKey ?? ['id'])
  return (
    <ListFrame className={className ?? source.name} items={items} onSearch={search} before={before} header={header} toolbar={buttons} after={after}>
      <Table<Row>
        rowKey={(row) => keys.map((k) => String(row[k])).join('-')}
        size={source.size ?? 'middle'}
        bordered
        columns={columns}
        dataSource={data?.datas ?? []}
        loading={isLoading}
        scroll={{ x: 'max-content' }}
        locale={emptyText ? { emptyText } : undefined}
        rowSelection={selectable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } : undefined}
        pagination={tablePagination(page, data?.totalCount ?? 0, setPage)}
      />
    </ListFrame>
  )
}
