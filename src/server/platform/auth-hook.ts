import type { FastifyInstance } from 'fastify'
import type { Databases } from '../db/databases.js'
import type { PermissionResolver } from './permissions.js'
import type { SessionStore } from './sessions.js'
import { relogin } from './errors.js'
import type { Access } from './routes.js'
import type { ApiTokenStore } from './api-tokens.js'
import type { SettingsCache } from './settings-cache.js'
import type { RequestContext } from './request-context.js'

export const TOKEN_HEADER = 'x-auth-token'

/**
 * Resolves token -> session -> tenant database -> grants before every API handler. Routes declare
 * their access; this hook only fails when a route needs a signed-in user and there is none.
 */
type AuthServices = { sessions: SessionStore; databases: Databases; permissions: PermissionResolver; apiTokens: ApiTokenStore; settings: SettingsCache }

/**
 * The context of a call through an API token: its user in its tenant (so data permissions and ownership
 * apply as to that user), holding only the token's keys that the user still holds now. Never the admin
 * pass, even for an admin's token: the token's keys are all it may use.
 */
async function tokenContext(services: AuthServices, bearer: string, ip: string): Promise<RequestContext> {
  const grant = await services.apiTokens.resolve(bearer)
  const db = services.databases.tenant(grant.tenantId)
  const grants = db && (await services.permissions.grants(grant.tenantId, db, grant.userId))
  if (!db || !grants || !grants.available) throw relogin('接口令牌无效或已过期！')
  const permissions = new Set([...grant.permissions].filter((k) => grants.isAdmin || grants.permissions.has(k)))
  return {
    token: '',
    tenantId: grant.tenantId,
    userId: grant.userId,
    username: grants.username,
    name: grants.name,
    db,
    isAdmin: false,
    permissions,
    ip,
    settings: services.settings.of(grant.tenantId),
    apiToken: { id: grant.id, name: grant.name },
  }
}

export function installAuthHook(
  app: FastifyInstance,
  services: AuthServices,
): void {
  app.decorateRequest('ctx', null)
  app.addHook('preHandler', async (req) => {
    const access = (req.routeOptions.config as { access?: Access } | undefined)?.access
    if (access === undefined) return
    const header = req.headers[TOKEN_HEADER]
    const token = Array.isArray(header) ? header[0] : header
    const bearer = !token ? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] : undefined
    if (bearer) {
      if (access === 'public') return
      req.ctx = await tokenContext(services, bearer, req.ip)
      return
    }
    if (!token) {
      if (access === 'public') return
      throw relogin('请先登录！')
    }
    const session = await services.sessions.resolve(token)
    const db = session && services.databases.tenant(session.tenantId)
    const grants = session && db && (await services.permissions.grants(session.tenantId, db, session.userId))
    if (!session || !db || !grants || !grants.available) {
      if (access === 'public') return
      throw relogin()
    }
    req.ctx = {
      token,
      tenantId: session.tenantId,
      userId: session.userId,
      username: grants.username,
      name: grants.name,
      db,
      isAdmin: grants.isAdmin,
      permissions: grants.permissions,
      ip: req.ip,
      settings: services.settings.of(session.tenantId),
    }
  })
}
