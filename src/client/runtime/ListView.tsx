import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react'
import { Result, Table } from 'antd'
import type { ColumnType } from 'antd/es/table'
import type { SorterResult, TableRowSelection } from 'antd/es/table/interface'
import { download } from '../api/http.js'
import { useMeta, type Meta } from '../api/meta.js'
import { usePermission } from '../app/session.js'
import { useSessionRead } from '../app/use-call.js'
import { call } from '../api/call.js'
import type { PageRows } from '../../shared/contracts/call.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { ExportButton } from '../components/ExportButton.js'
import { tablePagination, usePageState } from '../components/pager.js'
import { useTr } from '../i18n/use-tr.js'
import type { EntityRow } from './entity-api.js'
import { useEntityActions } from './entity-actions.js'
import { entitySource } from './entity-source.js'
import type { FormMode } from './form-schema.js'
import ListFrame from './ListFrame.js'
import { fitListColumns } from './column-fit.js'
import { SEQ_WIDTH, tableColumn } from './list-columns.js'
import { sourceCall, sourceFields, sourceParams, sourceSearchItems, type ListSource, type SortState } from './list-source.js'
import { initialSearchValues, toWireQuery } from './query-params.js'
import { buildTree, parentKeys, type TreeRow } from './tree-rows.js'
import { cardColumn } from './list-cards.js'
import { useNarrowScreen } from '../app/narrow-screen.js'
import { useFittedRowsHeight } from './table-height.js'
import { scrollbarWidth } from './scrollbar-width.js'
import { textWidth } from './text-width.js'
import { useBoxWidth } from './use-box-width.js'

export type ListRow = Record<string, unknown>

/** The width of the tick (or radio) column of rows that can be chosen. */
const SELECTION_WIDTH = 40
/** A heading's padding and border beside its text, and the sort arrows of a sortable one. */
const HEADING_CHROME = 34
const SORTER_WIDTH = 22

/** What a page's own toolbar and row links may use of the list. */
export interface ListContext {
  selected: string[]
  clearSelection: () => void
  reload: () => void
  /** The conditions of the current search, as sent (for exports). */
  query: Record<string, unknown>
}

export type ListViewProps<Row extends ListRow> = (
  | { source: ListSource; entity?: undefined }
  /** An entity's list, its source derived from its file (the model may be narrowed, e.g. to one parent). */
  | { entity: EntityModel; source?: undefined }
) &
  ListOptions<Row>

