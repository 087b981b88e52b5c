import type { Db } from '../../db/dialect.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import type { ComponentType, MenuNode } from '../../../shared/contracts/menu-node.js'
import { MENU_DISPLAY } from '../../../shared/generated/enum-codes.js'

const truthy = (v: unknown) => v === true || v === 1 || v === '1'

/** Ids of the modules a tenant is authorised for (menus of other modules are hidden). */
export async function tenantModules(services: Services, tenantId: string): Promise<Set<string>> {
  const rows = await services.databases.platform.selectFrom('sys_module_tenant').select('module_id').where('tenant_id', '=', tenantId).execute()
  return new Set(rows.map((r) => String(r.module_id)))
}

export function buildTree<T extends { id: string; parentId: string | null; children: T[] }>(nodes: T[]): T[] {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const roots: T[] = []
  for (const n of nodes) {
    const parent = n.parentId ? byId.get(n.parentId) : undefined
    if (parent) parent.children.push(n)
    else roots.push(n)
  }
  return roots
}

/**
 * The signed-in user's menu tree (catalogs and functions): enabled menus of the tenant's modules that
 * the user's roles grant (admin: all), with their ancestors, marked when collected.
 */
export async function userMenus(services: Services, ctx: RequestContext, grantedMenuIds: Set<string>): Promise<MenuNode[]> {
  const db: Db = ctx.db
  const modules = await tenantModules(services, ctx.tenantId)
  const rows = await db.selectFrom('sys_menu').selectAll().where('display', 'in', [MENU_DISPLAY.CATALOG, MENU_DISPLAY.FUNCTION]).orderBy('code').execute()
  const collected = new Set(
    (await db.selectFrom('sys_menu_collect').select('menu_id').where('user_id', '=', ctx.userId).execute()).map((r) => String(r.menu_id)),
  )
  const all = new Map(rows.map((r) => [String(r.id), r]))
  const visible = new Set<string>()
  for (const r of rows) {
    const id = String(r.id)
    if (!truthy(r.available)) continue
    if (r.sys_module_id != null && !modules.has(String(r.sys_module_id))) continue
    if (!ctx.isAdmin && !grantedMenuIds.has(id)) continue
    if (Number(r.display) !== MENU_DISPLAY.FUNCTION) continue
    for (let cur: typeof r | undefined = r; cur; cur = cur.parent_id ? all.get(String(cur.parent_id)) : undefined) {
      if (!truthy(cur.available)) break
      visible.add(String(cur.id))
    }
  }
  const nodes: MenuNode[] = rows
    .filter((r) => visible.has(String(r.id)))
    .map((r) => ({
      id: String(r.id),
      parentId: r.parent_id ? String(r.parent_id) : null,
      path: (r.path as string | null) ?? null,
      name: String(r.title ?? r.name),
      component: (r.component as string | null) ?? null,
      componentType: Number(r.component_type ?? 0) as ComponentType,
      display: Number(r.display),
      hidden: truthy(r.hidden),
      requestParam: (r.request_param as string | null) ?? null,
      permission: (r.permission as string | null) ?? null,
      meta: { title: String(r.title ?? r.name), icon: (r.icon as string | null) ?? null, noCache: truthy(r.no_cache) },
      isCollect: collected.has(String(r.id)),
      children: [],
    }))
  // Catalogs left without any function below them are not shown.
  const tree = buildTree(nodes)
  const prune = (list: MenuNode[]): MenuNode[] =>
    list
      .map((n) => ({ ...n, children: prune(n.children) }))
      .filter((n) => n.display === MENU_DISPLAY.FUNCTION || n.children.length > 0)
  return prune(tree)
}
