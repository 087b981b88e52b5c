import { invalid } from '../../platform/errors.js'
import { ADMIN_PERMISSION } from '../../platform/permissions.js'
import type { Services } from '../../services.js'

/** Rules of system objects that an entity file cannot state. */
export function registerSystemHooks(services: Services): void {
  const { hooks, permissions, sessions } = services
  const invalidate = { afterSave: async () => permissions.invalidate(), beforeDelete: async () => permissions.invalidate() }

  hooks.on('role', {
    ...invalidate,
    async beforeAvailable({ trx, ids, available }) {
      permissions.invalidate()
      if (available) return
      const admins = await trx.selectFrom('sys_role').select(['name']).where('id', 'in', ids).where('permission', '=', ADMIN_PERMISSION).execute()
      if (admins.length) throw invalid(`角色【${admins[0].name}】的权限为【admin】，不允许停用！`)
    },
    async beforeSave({ values, existing }) {
      if (existing?.permission === ADMIN_PERMISSION && 'permission' in values && values.permission !== ADMIN_PERMISSION)
        throw invalid(`角色【${existing.name}】的权限为【admin】，不允许修改！`, 'permission')
    },
    async beforeDelete({ trx, ids }) {
      permissions.invalidate()
      const admins = await trx.selectFrom('sys_role').select(['name']).where('id', 'in', ids).where('permission', '=', ADMIN_PERMISSION).execute()
      if (admins.length) throw invalid(`角色【${admins[0].name}】的权限为【admin】，不允许删除！`)
      await trx.deleteFrom('sys_role_menu').where('role_id', 'in', ids).execute()
      await trx.deleteFrom('sys_user_role').where('role_id', 'in', ids).execute()
    },
  })

  hooks.on('menu', {
    ...invalidate,
    async beforeAvailable() {
      permissions.invalidate()
    },
    async beforeDelete({ trx, ids }) {
      permissions.invalidate()
      await trx.deleteFrom('sys_role_menu').where('menu_id', 'in', ids).execute()
      await trx.deleteFrom('sys_menu_collect').where('menu_id', 'in', ids).execute()
    },
  })

  hooks.on('user', {
    async beforeAvailable({ ctx, ids, available }) {
      permissions.invalidate()
      if (!available && ids.includes(ctx.userId)) throw invalid('不允许停用当前登录用户！')
      if (!available) await sessions.endUser(ctx.tenantId, ids)
    },
    async afterSave({ ctx, id, values, mode }) {
      permissions.invalidate()
      // A changed password signs the user out of every other session.
      if (mode === 'modify' && values.password) await sessions.endUser(ctx.tenantId, [id].filter((u) => u !== ctx.userId))
    },
  })

  hooks.on('tenant', {
    async afterSave({ id, values, mode }) {
      if (mode === 'create') await services.provisionTenant(id, String(values.name ?? ''))
    },
  })
}
