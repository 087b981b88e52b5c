import { forbidden, invalid } from '../../platform/errors.js'
import { ADMIN_PERMISSION } from '../../platform/permissions.js'
import { hasPasswordProof } from '../../platform/password-proof.js'
import { hasPermission } from '../../platform/request-context.js'
import type { Wire } from '../../engine/record-codec.js'
import { NO_PASSWORD_KEY, USER_PASSWORD_PERMISSION, assertMayGrant, assertMayManageUsers, assertNotBuiltinAdmin, menuKeys, roleKeys } from './rank-guard.js'
import type { Services } from '../../engine/services.js'
import { assignRoles } from './user-roles.js'
import { MENU_DISPLAY } from '../../../shared/generated/enum-codes.js'

const isTrue = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true'
/** A modify that turns an enabled user off (the form's 状态 switch): the same rules as `unable/batch`. */
const disables = (values: Wire, existing: Wire) => 'available' in values && !isTrue(values.available) && isTrue(existing.available)

/** Rules of system objects that an entity file cannot state. */
export function registerSystemHooks(services: Services): void {
  const { hooks, permissions, sessions } = services
  const invalidate = { afterSave: async () => permissions.invalidate(), beforeDelete: async () => permissions.invalidate() }

  hooks.on('role', {
    ...invalidate,
    async beforeAvailable({ trx, ctx, ids, available }) {
      permissions.invalidate()
      // Enabling a role switches its keys back on for everyone holding it, the caller included.
      if (available) return assertMayGrant(ctx, await roleKeys(trx, ids))
      const admins = await trx.selectFrom('sys_role').select(['name']).where('id', 'in', ids).where('permission', '=', ADMIN_PERMISSION).execute()
      if (admins.length) throw invalid(`角色【${admins[0].name}】的权限为【admin】，不允许停用！`)
    },
    async beforeSave({ ctx, values, existing }) {
      // A role's own permission is a key like any other (`admin` the widest): only what one holds.
      if (typeof values.permission === 'string' && values.permission && values.permission !== existing?.permission) assertMayGrant(ctx, [values.permission])
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

  // The department tree gives a user's data permission its parent and child departments.
  hooks.on('dept', invalidate)

  hooks.on('menu', {
    ...invalidate,
    // A menu's key reaches every role linked to it: setting or re-enabling one is handing it out.
    async beforeSave({ trx, ctx, values, existing }) {
      if (typeof values.permission === 'string' && values.permission && values.permission !== existing?.permission) assertMayGrant(ctx, [values.permission])
      // A button (权限) is a leaf: menus hang under directories and pages, as the parent picker offers.
      if (typeof values.parentId === 'string' && values.parentId) {
        const parent = await trx.selectFrom('sys_menu').select('display').where('id', '=', values.parentId).executeTakeFirst()
        if (parent && Number(parent.display) === MENU_DISPLAY.PERMISSION) throw invalid('上级菜单不能是按钮', 'parentId')
      }
    },
    async beforeAvailable({ trx, ctx, ids, available }) {
      permissions.invalidate()
      if (available) assertMayGrant(ctx, await menuKeys(trx, ids))
    },
    async beforeDelete({ trx, ids }) {
      permissions.invalidate()
      await trx.deleteFrom('sys_role_menu').where('menu_id', 'in', ids).execute()
      await trx.deleteFrom('sys_menu_collect').where('menu_id', 'in', ids).execute()
    },
  })

  hooks.on('user', {
    async beforeAvailable({ trx, ctx, ids, available }) {
      permissions.invalidate()
      await assertMayManageUsers(trx, ctx, ids)
      if (available) return
      if (ids.includes(ctx.userId)) throw invalid('不允许停用当前登录用户！')
      await assertNotBuiltinAdmin(trx, ids)
      await sessions.endUser(ctx.tenantId, ids)
    },
    async beforeSave({ trx, ctx, mode, values, existing }) {
      if (mode !== 'modify' || !existing) return
      const id = String(existing.id)
      // Setting a password without knowing the old one is a reset: its own key, whoever the target.
      if (values.password !== undefined && !hasPasswordProof(ctx) && !hasPermission(ctx, [USER_PASSWORD_PERMISSION])) throw forbidden(NO_PASSWORD_KEY)
      await assertMayManageUsers(trx, ctx, [id])
      if (disables(values, existing)) {
        if (id === ctx.userId) throw invalid('不允许停用当前登录用户！')
        await assertNotBuiltinAdmin(trx, [id])
      }
    },
    async afterSave({ trx, ctx, id, values, mode, existing }) {
      // 角色 of the user form: the same rules and record as 用户授权 (the store has checked the field's key).
      const roleIds = values.roleIds
      if (Array.isArray(roleIds) && (mode === 'modify' || roleIds.length)) await assignRoles(trx, ctx, [id], roleIds.map(String))
      permissions.invalidate()
      if (mode !== 'modify' || !existing) return
      // New credentials or a disabled account end the user's sessions; the session that changed its
      // own password stays.
      if (values.password) await sessions.endUser(ctx.tenantId, [id], ctx.token)
      if (disables(values, existing)) await sessions.endUser(ctx.tenantId, [id])
    },
  })

  hooks.on('tenant', {
    async afterSave({ id, values, mode }) {
      if (mode === 'create') await services.provisionTenant(id, String(values.name ?? ''))
    },
  })
}
