import type { Db } from '../../db/dialect.js'
import { invalid } from '../../platform/errors.js'
import { now } from '../../platform/clock.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import { assertMayGrant, assertMayManageUsers, roleKeys } from './rank-guard.js'

/**
 * The roles of users, replaced inside the caller's transaction: 用户授权 (`/system/user/role/setting`)
 * and a new user's 角色 field go through here, so both obey the same rules: the users and roles exist,
 * the caller outranks or equals the users and holds every key the roles grant.
 */
export async function assignRoles(trx: Db, ctx: RequestContext, userIds: readonly string[], roleIds: readonly string[]): Promise<void> {
  const users = await trx.selectFrom('sys_user').select('id').where('id', 'in', [...userIds]).execute()
  if (users.length !== new Set(userIds).size) throw invalid('用户不存在！', 'userIds')
  if (roleIds.length) {
    const roles = await trx.selectFrom('sys_role').select('id').where('id', 'in', [...roleIds]).execute()
    if (roles.length !== new Set(roleIds).size) throw invalid('角色不存在！', 'roleIds')
  }
  await assertMayManageUsers(trx, ctx, userIds)
  assertMayGrant(ctx, await roleKeys(trx, roleIds))
  await trx.deleteFrom('sys_user_role').where('user_id', 'in', [...userIds]).execute()
  const time = now()
  for (const u of new Set(userIds))
    for (const r of new Set(roleIds))
      await trx.insertInto('sys_user_role').values({ user_id: u, role_id: r, create_by: ctx.name, create_by_id: ctx.userId, create_time: time }).execute()
  await writeOpLog(trx, ctx, '用户授权', OpLogType.OTHER, { userIds, roleIds })
}
