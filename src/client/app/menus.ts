import { useEffect, useMemo } from 'react'
import { matchPath } from 'react-router-dom'
import { STORAGE } from '../api/http.js'
import { call } from '../api/call.js'
import { useSession } from './session.js'
import { useSessionRead } from './use-call.js'
import { auth } from '../../shared/contracts/auth.js'
import { useLocale } from '../i18n/current-locale.js'
import { translatorOf } from '../../shared/i18n/catalogue.js'
import { translateMenus } from '../i18n/translate-menus.js'
import { onEntityWritten } from '../api/entity-writes.js'
import { MENU_DISPLAY } from '../../shared/generated/enum-codes.js'
import type { ComponentType, MenuNode } from '../../shared/contracts/menu-node.js'

/** MENU_DISPLAY codes from schemas/enums.json (permission entries never reach the client tree). */
export const MENU_CATALOG = MENU_DISPLAY.CATALOG
export const MENU_FUNCTION = MENU_DISPLAY.FUNCTION

export type { ComponentType, MenuNode }

/** A function menu with its catalog ancestors (for breadcrumbs, search and titles). */
export interface MenuEntry {
  menu: MenuNode
  /** Titles from the top catalog down to this menu. */
  titles: string[]
  /** Ids from the top catalog down to this menu. */
  ids: string[]
  /** The menu's icon, else the nearest catalog's. */
  icon: string | null
  /** Authorities from the top catalog down to this menu (000 §6: all must pass). */
  authorities: (string | null)[]
}

export const isExternal = (path: string | null | undefined) => !!path && /^https?:\/\//i.test(path)

function readCachedMenus(): MenuNode[] | undefined {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(STORAGE.routes) ?? 'null')
    return Array.isArray(raw) ? (raw as MenuNode[]) : undefined
  } catch {
    return undefined
  }
}

/** `GET /auth/menus`, kept under admin.routes so a reload can draw the shell before the answer. */
export async function readMenus(): Promise<MenuNode[]> {
  const menus = await call(auth.menus)
  localStorage.setItem(STORAGE.routes, JSON.stringify(menus))
  return menus
}

/** The swr key of the menus read (useSessionRead's: the call's path, then the session's token). */
export const menusKey = (token: string) => [auth.menus.path, token]

/**
 * The signed-in user's menu tree, titled in the chosen language. Keyed by token so another account
 * never sees the previous one's menus; cached under admin.routes so a reload can draw the shell before
 * the answer.
 */
export function useMenus() {
  const { token } = useSession()
  const swr = useSessionRead([auth.menus.path], readMenus, { fallbackData: token ? readCachedMenus() : undefined, revalidateOnFocus: false, revalidateOnMount: true },
  )
  // A menu saved in 菜单管理 shows in the shell at once.
  const { mutate } = swr
  useEffect(() => onEntityWritten('menu', () => void mutate()), [mutate])
  const locale = useLocale()
  const data = useMemo(() => (swr.data && locale !== 'zh-CN' ? translateMenus(swr.data, translatorOf(locale)) : swr.data), [swr.data, locale])
  return { ...swr, data }
}

/** Every function menu (hidden ones included: they are routable, only invisible in the menu). */
export function flattenFunctions(tree: MenuNode[] | undefined): MenuEntry[] {
  const out: MenuEntry[] = []
  const walk = (nodes: MenuNode[], titles: string[], ids: string[], authorities: (string | null)[], inherited: string | null) => {
    for (const n of nodes) {
      const t = [...titles, n.meta.title || n.name]
      const i = [...ids, n.id]
      const a = [...authorities, n.permission]
      const icon = n.meta.icon || inherited
      if (n.display === MENU_FUNCTION) out.push({ menu: n, titles: t, ids: i, icon, authorities: a })
      if (n.children?.length) walk(n.children, t, i, a, icon)
    }
  }
  walk(tree ?? [], [], [], [], null)
  return out
}

/** The function menu whose path matches a pathname (exact first, then `:param` patterns). */
export function findMenuByPath(entries: MenuEntry[], pathname: string): { entry: MenuEntry; params: Record<string, string | undefined> } | undefined {
  const clean = pathname.replace(/\/+$/, '') || '/'
  const exact = entries.find((e) => e.menu.path && !isExternal(e.menu.path) && e.menu.path.replace(/\/+$/, '') === clean)
  if (exact) return { entry: exact, params: {} }
  for (const e of entries) {
    if (!e.menu.path || !e.menu.path.includes(':') || isExternal(e.menu.path)) continue
    const m = matchPath({ path: e.menu.path, end: true }, clean)
    if (m) return { entry: e, params: m.params }
  }
  return undefined
}

/** Collects (favourites) or un-collects a menu. */
export async function setMenuCollected(menuId: string, collected: boolean): Promise<void> {
  await call(collected ? auth.collectMenu : auth.uncollectMenu, { menuId })
}

/** Visible function menus below a node, in menu order (depth first). */
function visibleLeaves(node: MenuNode): MenuNode[] {
  if (node.display === MENU_FUNCTION && node.path && !node.hidden) return [node]
  return (node.children ?? []).filter((c) => !c.hidden).flatMap(visibleLeaves)
}

/**
 * Where a top catalog lands (mixed layout): its first visible page that is not a settings page —
 * 采购管理 opens 采购订单管理, not 采购参数设置 listed before it — else its first page.
 */
export function landingPath(node: MenuNode, isSettings: (menu: MenuNode) => boolean): string | undefined {
  const leaves = visibleLeaves(node)
  return (leaves.find((m) => !isSettings(m)) ?? leaves[0])?.path ?? undefined
}
