import { useCallback, useEffect, useState } from 'react'
import { ADMIN_PERMISSION } from '../../../shared/contracts/permissions.js'
import { Alert, Button, Modal, Space, Spin, Tabs, Typography, theme } from 'antd'
import { useMeta } from '../../api/meta.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { nameOf, useLoad } from '../system/use-load.js'
import { Designer } from './Designer.js'
import { checkTree, findNode, firstInvalid, fromSaved, type DesignerNode, type PaletteItem, type PermissionModelRow } from './tree-rules.js'
import { dataPermission } from '../../../shared/contracts/system.js'
import { call } from '../../api/call.js'


const bizLabel = (bizType: number, tr: (text: string) => string): string => ({ 0: tr('角色'), 1: tr('部门'), 2: tr('用户') })[bizType] ?? ''

export interface DataPermissionDialogProps {
  /** The role, department or user. */
  target: EntityRow
  /** DATA_PERMISSION_BIZ_TYPE: 0 role, 1 dept, 2 user. */
  bizType: number
  onClose: () => void
}

interface ModelTab {
  model: PermissionModelRow
  palette: PaletteItem[]
  tree: DesignerNode[]
}

/**
 * 设置数据权限 of a role, department or user: one tab per permission type (the models: 商品, 单据), each a
 * designer; 预览 checks the open tab and shows its SQL, 确定 checks and saves every tab at once (one
 * invalid tab stops the save and is opened with its message).
 */
