import type { MenuProps } from 'antd'
import { StarFilled, StarOutlined } from '@ant-design/icons'
import { isExternal, MENU_FUNCTION, type MenuNode } from '../app/menus.js'
import { MenuIcon } from '../components/MenuIcon.js'
import { tr } from '../i18n/use-tr.js'

export type MenuItem = Required<MenuProps>['items'][number]

export interface MenuItemOptions {
  onToggleCollect?: (menu: MenuNode) => void
  /** Top-level items in the mixed layout's header carry no children. */
  shallow?: boolean
}

/** Menu key of a node: functions use their path (so the route selects them), catalogs their id. */
export const menuKey = (n: MenuNode) => (n.display === MENU_FUNCTION && n.path ? n.path : `menu-${n.id}`)

function label(n: MenuNode, options: MenuItemOptions) {
  const title = n.meta.title || n.name
  if (n.display === MENU_FUNCTION && n.path && isExternal(n.path)) {
    return (
      <a href={n.path} target="_blank" rel="noopener noreferrer">
        {title}
      </a>
    )
  }
  if (n.display !== MENU_FUNCTION || !options.onToggleCollect) return title
  const toggle = options.onToggleCollect
  return (
    <span className="shell-menu-label">
      <span className="shell-menu-title">{title}</span>
      {/* Hidden from assistive technology so the item's name stays its title; the tab context menu
          offers the same toggle accessibly. */}
      <span
        aria-hidden="true"
        className={n.isCollect ? 'shell-menu-star is-collected' : 'shell-menu-star'}
        data-menu-star={n.isCollect ? 'collected' : 'none'}
        title={n.isCollect ? tr('取消收藏') : tr('收藏')}
        onClick={(e) => {
          e.stopPropagation()
          e.preventDefault()
          toggle(n)
        }}
      >
        {n.isCollect ? <StarFilled /> : <StarOutlined />}
      </span>
    </span>
  )
}

/** antd Menu items for a menu tree: catalogs become submenus, functions items; hidden ones are left out. */
export function toMenuItems(nodes: MenuNode[], options: MenuItemOptions = {}): MenuItem[] {
  const out: MenuItem[] = []
  for (const n of nodes) {
    if (n.hidden) continue
    const icon = n.meta.icon ? <MenuIcon name={n.meta.icon} /> : undefined
    const children = n.display === MENU_FUNCTION || options.shallow ? [] : toMenuItems(n.children ?? [], { ...options, shallow: false })
    if (n.display !== MENU_FUNCTION && !options.shallow) {
      if (children.length === 0) continue
      out.push({ key: menuKey(n), icon, label: n.meta.title || n.name, children })
      continue
    }
    out.push({ key: menuKey(n), icon, label: label(n, options) })
  }
  return out
}

/** Keys of the catalogs above a path, top first (to open the submenus of the active page). */
export function ancestorKeys(nodes: MenuNode[], path: string): string[] {
  for (const n of nodes) {
    if (n.display === MENU_FUNCTION && n.path === path) return []
    const below = ancestorKeys(n.children ?? [], path)
    if (below.length > 0 || (n.children ?? []).some((c) => c.display === MENU_FUNCTION && c.path === path)) return [menuKey(n), ...below]
  }
  return []
}
