import { useCallback, useSyncExternalStore } from 'react'
import { ADMIN_PERMISSION } from '../../shared/contracts/permissions.js'
import { STORAGE } from '../api/http.js'
import type { SessionUser } from '../../shared/contracts/auth.js'

export type { SessionUser }

export interface Session {
  token: string | null
  user: SessionUser | null
  /** Role codes (admin.roles). */
  roles: string[]
  /** Permission keys; `admin` passes everything. */
  permissions: string[]
}

const read = (): Session => {
  const parse = <T,>(key: string, fallback: T): T => {
    try {
      return (JSON.parse(localStorage.getItem(key) ?? 'null') as T) ?? fallback
    } catch {
      return fallback
    }
  }
  const stored = parse<{ user: SessionUser | null; permissions: string[] }>(STORAGE.user, { user: null, permissions: [] })
  return {
    token: localStorage.getItem(STORAGE.token),
    user: stored.user,
    permissions: stored.permissions ?? [],
    roles: parse<string[]>(STORAGE.roles, []),
  }
}

let current = read()
const listeners = new Set<() => void>()
const emit = () => {
  current = read()
  for (const l of listeners) l()
}

/** Login answer of `/auth/login` and `/auth/info`: `{token?, user, roles, permissions}`. */
export function saveSession(answer: { token?: string; user: SessionUser; roles: string[]; permissions: string[] }): void {
  if (answer.token) localStorage.setItem(STORAGE.token, answer.token)
  localStorage.setItem(STORAGE.user, JSON.stringify({ user: answer.user, permissions: answer.permissions }))
  localStorage.setItem(STORAGE.roles, JSON.stringify(answer.roles))
  emit()
}

export function clearSession(): void {
  for (const key of Object.values(STORAGE)) localStorage.removeItem(key)
  emit()
}

export function getSession(): Session {
  return current
}

export function useSession(): Session {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => current,
  )
}

/** The client mirror of the server's check (the server still refuses on its own). */
export function hasPermission(session: Session, key?: string | string[]): boolean {
  if (!key || (Array.isArray(key) && key.length === 0)) return true
  if (session.permissions.includes(ADMIN_PERMISSION)) return true
  return (Array.isArray(key) ? key : [key]).some((k) => session.permissions.includes(k))
}

export function usePermission(): (key?: string | string[]) => boolean {
  const session = useSession()
  // One function per session: the lists' memos (search inputs, actions) depend on it.
  return useCallback((key) => hasPermission(session, key), [session])
}
