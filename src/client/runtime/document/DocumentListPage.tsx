import { useMemo, useState, type ReactNode } from 'react'
import { Button, Result, Space, Spin } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import { CheckCircleOutlined, CloseCircleOutlined, DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import { hasApproval } from '../../../shared/metadata/document-model.js'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FRESH_OPENING } from '../../app/tab-store.js'
import { flattenFunctions, useMenus } from '../../app/menus.js'
import { listPathOf } from './document-menus.js'
import { MADE_FROM_PARAM } from './continuation.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { useBatchConfirm } from '../batch-confirm.js'
import ListView, { type ListContext } from '../ListView.js'
import RefuseDialog from './RefuseDialog.js'
import { documentCallsOf } from './document-api.js'
import { declaredCalls } from '../../../shared/contracts/document-calls.js'
import { documentsChanged, useDocumentsVersion } from './document-events.js'
import { documentPath, type DocumentMode } from './document-routes.js'
import { isEditableStatus } from './document-status.js'
import { rowActionsFor, type ListRowAction } from './document-features.js'
import { download } from '../../api/http.js'
import { call, callRequest } from '../../api/call.js'
import ImportDialog from '../../components/ImportDialog.js'
import { rowActionHandler, useRowActionRegistry } from '../row-actions.js'
import { hasOperation } from '../../../shared/metadata/operation-keys.js'
import { importToolbarActions } from '../../../shared/metadata/import-actions.js'
import { useTr } from '../../i18n/use-tr.js'
import { ExportButton } from '../../components/ExportButton.js'
import PrintButton from './PrintButton.js'

export interface DocumentListPageProps {
  entityName: string
  /** The list's own path; the document pages are below it (`{listPath}/add`, `{listPath}/modify/{id}`…). */
  listPath: string
}

/** The list of a document kind: the file's list view with status tags, approval and batch buttons, and links by status. */
export default function DocumentListPage({ entityName, listPath }: DocumentListPageProps) {
  const tr = useTr()
  const meta = useMeta()
  if (!meta) return <Spin style={{ display: 'block', padding: 48 }} />
  const entity = meta.entityOrUndefined(entityName)
  if (!entity?.file.document || !entity.file.api) return <Result status="404" title="404" subTitle={tr(`未知的单据：${entityName}`)} />
  return (
    <FeedbackProvider>
      <DocumentList key={entity.name} meta={meta} entity={entity} listPath={listPath} />
    </FeedbackProvider>
  )
}

