import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { Button, Popconfirm, Result, Space, Table } from 'antd'
import { PlusOutlined, CheckCircleOutlined, StopOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import type { SorterResult } from 'antd/es/table/interface'
import useSWR from 'swr'
import type { Meta } from '../api/meta.js'
import { usePermission } from '../app/session.js'
import type { Action } from '../../shared/generated/entity.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import ImportDialog from '../components/ImportDialog.js'
import { entityApi, isUnpaged, type EntityRow } from './entity-api.js'
import { useFeedback } from '../components/feedback.js'
import ListFrame from './ListFrame.js'
import type { FormMode } from './form-schema.js'
import { buildColumns, SEQ_WIDTH, type SortState } from './list-columns.js'
import { ACTION_OPERATION, hasOperation, operationKeys, type BuiltinAction } from '../../shared/metadata/operation-keys.js'
import { tablePagination, usePageState } from '../components/pager.js'
import { initialSearchValues, searchItems, toWireQuery } from './query-params.js'
import { actionOffered, rowActionHandler, useRowActionRegistry } from './row-actions.js'
import { buildTree, parentKeys, type TreeRow } from './tree-rows.js'
import { term, useTr } from '../i18n/use-tr.js'
import { ExportButton } from '../components/ExportButton.js'

export interface ListViewProps {
  meta: Meta
  entity: EntityModel
  /** Bumped by the page after a save so the rows are fetched again. */
  version: number
  onOpen: (mode: FormMode, row?: EntityRow) => void
  /** Conditions sent with every request and not shown in the search form (e.g. the group of a child list). */
  fixedQuery?: Record<string, unknown>
  /** Replaces the toolbar of `views.list.toolbar` (documents bring approval buttons); rows become selectable. */
  renderToolbar?: (ctx: ListContext) => ReactNode
  /** Replaces the row links of `views.list.row` (documents show them by status). */
  renderRowActions?: (row: EntityRow, ctx: ListContext) => ReactNode
  rowActionsWidth?: number
}

/** What a page's own toolbar and row links may use of the list. */
export interface ListContext {
  selected: string[]
  clearSelection: () => void
  reload: () => void
  /** The conditions of the current search, as sent (for exports). */
  query: Record<string, unknown>
}

type BatchAction = 'enableBatch' | 'unableBatch' | 'deleteBatch'
const BATCH_VERB: Record<BatchAction, string> = { enableBatch: term('启用'), unableBatch: term('停用'), deleteBatch: term('删除') }

/**
 * The list screen of an entity: search form from `views.list.query`, toolbar from `toolbar`, table
 * from `columns` (an expanded tree table for tree entities), row links from `row`. Every button is
 * shown only when the API has the call and the user holds its permission.
 */
export default function ListView({ meta, entity, version, onOpen, fixedQuery, renderToolbar, renderRowActions, rowActionsWidth }: ListViewProps) {
  const tr = useTr()
  const { message, modal } = useFeedback()
  const can = usePermission()
  useRowActionRegistry()
  const list = entity.file.views?.list
  const api = useMemo(() => entityApi(entity), [entity])
  const unpaged = isUnpaged(entity)
  const items = useMemo(
    () => searchItems(entity, list?.query ?? [], meta.enums, meta.entityOrUndefined, 'list'),
    [entity, list, meta],
  )
  const [query, setQuery] = useState(() => toWireQuery(items, initialSearchValues(items), 'list'))
  const [page, setPage] = usePageState()
  const [sort, setSort] = useState<SortState | undefined>(
    list?.sort ? { field: list.sort.field, order: list.sort.order ?? 'asc' } : undefined,
  )
  const [selected, setSelected] = useState<string[]>([])
  const [actionNode, setActionNode] = useState<ReactNode>(null)
  const [importing, setImporting] = useState(false)
  // 查询 must fetch again even when the conditions are unchanged (the user wants fresh rows).
  const [searchCount, setSearchCount] = useState(0)

  const allowed = (op: Parameters<typeof hasOperation>[1]) => hasOperation(entity, op) && can(operationKeys(entity, op))
  const listOp = hasOperation(entity, 'query') ? 'query' : 'trees'
  const canList = allowed(listOp)

  const params: Record<string, unknown> = {
    ...query,
    ...fixedQuery,
    ...(unpaged ? {} : { pageIndex: page.index, pageSize: page.size }),
    ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}),
  }
  const { data, isLoading, mutate } = useSWR(
    canList ? ['entity-list', entity.name, JSON.stringify(params), version, searchCount] : null,
    () => api.list(params),
    { keepPreviousData: true, revalidateOnFocus: false },
  )
  const reload = useCallback(() => void mutate(), [mutate])
  const rows = useMemo(() => data?.rows ?? [], [data])
  const tree = useMemo(
    () => (unpaged && entity.parentField ? buildTree(rows, entity.parentField) : undefined),
    [rows, unpaged, entity.parentField],
  )
  const [expanded, setExpanded] = useState<string[]>([])
  useEffect(() => {
    if (tree) setExpanded(list?.treeExpanded === false ? [] : parentKeys(tree))
  }, [tree, list?.treeExpanded])

  const search = (values: Record<string, unknown>) => {
    setQuery(toWireQuery(items, values, 'list'))
    setPage((p) => ({ ...p, index: 1 }))
    setSelected([])
    setSearchCount((n) => n + 1)
  }

  const runBatch = (action: BatchAction) => {
    const verb = BATCH_VERB[action]
    if (!selected.length) {
      message.warning(tr(`请选择要${verb}的数据！`))
      return
    }
    const ids = [...selected]
    modal.confirm({
      title: tr('提示'),
      content: tr(`确定${verb}选中的${ids.length}条数据？`),
      okText: tr('确定'),
      cancelText: tr('取消'),
      onOk: async () => {
        try {
          if (action === 'enableBatch') await api.enable(ids)
          else if (action === 'unableBatch') await api.unable(ids)
          else await api.remove(ids)
          message.success(tr(`${verb}成功！`))
          setSelected([])
          reload()
        } catch {
          // The api layer has shown the server's message.
        }
      },
    })
  }

  const exportRows = () => api.exportFile({ ...query, ...fixedQuery, ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}) })

  const builtin = (a: Action): a is BuiltinAction => typeof a === 'string'
  const toolbar = (list?.toolbar ?? []).filter(builtin).filter((a) => allowed(ACTION_OPERATION[a]))
  const batchable = Boolean(renderToolbar) || toolbar.some((a) => a === 'enableBatch' || a === 'unableBatch' || a === 'deleteBatch')
  const listContext: ListContext = {
    selected,
    clearSelection: () => setSelected([]),
    reload,
    query: { ...query, ...fixedQuery, ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}) },
  }

  const toolbarButton = (a: BuiltinAction) => {
    switch (a) {
      case 'add':
        return (
          <Button key={a} type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => onOpen('add')}>
            {tr('新增')}
          </Button>
        )
      case 'enableBatch':
        return (
          <Button key={a} icon={<CheckCircleOutlined aria-hidden />} onClick={() => runBatch(a)}>
            {tr('启用')}
          </Button>
        )
      case 'unableBatch':
        return (
          <Button key={a} icon={<StopOutlined aria-hidden />} onClick={() => runBatch(a)}>
            {tr('停用')}
          </Button>
        )
      case 'deleteBatch':
        return (
          <Button key={a} danger icon={<DeleteOutlined aria-hidden />} onClick={() => runBatch(a)}>
            {tr('删除')}
          </Button>
        )
      case 'export':
        return (
          <ExportButton key={a} run={exportRows} />
        )
      case 'import':
        return (
          <Button key={a} icon={<UploadOutlined aria-hidden />} onClick={() => setImporting(true)}>
            {tr('导入')}
          </Button>
        )
      default:
        return null
    }
  }

  const removeOne = async (row: EntityRow) => {
    try {
      await api.remove([row.id])
      message.success(tr('删除成功！'))
      setSelected((s) => s.filter((id) => id !== row.id))
      reload()
    } catch {
      // Shown by the api layer.
    }
  }

  const rowActions = (list?.row ?? []).filter((a) => {
    if (typeof a !== 'string') return (!a.permission || can(a.permission)) && Boolean(rowActionHandler(entity.name, a.key))
    return a !== 'import' && allowed(ACTION_OPERATION[a])
  })

  const rowLink = (a: Action, row: EntityRow) => {
    if (typeof a !== 'string') {
      if (a.when && !actionOffered(a.when, row)) return null
      const run = () => {
        const node = rowActionHandler(entity.name, a.key)?.(row, reload, () => setActionNode(null))
        if (node) setActionNode(node)
      }
      return (
        <Button key={a.key} type="link" size="small" danger={a.danger} onClick={run}>
          {a.label}
        </Button>
      )
    }
    switch (a) {
      case 'modify':
        return (
          <Button key={a} type="link" size="small" onClick={() => onOpen('modify', row)}>
            {tr('修改')}
          </Button>
        )
      case 'detail':
        return (
          <Button key={a} type="link" size="small" onClick={() => onOpen('detail', row)}>
            {tr('详情')}
          </Button>
        )
      case 'delete':
        return (
          <Popconfirm key={a} title={tr('确定删除该数据？')} okText={tr('确定')} cancelText={tr('取消')} onConfirm={() => removeOne(row)}>
            <Button type="link" size="small" danger>
              {tr('删除')}
            </Button>
          </Popconfirm>
        )
      default:
        return null
    }
  }

  const seq: ColumnType<EntityRow> = {
    key: '__seq',
    title: tr('序号'),
    width: tree ? SEQ_WIDTH + 20 : SEQ_WIDTH,
    align: 'center',
    fixed: 'left',
    render: (_v, row, i) => (tree ? (row as TreeRow<EntityRow>).__seq : (page.index - 1) * page.size + i + 1),
  }
  const columns: ColumnType<EntityRow>[] = [
    seq,
    ...buildColumns(entity, list?.columns ?? [], meta.enums, { sortable: true, sort }),
  ]
  if (renderRowActions)
    columns.push({
      key: '__actions',
      title: tr('操作'),
      fixed: 'right',
      width: rowActionsWidth ?? 180,
      render: (_v, row) => renderRowActions(row, listContext),
    })
  else if (rowActions.length)
    columns.push({
      key: '__actions',
      title: tr('操作'),
      fixed: 'right',
      width: Math.max(90, rowActions.length * 56),
      render: (_v, row) => <Space size={0}>{rowActions.map((a) => rowLink(a, row))}</Space>,
    })

  if (!canList) return <Result status="403" title="403" subTitle={tr('抱歉，您无权访问此页面')} />

  return (
    <ListFrame
      className="entity-list"
      items={items}
      onSearch={search}
      toolbar={renderToolbar ? [renderToolbar(listContext)] : toolbar.map(toolbarButton)}
      after={
        <>
          {actionNode}
          {toolbar.includes('import') && (
            <ImportDialog entity={entity} open={importing} onClose={() => setImporting(false)} onImported={reload} />
          )}
        </>
      }
    >
      <Table<EntityRow>
        rowKey="id"
        size="middle"
        bordered
        columns={columns}
        dataSource={tree ?? rows}
        loading={isLoading}
        scroll={{ x: 'max-content' }}
        rowSelection={
          batchable
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), checkStrictly: true, columnWidth: 40 }
            : undefined
        }
        expandable={
          tree
            ? {
                expandedRowKeys: expanded,
                onExpandedRowsChange: (keys) => setExpanded(keys.map(String)),
                // Indent the first data column, not the narrow outline-number column. antd takes one off
                // this index when there is a selection column, and the body counts that column: hence 3.
                expandIconColumnIndex: batchable ? 3 : 1,
              }
            : undefined
        }
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action !== 'sort') return
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<EntityRow>
          setSort(s.order && s.columnKey ? { field: String(s.columnKey), order: s.order === 'ascend' ? 'asc' : 'desc' } : undefined)
        }}
        pagination={
          unpaged
            ? false
            : tablePagination(page, data?.total ?? 0, setPage)
        }
      />
    </ListFrame>
  )
}
