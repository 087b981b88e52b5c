import { ADMIN_PERMISSION } from '../../shared/contracts/permissions.js'
import type { Session } from './session.js'

/**
 * Route authority (000 §6): a permission string (or id), a list of roles, or `*`, which always
 * passes; no authority means any signed-in user. The client mirrors the server, which still refuses
 * on its own.
 */
export type Authority = string | readonly string[] | null | undefined

export const ANY_AUTHORITY = '*'
/** Second entry of a permission check: the current user must also be this user. */
export const PERMISSION_USER_PREFIX = 'permissionUserId:'

export const isAdmin = (session: Session) => session.permissions.includes(ADMIN_PERMISSION) || session.roles.includes(ADMIN_PERMISSION)

/** Does the session hold this permission key or role code (admin holds everything)? */
function holds(session: Session, key: string): boolean {
  return isAdmin(session) || session.permissions.includes(key) || session.roles.includes(key)
}

export function authorityPasses(session: Session, authority: Authority): boolean {
  if (authority === null || authority === undefined || authority === '' || authority === ANY_AUTHORITY) return true
  if (typeof authority === 'string') return holds(session, authority)
  if (authority.length === 0 || authority.includes(ANY_AUTHORITY)) return true
  return authority.some((role) => holds(session, role))
}

/** A route passes when its own authority and every parent's pass. */
export function routePasses(session: Session, chain: readonly Authority[]): boolean {
  return chain.every((a) => authorityPasses(session, a))
}

/**
 * The permission directive: `[permission]` or `[permission, 'permissionUserId:{id}']`. Admin passes
 * everything; otherwise the permission must be held and, when given, the user must be that user.
 */
export function permits(session: Session, value: readonly string[]): boolean {
  if (isAdmin(session)) return true
  const [permission, userClause] = value
  if (permission && !holds(session, permission)) return false
  if (userClause?.startsWith(PERMISSION_USER_PREFIX)) return session.user?.id === userClause.slice(PERMISSION_USER_PREFIX.length)
  return true
}