function DocumentList({ meta, entity, listPath }: { meta: Meta; entity: EntityModel; listPath: string }) {
  const tr = useTr()
  const { message, modal } = useFeedback()
  const navigate = useNavigate()
  const can = usePermission()
  const version = useDocumentsVersion(entity.name)
  const calls = useMemo(() => documentCallsOf(entity), [entity])
  const key = (action: string) => [`${entity.file.api!.permission}:${action}`]
  const [refusing, setRefusing] = useState<{ ids: string[]; ctx: ListContext } | null>(null)
  /** The open import dialog: the list's `import` (no path), or a further one of the toolbar (`import/…`). */
  const [importing, setImporting] = useState<{ path?: string; title?: string } | null>(null)
  const imports = importToolbarActions(entity.file).filter((a) => can(a.permission ? [a.permission] : key('import')))
  const [actionNode, setActionNode] = useState<ReactNode>(null)
  useRowActionRegistry()

  // Documents without approval (pre-take-stock sheets, logistics sheets) offer no approval buttons.
  const approval = hasApproval(entity.file.document!)

  // 新增 is a new document every time, never the one left half-typed in its tab.
  const open = (mode: DocumentMode, row?: EntityRow) => navigate(documentPath(listPath, mode, row?.id), mode === 'add' ? { state: FRESH_OPENING } : undefined)
  const editable = (row: EntityRow) => isEditableStatus(row.status)
  // 结算 of a check sheet: the add page of the document made from this row (`make`), below that document's menu.
  const { data: menus } = useMenus()
  const entries = useMemo(() => flattenFunctions(menus), [menus])
  const makePath = (action: ListRowAction) => {
    const target = action.make ? meta.entityOrUndefined(action.make) : undefined
    return target ? listPathOf(target, entries) : undefined
  }

  const { withSelection: choose, confirmBatch } = useBatchConfirm()
  const withSelection = (ctx: ListContext, verb: string, then: (ids: string[]) => void) => choose(ctx.selected, verb, then)
  /** The chosen rows, or none after saying that none is chosen. */
  const chosen = (ctx: ListContext, verb: string): string[] => {
    let ids: string[] = []
    withSelection(ctx, verb, (picked) => (ids = picked))
    return ids
  }
  const batch = (ctx: ListContext, verb: string, run: (ids: string[]) => Promise<unknown>, done: string) =>
    confirmBatch(ctx.selected, verb, run, done, () => {
      ctx.clearSelection()
      ctx.reload()
    })

  const toolbar = (ctx: ListContext) => (
    <>
      {can(key('add')) && (
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => open('add')}>
          {tr('新增')}
        </Button>
      )}
      {approval && can(key('approve')) && (
        <>
          <Button icon={<CheckCircleOutlined aria-hidden />} onClick={() => batch(ctx, tr('审核通过'), (ids) => call(calls.approvePassBatch, { ids }), tr('审核通过！'))}>
            {tr('批量审核通过')}
          </Button>
          <Button icon={<CloseCircleOutlined aria-hidden />} onClick={() => withSelection(ctx, tr('审核拒绝'), (ids) => setRefusing({ ids, ctx }))}>
            {tr('批量审核拒绝')}
          </Button>
        </>
      )}
      {can(key('delete')) && (
        <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => batch(ctx, tr('删除'), (ids) => call(calls.removeBatch, ids), tr('删除成功！'))}>
          {tr('批量删除')}
        </Button>
      )}
      <PrintButton kind={entity.name} label={tr('批量打印')} ids={() => chosen(ctx, tr('打印'))} />
      {can(key('export')) && (
        <ExportButton run={() => download('post', calls.export.path, callRequest(calls.export, ctx.query))} />
      )}
      {hasOperation(entity, 'import') && can(key('import')) && (
        <Button icon={<UploadOutlined aria-hidden />} onClick={() => setImporting({})}>
          {tr('导入')}
        </Button>
      )}
      {imports.map((a) => (
        <Button key={a.key} icon={<UploadOutlined aria-hidden />} onClick={() => setImporting({ path: `${entity.file.api!.base}/${a.key}`, title: a.label })}>
          {a.label}
        </Button>
      ))}
    </>
  )

  const removeOne = async (row: EntityRow, ctx: ListContext) => {
    try {
      await call(calls.remove, { id: row.id })
      message.success(tr('删除成功！'))
      ctx.reload()
    } catch {
      // Shown by the api layer.
    }
  }

  /** 取消审核, 提前结束, 收货, 发货…: a confirmation then the call, the action's page, or a feature's dialog. */
  const extra = (action: ListRowAction, row: EntityRow, ctx: ListContext) => {
    if (action.page) return open(action.page, row)
    const made = makePath(action)
    if (made) return navigate(`${documentPath(made, 'add')}?${new URLSearchParams({ [MADE_FROM_PARAM]: row.id })}`, { state: FRESH_OPENING })
    if (action.key) {
      const reload = () => {
        documentsChanged(entity.name)
        ctx.reload()
      }
      const node = rowActionHandler(entity.name, action.key)?.(row, reload, () => setActionNode(null))
      if (node) setActionNode(node)
      return
    }
    const rowCall = declaredCalls.rowAction(action.call!)
    modal.confirm({
      title: tr('提示'),
      content: action.confirm,
      okText: tr('确定'),
      cancelText: tr('取消'),
      onOk: async () => {
        try {
          await call(rowCall, { id: row.id })
          message.success(action.done ?? tr('操作成功！'))
          documentsChanged(entity.name)
          ctx.reload()
        } catch {
          // The api layer has shown the server's message.
        }
      },
    })
  }

  const rowActions = (row: EntityRow, ctx: ListContext) => (
    <Space size={0}>
      <Button type="link" size="small" onClick={() => open('detail', row)}>
        {tr('查看')}
      </Button>
      {editable(row) && can(key('modify')) && (
        <Button type="link" size="small" onClick={() => open('modify', row)}>
          {tr('修改')}
        </Button>
      )}
      {approval && editable(row) && can(key('approve')) && (
        <Button type="link" size="small" onClick={() => open('approve', row)}>
          {tr('审核')}
        </Button>
      )}
      {editable(row) && can(key('delete')) && (
        <ConfirmLink title={tr('确定删除该数据？')} onConfirm={() => removeOne(row, ctx)}>
          {tr('删除')}
        </ConfirmLink>
      )}
      {rowActionsFor(entity.file, row)
        .filter((a) => can([a.permission]) && (!a.key || rowActionHandler(entity.name, a.key)) && (!a.make || makePath(a)))
        .map((a) => (
          <Button key={a.label} type="link" size="small" onClick={() => extra(a, row, ctx)}>
            {a.label}
          </Button>
        ))}
    </Space>
  )

  return (
    <>
      <ListView
        meta={meta}
        entity={entity}
        version={version}
        onOpen={(mode, row) => open(mode, row)}
        renderToolbar={toolbar}
        renderRowActions={rowActions}
        rowActionsWidth={260}
      />
      {actionNode}
      <ImportDialog
        entity={entity}
        open={Boolean(importing)}
        path={importing?.path}
        title={importing?.title}
        rule={tr('按模板“说明”页的规则导入：有误的单据不导入并列出出错的行号，其余照常导入。')}
        onClose={() => {
          setImporting(null)
          // Grouped imports may have written some documents even when others were refused.
          documentsChanged(entity.name)
        }}
        onImported={() => documentsChanged(entity.name)}
      />
      <RefuseDialog
        open={Boolean(refusing)}
        onCancel={() => setRefusing(null)}
        onConfirm={async (reason) => {
          if (!refusing) return
          await call(calls.approveRefuseBatch, { ids: refusing.ids, refuseReason: reason })
          message.success(tr('审核拒绝！'))
          refusing.ctx.clearSelection()
          refusing.ctx.reload()
          setRefusing(null)
        }}
      />
    </>
  )
}