interface ListOptions<Row extends ListRow> {
  /** The metadata when the page has it already. */
  meta?: Meta
  /** Conditions of the page's own state (a tab, a side, a parent), sent with the source's fixed params; a search input of the same name wins. */
  params?: Record<string, unknown>
  /** Cells the page draws itself (a link that opens the row, a tag), by column key. */
  render?: Partial<Record<string, (row: Row, ctx: ListContext) => ReactNode>>
  /** An entity's 新增, 修改 and 详情. */
  onOpen?: (mode: FormMode, row?: EntityRow) => void
  /** The page's toolbar, in place of an entity's declared one (its rows become selectable); a declared view's 导出 follows it. */
  renderToolbar?: (ctx: ListContext) => ReactNode | ReactNode[]
  /** The page's row links, in place of the entity's declared ones. */
  renderRowActions?: (row: Row, ctx: ListContext) => ReactNode
  rowActionsWidth?: number
  /** The column that titles a row's card on a phone (the first column otherwise). */
  cardTitle?: string
  /** Rows can be chosen for the toolbar's buttons. */
  selectable?: boolean
  /** Rows are chosen one (radio; a click on the row chooses it) or several (checkboxes), kept across pages (a picker, a custom list of that type). */
  choose?: 'single' | 'multiple'
  /** The chosen rows, whenever they change. */
  onChoose?: (rows: Row[]) => void
  /** Rows chosen when the list opens (a picker's current value). */
  chosen?: readonly Row[]
  /** Keys of rows shown chosen and not to be unticked (already taken elsewhere). */
  taken?: ReadonlySet<string>
  /** The accessible name of a row's tick box. */
  chooseLabel?: (row: Row) => string
  onRowDoubleClick?: (row: Row) => void
  /** A click marks the row as the current one (highlighted). */
  highlightCurrent?: boolean
  /** The rows' own height (a CSS length): they scroll under a fixed header (a list inside a dialog that must fit the window). */
  scrollY?: string | number
  /** The rows grow with the list instead of scrolling under their header in the height the page leaves (a list in a dialog). */
  rowsGrow?: boolean
  /** A class of the row's own (dimmed rows of a tree search). */
  rowClassName?: (row: Row) => string | undefined
  /** The page's own search form in place of the source's inputs: it hands over the conditions as sent. */
  search?: { initial: Record<string, unknown>; form: (onSearch: (query: Record<string, unknown>) => void) => ReactNode }
  /** Rows as fetched, made ready before they are shown (a custom list runs its formatter scripts). */
  prepareRows?: (rows: Row[]) => Promise<Row[]>
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
 * Every list screen: a source (an entity's list view or a declared view in `src/client/views/`) gives
 * the call, the search form, the columns, the order, the tree and the entity's own buttons; the page
 * adds what is its own (row links, toolbar, tabs, dialogs).
 */
function ListView<Row extends ListRow = EntityRow>(props: ListViewProps<Row>) {
  const loaded = useMeta()
  const meta = props.meta ?? loaded
  const { entity } = props
  const source = useMemo(() => props.source ?? entitySource(entity!), [props.source, entity])
  return meta ? <SourceList<Row> {...props} meta={meta} source={source} /> : null
}

// A page's own state (its form dialog open or closed) does not render its page of rows again when the list's props hold.
export default memo(ListView) as <Row extends ListRow = EntityRow>(props: ListViewProps<Row>) => ReactElement | null

function SourceList<Row extends ListRow>({
  meta,
  source,
  entity: given,
  params: pageParams,
  render = {},
  onOpen,
  renderToolbar,
  renderRowActions,
  rowActionsWidth,
  cardTitle,
  selectable,
  choose,
  onChoose,
  chosen: initialChosen,
  taken,
  chooseLabel,
  onRowDoubleClick,
  highlightCurrent,
  rowClassName,
  scrollY,
  rowsGrow,
  search: ownSearch,
  prepareRows,
  before,
  header,
  after,
  version = 0,
  refreshOnFocus = false,
  emptyText,
  className,
}: ListOptions<Row> & { meta: Meta; source: ListSource; entity?: EntityModel }) {
  const tr = useTr()
  const can = usePermission()
  const narrow = useNarrowScreen()
  const fields = useMemo(() => sourceFields(source, meta, tr), [source, meta, tr])
  const items = useMemo(() => sourceSearchItems(source, fields, meta, can), [fields, source, meta, can])
  const context = source.context ?? 'list'
  const [query, setQuery] = useState(() => ownSearch?.initial ?? toWireQuery(items, initialSearchValues(items), context))
  const [page, setPage] = usePageState()
  const [sort, setSort] = useState<SortState | undefined>(source.sort)
  const [selected, setSelected] = useState<string[]>([])
  // The chosen rows by key: a page shows some of them only.
  const [chosenRows, setChosenRows] = useState<Map<string, Row>>(() => new Map((initialChosen ?? []).map((r) => [rowKeyOf(source, r), r])))
  const [current, setCurrent] = useState<string>()
  // Another tab or side of the page starts at its first page with nothing chosen.
  const contract = useMemo(() => sourceCall(source), [source])
  const pageKey = JSON.stringify([source.name, contract.path, source.params ?? {}, pageParams ?? {}])
  const [shownKey, setShownKey] = useState(pageKey)
  if (shownKey !== pageKey) {
    setShownKey(pageKey)
    setPage((p) => ({ ...p, index: 1 }))
    setSelected([])
    setChosenRows(new Map())
  }
  const listable = source.permission !== false && can(source.permission)
  const paged = source.paged !== false
  // A page's params are defaults: a search input of the same name that carries a value wins.
  const asked = {
    ...pageParams,
    ...Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')),
    ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}),
  }
  const conditions = { ...source.params, ...asked }
  const params = sourceParams(contract, source.params, { ...asked, ...(paged ? { pageIndex: page.index, pageSize: page.size } : {}) })
  // Keyed by the source's name and entity first: pages reload a list by them after a write elsewhere.
  const { data, isLoading, mutate } = useSessionRead(
    listable ? [source.name, source.entity ?? '', contract.path, JSON.stringify(params)] : null,
    async () => {
      const answer = (await call(contract, params)) as PageRows<Row> | Row[]
      if (!prepareRows) return answer
      return Array.isArray(answer) ? prepareRows(answer) : { ...answer, datas: await prepareRows(answer.datas) }
    },
    { keepPreviousData: true, revalidateOnFocus: refreshOnFocus },
  )
  const reload = useCallback(() => void mutate(), [mutate])
  // The page's change (a save, an approval) fetches the same conditions again.
  const shownVersion = useRef(version)
  useEffect(() => {
    if (shownVersion.current === version) return
    shownVersion.current = version
    reload()
  }, [version, reload])
  const rows = useMemo(() => (Array.isArray(data) ? data : (data?.datas ?? [])), [data])
  const total = Array.isArray(data) ? data.length : (data?.totalCount ?? 0)
  const treeOf = source.tree
  const tree = useMemo(() => (treeOf ? buildTree(rows, treeOf.parentField, treeOf.idField) : undefined), [rows, treeOf])
  const [expanded, setExpanded] = useState<string[]>([])
  useEffect(() => {
    if (tree) setExpanded(treeOf?.expanded === false ? [] : parentKeys(tree, treeOf?.idField))
  }, [tree, treeOf])
  const ctx: ListContext = { selected, clearSelection: () => setSelected([]), reload, query: conditions }
  // A list page's rows scroll under their header so the pager stays in sight (000 §9 default table height);
  // on a phone the page scrolls, as its card rows do. The same box gives the width the columns are fitted to.
  const pageRows = listable && scrollY === undefined && !narrow && !rowsGrow
  const [tableBox, width] = useBoxWidth(pageRows ? 'page-list' : undefined)
  const fittedY = useFittedRowsHeight(tableBox, Boolean(ownSearch || items.length > 0), pageRows)

