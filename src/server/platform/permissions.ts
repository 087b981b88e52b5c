import type { Db } from '../db/dialect.js'
import { ADMIN_PERMISSION } from '../../shared/contracts/permissions.js'

export { ADMIN_PERMISSION }

export interface Grants {
  userId: string
  name: string
  username: string
  available: boolean
  isAdmin: boolean
  roleIds: string[]
  roleCodes: string[]
  permissions: Set<string>
  menuIds: Set<string>
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1'

/**
 * What a user may do: enabled roles, the role permission `admin` (passes everything), and the
 * permission keys of the enabled menus linked to those roles. Cached for a few seconds per user so a
 * list request costs one session lookup; role, menu and user-role writes clear the cache.
 */
export class PermissionResolver {
  private readonly cache = new Map<string, { at: number; grants: Grants | undefined }>()
  constructor(private readonly ttlMs = 5000) {}

  invalidate(): void {
    this.cache.clear()
  }

  async grants(tenantId: string, db: Db, userId: string): Promise<Grants | undefined> {
    const key = `${tenantId}:${userId}`
    const hit = this.cache.get(key)
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.grants
    const grants = await loadGrants(db, userId)
    this.cache.set(key, { at: Date.now(), grants })
    return grants
  }
}

/** A user's grants read now, without the cache: rank checks compare caller and target inside the write's transaction. */
export async function loadGrants(db: Db, userId: string): Promise<Grants | undefined> {
  const user = await db
    .selectFrom('sys_user')
    .select(['id', 'name', 'username', 'available'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!user) return undefined
  const roles = await db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.code', 'r.permission', 'r.available'])
    .where('ur.user_id', '=', userId)
    .execute()
  const enabled = roles.filter((r) => truthy(r.available))
  const isAdmin = enabled.some((r) => r.permission === ADMIN_PERMISSION)
  const permissions = new Set<string>()
  const menuIds = new Set<string>()
  for (const r of enabled) if (r.permission) permissions.add(String(r.permission))
  if (enabled.length) {
    const menus = await db
      .selectFrom('sys_role_menu as rm')
      .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
      .select(['m.id', 'm.permission', 'm.available'])
      .where(
        'rm.role_id',
        'in',
        enabled.map((r) => String(r.id)),
      )
      .execute()
    for (const m of menus) {
      if (!truthy(m.available)) continue
      menuIds.add(String(m.id))
      if (m.permission) permissions.add(String(m.permission))
    }
  }
  return {
    userId,
    name: String(user.name),
    username: String(user.username),
    available: truthy(user.available),
    isAdmin,
    roleIds: enabled.map((r) => String(r.id)),
    roleCodes: enabled.map((r) => String(r.code)),
    permissions,
    menuIds,
  }
}