export default function DataPermissionDialog({ target, bizType, onClose }: DataPermissionDialogProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const { token } = theme.useToken()
  const meta = useMeta()
  const [open, setOpen] = useState(true)
  const bizId = String(target.id)
  const builtIn = bizType === 0 && String(target.permission ?? '').trim() === ADMIN_PERMISSION

  const { data, error, loading } = useLoad(`data-permission:${bizType}:${bizId}`, async (): Promise<ModelTab[]> => {
    if (builtIn) return []
    // Called without a target, the call answers the models (with one, the saved nodes).
    const models = (await call(dataPermission.models)) as PermissionModelRow[]
    return Promise.all(
      models.map(async (model) => {
        const [palette, saved] = await Promise.all([
          call(dataPermission.palette, { modelId: model.id }),
          call(dataPermission.saved, { bizId, bizType, permissionType: model.id }),
        ])
        return { model, palette, tree: fromSaved(saved.nodes) }
      }),
    )
  })

  const [trees, setTrees] = useState<Record<number, DesignerNode[]>>({})
  const [selected, setSelected] = useState<Record<number, string | null>>({})
  const [invalid, setInvalid] = useState<Record<number, string | undefined>>({})
  const [previews, setPreviews] = useState<Record<number, string | undefined>>({})
  const [active, setActive] = useState<string>()
  const [busy, setBusy] = useState<'preview' | 'save' | null>(null)

  useEffect(() => {
    if (!data) return
    setTrees(Object.fromEntries(data.map((t) => [t.model.id, t.tree])))
    setActive((a) => a ?? (data[0] ? String(data[0].model.id) : undefined))
  }, [data])

  const setTree = useCallback((modelId: number, tree: DesignerNode[]) => {
    setTrees((all) => ({ ...all, [modelId]: tree }))
    // What was shown no longer describes the tree.
    setPreviews((p) => ({ ...p, [modelId]: undefined }))
    setInvalid((v) => (v[modelId] && !findNode(tree, v[modelId]!) ? { ...v, [modelId]: undefined } : v))
  }, [])

  const selectIn = useCallback((modelId: number) => (id: string | null) => setSelected((s) => (s[modelId] === id ? s : { ...s, [modelId]: id })), [])

  const reveal = (modelId: number, nodeId?: string) => {
    setInvalid((v) => ({ ...v, [modelId]: nodeId }))
    if (!nodeId) return
    setTimeout(() => document.querySelector(`[data-node-id="${CSS.escape(nodeId)}"]`)?.scrollIntoView({ block: 'nearest' }), 0)
  }

  const preview = async () => {
    const tab = data?.find((t) => String(t.model.id) === active)
    if (!tab) return
    const modelId = tab.model.id
    const tree = trees[modelId] ?? []
    const check = checkTree(tree, tab.palette, modelId)
    if (!check.ok) {
      message.error(tr(check.message))
      reveal(modelId, check.nodeId)
      return
    }
    reveal(modelId, undefined)
    if (!check.permission.length) {
      setPreviews((p) => ({ ...p, [modelId]: '' }))
      return
    }
    setBusy('preview')
    try {
      const text = await call(dataPermission.preview, { modelId, permission: check.permission })
      setPreviews((p) => ({ ...p, [modelId]: text }))
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(null)
    }
  }

  const save = async () => {
    if (!data || builtIn) return
    const failed = firstInvalid(data.map((t) => ({ key: t.model.id, tree: trees[t.model.id] ?? [], palette: t.palette, modelId: t.model.id })))
    if (failed) {
      setActive(String(failed.key))
      message.error(tr(failed.message))
      reveal(failed.key, failed.nodeId)
      return
    }
    const items = data.map((t) => {
      const check = checkTree(trees[t.model.id] ?? [], t.palette, t.model.id)
      return {
        bizIds: [bizId],
        bizType,
        permissionType: t.model.id,
        permission: JSON.stringify(check.ok ? check.permission : []),
      }
    })
    setBusy('save')
    try {
      await call(dataPermission.save, items)
      message.success(tr('保存成功！'))
      setOpen(false)
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(null)
    }
  }

  const ready = Boolean(data) && !error && !builtIn

  const body = builtIn ? (
    <Alert type="warning" showIcon message={tr(`权限【${ADMIN_PERMISSION}】为内置权限，不允许设置数据权限！`)} />
  ) : error ? (
    <Alert type="error" showIcon message={error} />
  ) : loading || !data ? (
    <Spin style={{ display: 'block', padding: 48 }} />
  ) : (
    <Tabs
      activeKey={active}
      onChange={setActive}
      items={data.map((t) => {
        const modelId = t.model.id
        const text = previews[modelId]
        return {
          key: String(modelId),
          label: tr(t.model.name),
          forceRender: true,
          children: (
            <>
              <Designer
                modelName={t.model.name}
                palette={t.palette}
                tree={trees[modelId] ?? []}
                onChange={(tree) => setTree(modelId, tree)}
                selectedId={selected[modelId] ?? null}
                onSelect={selectIn(modelId)}
                invalidId={invalid[modelId]}
                enums={meta?.enums}
              />
              {text !== undefined && (
                <div
                  role="region"
                  aria-label={tr(`${t.model.name}预览SQL`)}
                  className="dp-preview"
                  style={{
                    marginTop: 12,
                    padding: '8px 12px',
                    background: token.colorFillTertiary,
                    borderRadius: token.borderRadius,
                    fontFamily: token.fontFamilyCode,
                    fontSize: 12,
                    whiteSpace: 'pre-wrap',
                    wordBreak: 'break-all',
                  }}
                >
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {tr('预览SQL：')}
                  </Typography.Text>
                  <div className="dp-preview-sql">{text || tr('（未设置条件，不限制数据）')}</div>
                </div>
              )}
            </>
          ),
        }
      })}
    />
  )

  return (
    <Modal
      open={open}
      title={tr('设置数据权限')}
      width={1100}
      maskClosable={false}
      destroyOnHidden
      onCancel={() => setOpen(false)}
      afterClose={onClose}
      footer={
        <Space>
          <Button onClick={() => setOpen(false)}>{tr('取消')}</Button>
          <Button disabled={!ready} loading={busy === 'preview'} onClick={() => void preview()}>
            {tr('预览')}
          </Button>
          <Button type="primary" disabled={!ready} loading={busy === 'save'} onClick={() => void save()}>
            {tr('确定')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {bizLabel(bizType, tr)}
        {tr('：')}
        {nameOf(target)}
      </Typography.Paragraph>
      {body}
    </Modal>
  )
}