  const search = (values: Record<string, unknown>) => {
    applySearch(toWireQuery(items, values, context))
    setSelected([])
  }
  // 查询 fetches again even when the conditions are unchanged (the user wants fresh rows).
  const applySearch = (next: Record<string, unknown>) => {
    if (JSON.stringify(next) === JSON.stringify(query) && page.index === 1) reload()
    setQuery(next)
    setPage((p) => ({ ...p, index: 1 }))
  }

  const exporting = source.export
  const exportButton = exporting && can(exporting.permission) && (
    <ExportButton key="export" run={() => download(exporting.method, exporting.path, { query: conditions })} />
  )
  const model = given ?? (source.actions && source.entity ? meta.entityOrUndefined(source.entity) : undefined)
  const actions = useEntityActions(model, source.actions, { selected, setSelected, reload }, exportButton, onOpen)

  const column = (declared: ListSource['columns'][number]): ColumnType<Row> => {
    const c = typeof declared === 'string' ? { key: declared } : declared
    const field = fields.get(c.key)
    const own = render[c.key]
    return tableColumn<Row>(c, {
      field,
      title: c.title ? tr(c.title) : (field?.label ?? c.key),
      enums: meta.enums,
      sort,
      cell: own && ((row: Row) => own(row, ctx)),
    })
  }
  const seq: ColumnType<Row> = {
    key: '__seq',
    title: tr('序号'),
    width: tree ? SEQ_WIDTH + 20 : SEQ_WIDTH,
    align: 'center',
    fixed: 'left',
    render: (_v, row, i) => (tree ? (row as unknown as TreeRow<Row>).__seq : (page.index - 1) * page.size + i + 1),
  }
  const rowLinks: ((row: Row) => ReactNode) | undefined = renderRowActions
    ? (row) => renderRowActions(row, ctx)
    : actions?.rowActions && ((row) => actions.rowActions!.render(row as unknown as EntityRow))
  // A phone shows a flat list as cards (a tree keeps its outline of columns, scrolling inside the table).
  const cards = narrow && !tree
  const columns = cards ? [cardColumn(source.columns.map(column), rowLinks, cardTitle)] : [...(source.seq === false ? [] : [seq]), ...source.columns.map(column)]
  if (rowLinks && !cards)
    columns.push({ key: '__actions', title: tr('操作'), fixed: 'right', width: renderRowActions ? (rowActionsWidth ?? 180) : actions?.rowActions?.width, render: (_v, row) => rowLinks(row) })

  if (!listable) return <Result status="403" title="403" subTitle={tr('抱歉，您无权访问此页面')} />

