import type { FastifyInstance } from 'fastify'
import type { Databases } from '../db/databases.js'
import type { PermissionResolver } from './permissions.js'
import type { SessionStore } from './sessions.js'
import { relogin } from './errors.js'
import type { Access } from './routes.js'

export const TOKEN_HEADER = 'x-auth-token'

/**
 * Resolves token -> session -> tenant database -> grants before every API handler. Routes declare
 * their access; this hook only fails when a route needs a signed-in user and there is none.
 */
export function installAuthHook(
  app: FastifyInstance,
  services: { sessions: SessionStore; databases: Databases; permissions: PermissionResolver },
): void {
  app.decorateRequest('ctx', null)
  app.addHook('preHandler', async (req) => {
    const access = (req.routeOptions.config as { access?: Access } | undefined)?.access
    if (access === undefined) return
    const header = req.headers[TOKEN_HEADER]
    const token = Array.isArray(header) ? header[0] : header
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
    }
  })
}
