import type { Db } from '../db/dialect.js'
import type { TenantSettings } from './settings-cache.js'

/** Who is calling and with which database; resolved by the auth hook before any handler runs. */
export interface RequestContext {
  token: string
  tenantId: string
  userId: string
  username: string
  /** Display name, written to audit columns. */
  name: string
  /** The caller's own tenant database: the only one a handler can reach through the context. */
  db: Db
  isAdmin: boolean
  permissions: ReadonlySet<string>
  ip: string
  /**
   * The tenant's configuration rows and rarely changed tables as this process keeps them (platform/settings-cache.ts);
   * absent outside a request (jobs read the database).
   */
  settings?: TenantSettings
  /** Set when the call came with an API token: the user's keys are narrowed to the token's, and the op log names it. */
  apiToken?: { id: string; name: string }
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext | null
  }
}

export function hasPermission(ctx: RequestContext, keys: readonly string[]): boolean {
  return ctx.isAdmin || keys.some((k) => ctx.permissions.has(k))
}
