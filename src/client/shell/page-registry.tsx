import { lazy, type ReactNode } from 'react'
import { findMenuByPath, type MenuEntry, type MenuNode } from '../app/menus.js'
import { hasPermission, type Session } from '../app/session.js'
import ErrorPage from '../pages/ErrorPage.js'
import { lowCodeHost, menuPage, resolveMenu, type LowCodeKind } from './menu-pages.js'
import { WORKPLACE_PATH, WORKPLACE_TITLE } from './tab-store.js'

const EntityPage = lazy(() => import('../runtime/EntityPage'))
const Workplace = lazy(() => import('../pages/Workplace.js'))
const Profile = lazy(() => import('../pages/Profile.js'))
const Settings = lazy(() => import('../pages/Settings.js'))

/** What the shell shows for a pathname: a fixed page or a function menu. */
export interface ResolvedPage {
  key: string
  title: string
  /** Route pattern, so `useParams` works inside the page. */
  pattern: string
  noCache: boolean
  menu?: MenuNode
  /** Catalog titles down to the page (breadcrumb). */
  titles: string[]
  render: () => ReactNode
}

const FIXED: Record<string, { title: string; render: () => ReactNode }> = {
  [WORKPLACE_PATH]: { title: WORKPLACE_TITLE, render: () => <Workplace /> },
  '/profile': { title: '个人中心', render: () => <Profile /> },
  '/settings': { title: '个人设置', render: () => <Settings /> },
}

export const ENTITY_COMPONENT_PREFIX = 'entity:'

const LOW_CODE_KINDS: Record<number, LowCodeKind> = { 1: 'list', 2: 'form', 3: 'page' }

/** A custom form's requestParam: a JSON object text; anything else is no parameter. */
function parseRequestParam(text: string | null | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = text?.trim() ? JSON.parse(text) : undefined
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The view of a function menu (001 §2 "Menu-driven routing"). */
function renderMenu(menu: MenuNode): ReactNode {
  const component = (menu.component ?? '').trim()
  const kind = LOW_CODE_KINDS[menu.componentType]
  const Host = kind ? lowCodeHost(kind) : undefined
  if (kind && Host) return <Host kind={kind} id={component} requestParam={kind === 'form' ? parseRequestParam(menu.requestParam) : undefined} inputs={{}} />
  if (menu.componentType === 0 && component.startsWith(ENTITY_COMPONENT_PREFIX)) {
    const entityName = component.slice(ENTITY_COMPONENT_PREFIX.length).trim()
    if (entityName) return <EntityPage entityName={entityName} />
  }
  const page = menu.componentType === 0 ? menuPage(component) : undefined
  if (page) return page({})
  const resolved = menu.componentType === 0 ? resolveMenu(menu, '') : undefined
  if (resolved) return resolved.render()
  // Normal views nobody registered, and the low-code list/form/page runtimes, are not built yet.
  return <ErrorPage kind="developing" embedded />
}

export function resolvePage(
  pathname: string,
  entries: MenuEntry[],
  session: Session,
  /** The Chinese label of an entity, once the metadata has loaded. */
  entityLabel: (entityName: string) => string | undefined = () => undefined,
): ResolvedPage | undefined {
  const path = pathname.replace(/\/+$/, '') || '/'
  const fixed = FIXED[path]
  if (fixed) return { key: path, title: fixed.title, pattern: path, noCache: false, titles: [fixed.title], render: fixed.render }
  // Any entity screen by name, menu or not: a new entity file is usable before anyone edits the menu tree.
  const entityRoute = /^\/entity\/([a-z][A-Za-z0-9]*)$/.exec(path)
  if (entityRoute) {
    const entityName = entityRoute[1]
    const title = entityLabel(entityName) ?? entityName
    return { key: path, title, pattern: path, noCache: false, titles: [title], render: () => <EntityPage entityName={entityName} /> }
  }
  const found = findMenuByPath(entries, path)
  if (!found) return resolveBelowMenu(path, entries, session)
  const { menu, titles } = found.entry
  const allowed = hasPermission(session, menu.permission ?? undefined)
  return {
    key: path,
    title: menu.meta.title || menu.name,
    pattern: menu.path ?? path,
    noCache: menu.meta.noCache,
    menu,
    titles,
    render: () => (allowed ? renderMenu(menu) : <ErrorPage kind="403" embedded />),
  }
}

/** A page below a function menu (`/purchase/order/modify/1`), answered by a registered menu resolver; it needs the menu's permission. */
function resolveBelowMenu(path: string, entries: MenuEntry[], session: Session): ResolvedPage | undefined {
  const parts = path.split('/')
  for (let n = parts.length - 1; n > 1; n--) {
    const base = parts.slice(0, n).join('/')
    const entry = entries.find((e) => e.menu.path?.replace(/\/+$/, '') === base)
    if (!entry) continue
    const sub = resolveMenu(entry.menu, parts.slice(n).join('/'))
    if (!sub) return undefined
    const allowed = hasPermission(session, entry.menu.permission ?? undefined)
    return {
      key: path,
      title: sub.title,
      pattern: `${base}/${sub.pattern}`,
      noCache: false,
      menu: entry.menu,
      titles: [...entry.titles, sub.title],
      render: () => (allowed ? sub.render() : <ErrorPage kind="403" embedded />),
    }
  }
  return undefined
}
