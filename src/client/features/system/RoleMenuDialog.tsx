import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { ADMIN_PERMISSION } from '../../../shared/contracts/permissions.js'
import { Alert, Input, Modal, Space, Spin, Tag, theme, Tree, Typography, type GetRef } from 'antd'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { TreeToolbar } from '../../components/TreeToolbar.js'
import { ancestorsOf, buildMenuTree, grantMarks, grantedIds, toggleGrant, type MenuTreeNode } from './menu-tree.js'
import { useSaveDialog } from './use-save-dialog.js'
import { nameOf, truthy, useLoad } from './use-load.js'
import { useTr } from '../../i18n/use-tr.js'
import { system } from '../../../shared/contracts/system.js'
import { call } from '../../api/call.js'


/** `text` in Simplified: the tree shows it through tr(). */
const DISPLAY_TAG: Record<number, { text: string; color: string }> = {
  0: { text: '目录', color: 'blue' }, // i18n-ignore
  1: { text: '菜单', color: 'green' }, // i18n-ignore
  2: { text: '权限', color: 'orange' }, // i18n-ignore
}

const TREE_HEIGHT = 460

export interface RoleMenuDialogProps {
  role: EntityRow
  onClose: () => void
}

/**
 * 角色授权: the menu tree (catalogs, functions, permission buttons) with the role's grants checked.
 * Ticking a catalog or menu grants everything below it (toggleGrant); a menu whose buttons are unticked
 * is a read-only grant and shows half-ticked, like a catalog with only some of its menus.
 */
export default function RoleMenuDialog({ role, onClose }: RoleMenuDialogProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const { token } = theme.useToken()
  const { data: menus, error, loading } = useLoad(`role-menus:${role.id}`, () =>
    call(system.roleMenus, { roleId: role.id }),
  )
  // Seeded menu titles in the chosen language (an admin's own titles show as written), so 定位 finds what is shown.
  const tree = useMemo(() => (menus ? buildMenuTree(menus.map((m) => ({ ...m, title: tr(m.title) }))) : undefined), [menus, tr])
  const isAdmin = String(role.permission ?? '').trim() === ADMIN_PERMISSION

  const [checked, setChecked] = useState<string[]>([])
  const [expanded, setExpanded] = useState<string[]>([])
  useEffect(() => {
    if (!tree) return
    setChecked(isAdmin ? tree.allKeys : tree.allKeys.filter((k) => tree.byId.get(k)!.selected))
    setExpanded(tree.parentKeys)
  }, [tree, isAdmin])

  // 定位: the search box scrolls to the next menu whose title contains the text.
  const treeRef = useRef<GetRef<typeof Tree>>(null)
  const [search, setSearch] = useState('')
  const [current, setCurrent] = useState<string>()
  const locate = (raw: string) => {
    const text = raw.trim()
    setSearch(text)
    if (!tree || !text) {
      setCurrent(undefined)
      return
    }
    const matches = tree.allKeys.filter((k) => tree.byId.get(k)!.title.includes(text))
    if (!matches.length) {
      setCurrent(undefined)
      message.info(tr('未找到匹配的菜单'))
      return
    }
    const next = current && text === search ? matches[(matches.indexOf(current) + 1) % matches.length] : matches[0]
    setCurrent(next)
    setExpanded((e) => [...new Set([...e, ...ancestorsOf(tree, next)])])
    // After the expanded rows have rendered.
    setTimeout(() => treeRef.current?.scrollTo({ key: next, align: 'top', offset: 24 }), 0)
  }

  const { modalProps } = useSaveDialog(async () => {
    if (!tree || isAdmin) return
    await call(system.setRoleMenus, { roleIds: [role.id], menuIds: grantedIds(tree, checked) })
  }, onClose)

  const highlight = (title: string): ReactNode => {
    const at = search ? title.indexOf(search) : -1
    if (at < 0) return title
    return (
      <>
        {title.slice(0, at)}
        <Typography.Text mark>{search}</Typography.Text>
        {title.slice(at + search.length)}
      </>
    )
  }

  const renderTitle = (node: MenuTreeNode) => {
    const m = node.menu
    const tag = DISPLAY_TAG[Number(m.display)] ?? DISPLAY_TAG[1]
    return (
      <span
        className="role-menu-node"
        data-menu-id={node.key}
        style={node.key === current ? { outline: `1px solid ${token.colorPrimary}`, outlineOffset: 1, borderRadius: 2 } : undefined}
      >
        <Tag color={tag.color} style={{ marginInlineEnd: 6 }}>
          {tr(tag.text)}
        </Tag>
        {highlight(m.title)}
        {m.permission && (
          <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
            {m.permission}
          </Typography.Text>
        )}
        {!truthy(m.available) && (
          <Tag style={{ marginInlineStart: 6 }} color="default">
            {tr('停用')}
          </Tag>
        )}
      </span>
    )
  }

  const ready = Boolean(tree) && !error
  // What the role may open and do: its pages and buttons; the catalogs above them come with them.
  const grantedCount = tree ? grantedIds(tree, checked).filter((id) => Number(tree.byId.get(id)?.display) !== 0).length : 0
  const marks = useMemo(() => (tree ? grantMarks(tree, checked) : { checked: [], halfChecked: [] }), [tree, checked])

  return (
    <Modal
      {...modalProps}
      title={tr(`角色授权 - ${nameOf(role)}`)}
      width={760}
      okButtonProps={{ disabled: !ready || isAdmin }}
      footer={(_, { OkBtn, CancelBtn }) => (
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{ready && !isAdmin ? tr(`已授权 ${grantedCount} 项`) : ''}</Typography.Text>
          <Space>
            <CancelBtn />
            <OkBtn />
          </Space>
        </div>
      )}
    >
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : loading || !tree ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <>
          {isAdmin && <Alert type="info" showIcon message={tr('该角色拥有全部权限')} style={{ marginBottom: 12 }} />}
          <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, marginBottom: 8 }}>
            <TreeToolbar
              checkDisabled={isAdmin}
              onCheckAll={() => setChecked(tree.allKeys)}
              onCheckNone={() => setChecked([])}
              onExpand={() => setExpanded(tree.parentKeys)}
              onCollapse={() => setExpanded([])}
            />
            <Input.Search
              allowClear
              size="small"
              placeholder={tr('输入菜单名称定位')}
              aria-label={tr('定位菜单')}
              style={{ maxWidth: 240 }}
              onSearch={locate}
              onChange={(e) => {
                if (!e.target.value) locate('')
              }}
            />
          </div>
          <div
            // A fixed box: collapsing the tree must not make the dialog jump.
            style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, padding: '4px 0', height: TREE_HEIGHT + 10 }}
          >
            <Tree<MenuTreeNode>
              ref={treeRef}
              checkable
              checkStrictly
              selectable={false}
              blockNode
              disabled={isAdmin}
              height={TREE_HEIGHT}
              treeData={tree.roots}
              checkedKeys={marks}
              onCheck={(_, info) => setChecked((current) => toggleGrant(tree, current, String(info.node.key), info.checked))}
              expandedKeys={expanded}
              onExpand={(keys) => setExpanded(keys.map(String))}
              titleRender={renderTitle}
            />
          </div>
        </>
      )}
    </Modal>
  )
}
