import { lazy, type ReactNode } from 'react'
import { useLocation, useParams } from 'react-router-dom'
import { routePasses } from '../app/authority.js'
import { findMenuByPath, type MenuEntry, type MenuNode } from '../app/menus.js'
import type { Session } from '../app/session.js'
import type { Translate } from '../i18n/use-t.js'
import ErrorPage from '../pages/ErrorPage.js'
import { MENU_COMPONENT_TYPE } from '../../shared/generated/enum-codes.js'
import { ENTITY_COMPONENT_PREFIX, lowCodeHost, menuPage, resolveMenu, type LowCodeKind, type MenuInputs } from '../app/menu-pages.js'
import { WORKPLACE_PATH } from '../app/tab-store.js'

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

const FIXED = {
  [WORKPLACE_PATH]: { title: 'page.workplace', render: () => <Workplace /> },
  '/profile': { title: 'page.profile', render: () => <Profile /> },
  '/settings': { title: 'page.settings', render: () => <Settings /> },
} as const

const LOW_CODE_KINDS: Record<number, LowCodeKind> = {
  [MENU_COMPONENT_TYPE.CUSTOM_LIST]: 'list',
  [MENU_COMPONENT_TYPE.CUSTOM_FORM]: 'form',
  [MENU_COMPONENT_TYPE.CUSTOM_PAGE]: 'page',
}

/** A custom form's requestParam: a JSON object text; anything else is no parameter. */
export function parseRequestParam(text: string | null | undefined): Record<string, unknown> | undefined {
  if (!text?.trim()) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * The view of a function menu by component type (001 §2 "Menu-driven routing"). Rendered inside the
 * tab's own `<Routes>`, so the query and `:param` values of the tab's address become its inputs.
 */
function MenuView({ menu }: { menu: MenuNode }) {
  const params = useParams()
  const { search } = useLocation()
  const inputs: MenuInputs = Object.fromEntries(new URLSearchParams(search))
  for (const [k, v] of Object.entries(params)) if (k !== '*' && v !== undefined) inputs[k] = v
  const component = (menu.component ?? '').trim()
  const kind = LOW_CODE_KINDS[menu.componentType]
  if (kind) {
    const Host = lowCodeHost(kind)
    if (!Host) return <ErrorPage kind="developing" embedded />
    // A form's request parameters: the menu's requestParam over the address's query and :param values.
    const requestParam = kind === 'form' ? { ...inputs, ...parseRequestParam(menu.requestParam) } : undefined
    return (
      <div className="lowcode-host" data-lowcode-kind={kind} data-lowcode-id={component}>
        <Host kind={kind} id={component} requestParam={requestParam} inputs={inputs} />
      </div>
    )
  }
  if (component.startsWith(ENTITY_COMPONENT_PREFIX)) {
    const entityName = component.slice(ENTITY_COMPONENT_PREFIX.length).trim()
    if (entityName) return <EntityPage entityName={entityName} />
  }
  const page = menuPage(component)
  if (page) return <>{page(inputs)}</>
  // Data-driven pages (documents found from the menu's permission).
  const resolved = resolveMenu(menu, '')
  if (resolved) return <>{resolved.render()}</>
  // A normal view nobody registered yet.
  return <ErrorPage kind="developing" embedded />
}

export function resolvePage(
  pathname: string,
  entries: MenuEntry[],
  session: Session,
  t: Translate,
  /** The Chinese label of an entity, once the metadata has loaded. */
  entityLabel: (entityName: string) => string | undefined = () => undefined,
): ResolvedPage | undefined {
  const path = pathname.replace(/\/+$/, '') || '/'
  const fixed = (FIXED as Record<string, (typeof FIXED)[keyof typeof FIXED]>)[path]
  if (fixed) {
    const title = t(fixed.title)
    return { key: path, title, pattern: path, noCache: false, titles: [title], render: fixed.render }
  }
  // Any entity screen by name, menu or not: a new entity file is usable before anyone edits the menu tree.
  const entityRoute = /^\/entity\/([a-z][A-Za-z0-9]*)$/.exec(path)
  if (entityRoute) {
    const entityName = entityRoute[1]
    const title = entityLabel(entityName) ?? entityName
    return { key: path, title, pattern: path, noCache: false, titles: [title], render: () => <EntityPage entityName={entityName} /> }
  }
  const found = findMenuByPath(entries, path)
  if (!found) return resolveBelowMenu(path, entries, session)
  const { menu, titles, authorities } = found.entry
  // 000 §6: the route's authority and its parents' must all pass, unless the route is invisible.
  const allowed = menu.hidden || routePasses(session, authorities)
  return {
    key: path,
    title: menu.meta.title || menu.name,
    pattern: menu.path ?? path,
    noCache: menu.meta.noCache,
    menu,
    titles,
    render: () => (allowed ? <MenuView menu={menu} /> : <ErrorPage kind="403" embedded />),
  }
}

/** A page below a function menu (`/purchase/order/modify/1`), answered by a registered menu resolver; it needs the menu's authority. */
function resolveBelowMenu(path: string, entries: MenuEntry[], session: Session): ResolvedPage | undefined {
  const parts = path.split('/')
  for (let n = parts.length - 1; n > 1; n--) {
    const base = parts.slice(0, n).join('/')
    const entry = entries.find((e) => e.menu.path?.replace(/\/+$/, '') === base)
    if (!entry) continue
    const sub = resolveMenu(entry.menu, parts.slice(n).join('/'))
    if (!sub) return undefined
    const allowed = routePasses(session, entry.authorities)
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
