import type { Db } from '../db/dialect.js'
import { HeardChannel } from '../db/pg-listener.js'
import { KeptReads } from './kept-reads.js'
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

/** The channel the grant tables' triggers notify (platform/grants-changed.ts), with the tenant's schema as payload. */
export const GRANTS_CHANGED_CHANNEL = 'grants_changed'

/**
 * What a user may do: enabled roles, the role permission `admin` (passes everything), and the
 * permission keys of the enabled menus linked to those roles. Kept per user so a list request costs one
 * session lookup (platform/kept-reads.ts): on PostgreSQL, while this process listens, for a minute, since every
 * commit that changes a grant table notifies each process, which drops that tenant's grants; without the channel
 * for a few seconds, role, menu and user-role writes here clearing it.
 */
export class PermissionResolver {
  /** What the process's listening connection (db/pg-listener.ts) tells this cache on GRANTS_CHANGED_CHANNEL. */
  readonly heard = new HeardChannel(
    (schema) => this.kept.forget(schema),
    () => this.kept.clear(),
  )
  /** A user's grants (by user id) and what else is read of them from the grant tables (by `user id:what`). */
  private readonly kept = new KeptReads(this.heard, 60_000, 5_000)

  invalidate(): void {
    this.heard.epoch++
    this.kept.clear()
  }

  /**
   * `load()`, kept per tenant, user and `what` as the grants are: a minute while this process hears the grant
   * tables' notifications (PostgreSQL), otherwise five seconds with this process's grant writes clearing it.
   * On SQLite the data-permission read was a sixth of a restricted picker's call (issue 33).
   */
  ofUser<T>(tenantId: string, userId: string, what: string, load: () => Promise<T>): Promise<T> {
    return this.kept.read(tenantId, `${userId}:${what}`, load)
  }

  grants(tenantId: string, db: Db, userId: string): Promise<Grants | undefined> {
    return this.kept.read(tenantId, userId, () => loadGrants(db, userId))
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