  const own = renderToolbar?.(ctx)
  // The page's toolbar replaces an entity's declared one (导出 included); a declared view's 导出 follows the page's buttons.
  const toolbar = actions && !renderToolbar ? actions.toolbar : [...(Array.isArray(own) ? own : [own]), !actions && exportButton]
  // An entity's batch buttons, and a page's toolbar in place of an entity's (documents), act on chosen rows.
  const choosing = selectable || Boolean(actions && (renderToolbar || actions.batch))
  const keyOf = (row: Row) => rowKeyOf(source, row)
  const chooseRows = (next: Map<string, Row>) => {
    setChosenRows(next)
    onChoose?.([...next.values()])
  }
  // antd hands over the keys of every page and the rows of this one: the others are remembered.
  const chooseKeys = (ids: React.Key[], shownRows: Row[]) => {
    const byKey = new Map(shownRows.filter(Boolean).map((r) => [keyOf(r), r]))
    const next = new Map<string, Row>()
    for (const id of ids.map(String)) {
      const row = byKey.get(id) ?? chosenRows.get(id)
      if (row && !taken?.has(id)) next.set(id, row)
    }
    chooseRows(next)
  }
  const rowSelection: TableRowSelection<Row> | undefined = choose
    ? {
        type: choose === 'single' ? 'radio' : 'checkbox',
        selectedRowKeys: [...(taken ?? []), ...chosenRows.keys()],
        preserveSelectedRowKeys: true,
        onChange: chooseKeys,
        getCheckboxProps: (row) => ({ disabled: taken?.has(keyOf(row)), 'aria-label': chooseLabel?.(row) }),
        columnWidth: SELECTION_WIDTH,
      }
    : choosing
      ? { selectedRowKeys: selected, onChange: (ids) => setSelected(ids.map(String)), checkStrictly: true, columnWidth: SELECTION_WIDTH }
      : undefined
  // Declared widths fitted to the card, as line tables are (column-fit.ts): the border, the tick column and
  // the scrollbar of rows that scroll under their header take their share.
  const rowsHeight = cards ? scrollY : (scrollY ?? fittedY)
  const besides = 2 + (rowSelection ? SELECTION_WIDTH : 0) + (rowsHeight !== undefined ? scrollbarWidth() : 0)
  const fitted = fitListColumns(columns, width > 0 ? width - besides : 0, (c) =>
    typeof c.title === 'string' ? textWidth(c.title, '600') + HEADING_CHROME + (c.sorter ? SORTER_WIDTH : 0) : 0,
  )
  const withRowEvents = Boolean(highlightCurrent || onRowDoubleClick || choose)
  // A click on a row chooses it (one) or ticks and unticks it (several), as its radio or tick box would.
  const clickToChoose = (row: Row) => {
    const key = keyOf(row)
    if (!choose || taken?.has(key)) return
    if (choose === 'single') return chooseRows(new Map([[key, row]]))
    const next = new Map(chosenRows)
    if (next.has(key)) next.delete(key)
    else next.set(key, row)
    chooseRows(next)
  }
  return (
    <ListFrame
      className={className ?? source.name}
      items={items}
      search={ownSearch?.form(applySearch)}
      onSearch={search}
      searchForm={source.searchForm}
      before={before}
      header={header}
      toolbar={toolbar}
      after={
        <>
          {actions?.after}
          {after}
        </>
      }
    >
      <div ref={tableBox}>
        <Table<Row>
          rowKey={keyOf}
          size={source.size ?? 'middle'}
          bordered={!cards}
          showHeader={!cards}
          className={cards ? 'list-cards' : undefined}
          columns={cards ? columns : fitted.columns}
          dataSource={(tree as unknown as Row[] | undefined) ?? rows}
          loading={isLoading}
          scroll={cards ? { y: rowsHeight } : { x: fitted.x + (rowSelection ? SELECTION_WIDTH : 0), y: rowsHeight }}
          locale={emptyText ? { emptyText } : undefined}
          rowSelection={rowSelection}
          rowClassName={(row) => [highlightCurrent && keyOf(row) === current ? 'list-current-row' : '', rowClassName?.(row) ?? ''].join(' ').trim()}
          onRow={
            withRowEvents
              ? (row) => ({
                  onClick: () => {
                    setCurrent(keyOf(row))
                    clickToChoose(row)
                  },
                  onDoubleClick: () => onRowDoubleClick?.(row),
                })
              : undefined
          }
          expandable={
            tree
              ? {
                  expandedRowKeys: expanded,
                  onExpandedRowsChange: (ids) => setExpanded(ids.map(String)),
                  // Indent the first data column, not the narrow outline-number column. antd takes one off
                  // this index when there is a selection column, and the body counts that column: hence + 2.
                  expandIconColumnIndex: (source.seq === false ? 0 : 1) + (choosing || choose ? 2 : 0),
                }
              : undefined
          }
          onChange={(_p, _f, sorter, extra) => {
            if (extra.action !== 'sort') return
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row>
            setSort(s.order && s.columnKey ? { field: String(s.columnKey), order: s.order === 'ascend' ? 'asc' : 'desc' } : undefined)
          }}
          pagination={paged ? { ...tablePagination(page, total, setPage), ...(cards ? { size: 'small', showSizeChanger: false } : {}) } : false}
        />
      </div>
    </ListFrame>
  )
}

/** A row's key: its `rowKey` properties joined by '-' (default `id`). */
function rowKeyOf(source: ListSource, row: ListRow): string {
  const keys = typeof source.rowKey === 'string' ? [source.rowKey] : (source.rowKey ?? ['id'])
  return keys.map((k) => String(row[k])).join('-')
}
