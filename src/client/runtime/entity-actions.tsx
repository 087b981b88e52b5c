import { useMemo, useState, type ReactNode } from 'react'
import { Button, Space } from 'antd'
import { ConfirmLink } from '../components/ConfirmLink.js'
import { PlusOutlined, CheckCircleOutlined, StopOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons'
import type { Action } from '../../shared/generated/entity.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { ACTION_OPERATION, hasOperation, operationKeys, type BuiltinAction } from '../../shared/metadata/operation-keys.js'
import { usePermission } from '../app/session.js'
import ImportDialog from '../components/ImportDialog.js'
import { useFeedback } from '../components/feedback.js'
import { term, useTr } from '../i18n/use-tr.js'
import { entityApi, type EntityRow } from './entity-api.js'
import type { FormMode } from './form-schema.js'
import type { ListSource } from './list-source.js'
import { actionOffered, rowActionHandler, useRowActionRegistry } from './row-actions.js'
import { useBatchConfirm } from './batch-confirm.js'
import { actionVerb } from './action-verb.js'

/** What the entity's buttons use of the list they sit on. */
export interface ActionsContext {
  selected: string[]
  setSelected: (update: (ids: string[]) => string[]) => void
  reload: () => void
}

export interface EntityActions {
  /** The declared toolbar, in its order; 导出 takes the place of `export`. */
  toolbar: ReactNode[]
  /** A batch button is shown, so rows can be chosen. */
  batch: boolean
  rowActions?: { width: number; render: (row: EntityRow) => ReactNode }
  /** The import dialog and what a custom row action opens. */
  after: ReactNode
}

type BatchAction = 'enableBatch' | 'unableBatch' | 'deleteBatch'
const BATCH_VERB: Record<BatchAction, string> = { enableBatch: term('启用'), unableBatch: term('停用'), deleteBatch: term('删除') }
const isBatch = (a: Action): a is BatchAction => a === 'enableBatch' || a === 'unableBatch' || a === 'deleteBatch'

/**
 * The buttons and row links an entity's list view declares (`toolbar`, `row`), each shown only when
 * the API has the call and the user holds its permission, run through the entity's call family.
 * None when the list has no entity.
 */
export function useEntityActions(
  entity: EntityModel | undefined,
  actions: ListSource['actions'],
  list: ActionsContext,
  exportButton: ReactNode,
  onOpen?: (mode: FormMode, row?: EntityRow) => void,
): EntityActions | undefined {
  const tr = useTr()
  const { message } = useFeedback()
  const { confirmBatch } = useBatchConfirm()
  const can = usePermission()
  useRowActionRegistry()
  const [actionNode, setActionNode] = useState<ReactNode>(null)
  const [importing, setImporting] = useState(false)
  const api = useMemo(() => (entity?.file.api ? entityApi(entity) : undefined), [entity])
  if (!entity || !api || !actions) return undefined
  const { selected, setSelected, reload } = list

  const allowed = (op: Parameters<typeof hasOperation>[1]) => hasOperation(entity, op) && can(operationKeys(entity, op))
  const builtin = (a: Action): a is BuiltinAction => typeof a === 'string'
  const toolbar = actions.toolbar.filter(builtin).filter((a) => allowed(ACTION_OPERATION[a]))

  const runBatch = (action: BatchAction) => {
    const verb = BATCH_VERB[action]
    const run = (ids: string[]) => (action === 'enableBatch' ? api.enable(ids) : action === 'unableBatch' ? api.unable(ids) : api.remove(ids))
    confirmBatch(selected, verb, run, tr(`${verb}成功！`), () => {
      setSelected(() => [])
      reload()
    })
  }

  const toolbarButton = (a: BuiltinAction) => {
    switch (a) {
      case 'add':
        return (
          <Button key={a} type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => onOpen?.('add')}>
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
        return exportButton
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

  const rowActions = actions.row.filter((a) => {
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
          <Button key={a} type="link" size="small" onClick={() => onOpen?.('modify', row)}>
            {tr(actionVerb(entity, 'modify'))}
          </Button>
        )
      case 'detail':
        return (
          <Button key={a} type="link" size="small" onClick={() => onOpen?.('detail', row)}>
            {tr(actionVerb(entity, 'detail'))}
          </Button>
        )
      case 'delete':
        return (
          <ConfirmLink key={a} title={tr('确定删除该数据？')} onConfirm={() => removeOne(row)}>
            {tr('删除')}
          </ConfirmLink>
        )
      default:
        return null
    }
  }

  return {
    toolbar: toolbar.map(toolbarButton),
    batch: toolbar.some(isBatch),
    rowActions: rowActions.length
      ? { width: Math.max(90, rowActions.length * 56), render: (row) => <Space size={0}>{rowActions.map((a) => rowLink(a, row))}</Space> }
      : undefined,
    after: (
      <>
        {actionNode}
        {toolbar.includes('import') && <ImportDialog entity={entity} open={importing} onClose={() => setImporting(false)} onImported={reload} />}
      </>
    ),
  }
}
