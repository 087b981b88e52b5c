import type { Db } from '../../db/dialect.js'
import { forbidden, invalid } from '../../platform/errors.js'
import { ADMIN_PERMISSION, loadGrants } from '../../platform/permissions.js'
import type { RequestContext } from '../../platform/request-context.js'
import { defaultsSeed } from './seed.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * "Nobody gains a right they do not hold." Administrators pass; everyone else may only manage users
 * whose rights they hold themselves, and may only hand out (to a user, a role or a menu) permission
 * keys they hold themselves. Checked inside the write's transaction against the stored grants.
 */

/** The key of the "reset password" button under 用户管理 (schemas/seed/menus.json). */
export const USER_PASSWORD_PERMISSION = PERMISSION.system.user.password

export const OUTRANKED = '不允许操作权限高于自己的用户！'
export const NO_PASSWORD_KEY = '无权限重置用户密码！'
export const NOT_HELD = '不允许授予自己没有的权限！'
export const BUILTIN_ADMIN = '内置管理员不允许停用！'

const holdsAll = (ctx: RequestContext, keys: Iterable<string>) => {
  if (ctx.isAdmin) return true
  for (const key of keys) if (key === ADMIN_PERMISSION || !ctx.permissions.has(key)) return false
  return true
}

/** Modify, disable, unlock, reset or re-role other users: only those whose rights the caller holds. */
export async function assertMayManageUsers(trx: Db, ctx: RequestContext, userIds: readonly string[]): Promise<void> {
  if (ctx.isAdmin) return
  for (const id of new Set(userIds)) {
    if (id === ctx.userId) continue
    const target = await loadGrants(trx, id)
    if (target && (target.isAdmin || !holdsAll(ctx, target.permissions))) throw forbidden(OUTRANKED)
  }
}

/** The seeded administrator of a tenant (defaults.json `admin`) stays enabled whoever asks. */
export async function assertNotBuiltinAdmin(trx: Db, userIds: readonly string[]): Promise<void> {
  if (!userIds.length) return
  const admin = await trx.selectFrom('sys_user').select('id').where('id', 'in', [...userIds]).where('username', '=', defaultsSeed().admin.username).executeTakeFirst()
  if (admin) throw invalid(BUILTIN_ADMIN)
}

/**
 * Every key a role can grant: its own permission and the keys of all its menus, disabled ones
 * included (a menu or role enabled later must not widen what was handed out).
 */
export async function roleKeys(trx: Db, roleIds: readonly string[]): Promise<Set<string>> {
  const keys = new Set<string>()
  if (!roleIds.length) return keys
  for (const r of await trx.selectFrom('sys_role').select('permission').where('id', 'in', [...roleIds]).execute()) if (r.permission) keys.add(String(r.permission))
  const menus = await trx
    .selectFrom('sys_role_menu as rm')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select('m.permission')
    .where('rm.role_id', 'in', [...roleIds])
    .execute()
  for (const m of menus) if (m.permission) keys.add(String(m.permission))
  return keys
}

export async function menuKeys(trx: Db, menuIds: readonly string[]): Promise<Set<string>> {
  const keys = new Set<string>()
  if (!menuIds.length) return keys
  for (const m of await trx.selectFrom('sys_menu').select('permission').where('id', 'in', [...menuIds]).execute()) if (m.permission) keys.add(String(m.permission))
  return keys
}

export function assertMayGrant(ctx: RequestContext, keys: Iterable<string>): void {
  if (!holdsAll(ctx, keys)) throw forbidden(NOT_HELD)
}
