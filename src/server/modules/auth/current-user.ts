import type { Db } from '../../db/dialect.js'
import { ADMIN_PERMISSION } from '../../../shared/contracts/permissions.js'
import { relogin } from '../../platform/errors.js'
import type { Services } from '../../engine/services.js'
import type { CurrentUser, SessionUser } from '../../../shared/contracts/auth.js'
import { schemaAnswer } from '../../platform/call-routes.js'

/** What the client caches after login (admin.user, admin.roles) and what /auth/info answers. */
export async function currentUser(services: Services, tenantId: string, db: Db, userId: string): Promise<CurrentUser> {
  const entity = services.registry.get('user')
  const row = await db.selectFrom(entity.table).selectAll().where('id', '=', userId).executeTakeFirst()
  const grants = await services.permissions.grants(tenantId, db, userId)
  if (!row || !grants) throw relogin()
  const user = services.codec.fromRow(entity, row)
  return {
    // The user record's fields are those of its schema (schemas/entities/user.json).
    user: schemaAnswer<SessionUser>({ ...user, tenantId }),
    roles: grants.roleCodes,
    permissions: grants.isAdmin ? [ADMIN_PERMISSION, ...grants.permissions] : [...grants.permissions],
  }
}
