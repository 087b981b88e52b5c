import type { FastifyInstance } from 'fastify'
import { dictionary, type DicItem } from '../../../shared/contracts/lowcode.js'
import { system, type MenuGrant, type RoleChoice } from '../../../shared/contracts/system.js'
import { center, type OpLogRow } from '../../../shared/contracts/auth.js'
import type { Page } from '../../../shared/contracts/call.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { defineRoute } from '../../platform/routes.js'
import { forbidden, invalid } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { verifyPassword } from '../../platform/passwords.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import type { Services } from '../../engine/services.js'
import type { RequestContext } from '../../platform/request-context.js'
import { currentUser } from '../auth/current-user.js'
import { unlockUser } from '../auth/login.js'
import { pickerKeys } from '../../engine/picker-access.js'
import { assertDictionaryAccess } from '../../lowcode/runtime-access.js'
import { registerSystemHooks } from './hooks.js'
import { assignRoles } from './user-roles.js'
import { syncDingTalk } from './dingtalk-sync.js'
import { assertMayGrant, assertMayManageUsers, menuKeys } from './rank-guard.js'
import { withPasswordProof } from '../../platform/password-proof.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')
const strings = (v: unknown, field: string): string[] => {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !x)) throw invalid('请求参数格式错误', field)
  return v as string[]
}

export function systemModule(app: FastifyInstance, services: Services): void {
  const { registry, store } = services
  registerSystemHooks(services)
  const user = registry.get('user')
  const role = registry.get('role')
  const menu = registry.get('menu')

  // Personal centre: the signed-in user's own data.
  defineCallRoute(app, center.info, {
    access: 'login',
    handler: async ({ ctx }) => (await currentUser(services, ctx.tenantId, ctx.db, ctx.userId)).user,
  })
  for (const field of ['email', 'telephone'] as const) {
    defineCallRoute<Partial<Record<typeof field, string>>, null, 'login'>(app, center.contact[field], {
      access: 'login',
      handler: async ({ ctx, body }) => {
        const value = objectBody(body)[field]
        await inTransaction(ctx.db, (trx) => store.modify(trx, ctx, user, { id: ctx.userId, [field]: value ?? '' }))
        return null
      },
    })
  }
  defineCallRoute(app, center.password, {
    access: 'login',
    handler: async ({ ctx, body }) => {
      const input = objectBody(body)
      const oldPsw = String(input.oldPsw ?? input.oldPassword ?? '')
      const newPsw = String(input.newPsw ?? input.newPassword ?? '')
      const confirm = String(input.confirmPsw ?? input.confirmPassword ?? newPsw)
      if (!oldPsw) throw invalid('请输入旧密码', 'oldPsw')
      if (!newPsw) throw invalid('请输入新密码', 'newPsw')
      if (newPsw !== confirm) throw invalid('两次输入的密码不一致', 'confirmPsw')
      const row = await ctx.db.selectFrom('sys_user').select('password').where('id', '=', ctx.userId).executeTakeFirst()
      if (!(await verifyPassword(row?.password as string | undefined, oldPsw))) throw invalid('旧密码不正确', 'oldPsw')
      // The old password is the proof: no reset key needed; the user's other sessions end (hooks.ts).
      await inTransaction(ctx.db, (trx) => store.modify(trx, withPasswordProof(ctx), user, { id: ctx.userId, password: newPsw }))
      return null
    },
  })
  defineCallListRoute(app, services, center.oplog, {
    conditions: paramsOf(services, registry.get('opLog'), registry.get('opLog').file.views?.list?.query ?? []),
    access: 'login',
    handler: async ({ ctx, query }) => {
      const opLog = registry.get('opLog')
      return schemaAnswer<Page<OpLogRow>>(
        await store.list(ctx.db, ctx, opLog, {
          params: [...(opLog.file.views?.list?.query ?? []), { field: 'createById', op: 'eq', forced: ctx.userId }],
          values: query,
          paged: true,
          sort: { field: 'createTime', order: 'desc' },
        }),
      )
    },
  })

  // Users: simple list, roles, unlock.
  const simpleUserParams: QueryParam[] = [
    { field: 'name', op: 'contains' },
    { field: 'code', op: 'contains' },
    { field: 'available', op: 'eq' },
  ]
  defineListRoute(app, services, {
    method: 'GET',
    url: '/system/user/querySimpleUser',
    // A simple user picker: whoever may use the user picker.
    access: pickerKeys(services.registry, 'user'),
    conditions: paramsOf(services, user, simpleUserParams),
    handler: async ({ ctx, query }) =>
      store.list(ctx.db, ctx, user, {
        params: simpleUserParams,
        columns: ['code', 'name', 'username', 'available'],
        values: { available: 'true', ...query },
        paged: true,
        sort: { field: 'code' },
      }),
  })
  defineCallRoute(app, system.userRoles, {
    access: [PERMISSION.system.user.permission, PERMISSION.system.user.query],
    handler: async ({ ctx, query }) => {
      const userId = text(query.userId ?? query.id)
      const roles = await store.list(ctx.db, ctx, role, { params: [], values: {}, paged: false, sort: { field: 'code' } })
      const mine = userId
        ? (await ctx.db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', userId).execute()).map((r) => String(r.role_id))
        : []
      return schemaAnswer<RoleChoice[]>(roles.datas.map((r) => ({ ...r, selected: mine.includes(String(r.id)) })))
    },
  })
  defineCallRoute(app, system.setUserRoles, {
    access: [PERMISSION.system.user.permission],
    handler: async ({ ctx, body }) => {
      const input = objectBody(body)
      const userIds = input.userIds !== undefined ? strings(input.userIds, 'userIds') : [text(input.userId)].filter(Boolean)
      const roleIds = strings(input.roleIds ?? [], 'roleIds')
      if (!userIds.length) throw invalid('请选择用户', 'userIds')
      await inTransaction(ctx.db, (trx) => assignRoles(trx, ctx, userIds, roleIds))
      services.permissions.invalidate()
      return null
    },
  })
  defineCallRoute(app, system.unlockUser, {
    access: [PERMISSION.system.user.unlock, PERMISSION.system.user.modify],
    handler: async ({ ctx, body, query }) => {
      const ids = idsFrom(body, query)
      await assertMayManageUsers(ctx.db, ctx, ids)
      for (const id of ids) await unlockUser(services, ctx.tenantId, ctx.db, id)
      await writeOpLog(ctx.db, ctx, '解锁用户', OpLogType.OTHER, { ids })
      return null
    },
  })
  defineRoute(app, {
    method: 'GET',
    url: '/system/user/dingTalkDataSync',
    access: [PERMISSION.system.user.add],
    handler: async ({ ctx }) => syncDingTalk(services, ctx),
  })

  // Roles: the menu permission tree and its setting.
  defineCallRoute(app, system.roleMenus, {
    access: [PERMISSION.system.role.permission, PERMISSION.system.role.query],
    handler: async ({ ctx, query }) => {
      const roleId = text(query.roleId ?? query.id)
      const menus = await store.list(ctx.db, ctx, menu, { params: [], values: {}, paged: false, sort: { field: 'code' } })
      const granted = roleId
        ? new Set((await ctx.db.selectFrom('sys_role_menu').select('menu_id').where('role_id', '=', roleId).execute()).map((r) => String(r.menu_id)))
        : new Set<string>()
      return schemaAnswer<MenuGrant[]>(
        menus.datas.map((m) => ({
          id: m.id,
          parentId: m.parentId ?? null,
          title: m.title,
          display: m.display,
          permission: m.permission,
          available: m.available,
          selected: granted.has(String(m.id)),
        })),
      )
    },
  })
  defineCallRoute(app, system.setRoleMenus, {
    access: [PERMISSION.system.role.permission],
    handler: async ({ ctx, body }) => {
      const input = objectBody(body)
      const roleIds = input.roleIds !== undefined ? strings(input.roleIds, 'roleIds') : [text(input.roleId)].filter(Boolean)
      const menuIds = [...new Set(strings(input.menuIds ?? [], 'menuIds'))]
      if (!roleIds.length) throw invalid('请选择角色', 'roleIds')
      await inTransaction(ctx.db, async (trx) => {
        const roles = await trx.selectFrom('sys_role').select(['id', 'permission']).where('id', 'in', roleIds).execute()
        if (roles.length !== new Set(roleIds).size) throw invalid('角色不存在！', 'roleIds')
        if (menuIds.length) {
          const found = await trx.selectFrom('sys_menu').select('id').where('id', 'in', menuIds).execute()
          if (found.length !== menuIds.length) throw invalid('菜单不存在！', 'menuIds')
        }
        // A role's menus are keys handed to everyone holding it: only keys the caller holds.
        assertMayGrant(ctx, await menuKeys(trx, menuIds))
        await trx.deleteFrom('sys_role_menu').where('role_id', 'in', roleIds).execute()
        const time = now()
        for (const r of roleIds)
          for (const m of menuIds)
            await trx.insertInto('sys_role_menu').values({ role_id: r, menu_id: m, create_by: ctx.name, create_by_id: ctx.userId, create_time: time }).execute()
        await writeOpLog(trx, ctx, '角色授权', OpLogType.OTHER, { roleIds, count: menuIds.length })
      })
      services.permissions.invalidate()
      return null
    },
  })

  // Dictionaries: items of one dictionary by its code or name.
  const dicItem = registry.get('dicItem')
  const itemsOf = async (ctx: RequestContext, column: 'code' | 'name', value: string) => {
    const dic = await ctx.db.selectFrom('sys_data_dic').select('id').where(column, '=', value).executeTakeFirst()
    if (!dic) return []
    return (
      await store.list(ctx.db, ctx, dicItem, {
        params: [{ field: 'dicId', op: 'eq' }, { field: 'available', op: 'eq' }],
        values: { dicId: String(dic.id), available: 'true' },
        paged: false,
        sort: { field: 'orderNo' },
      })
    ).datas
  }
  defineCallRoute(app, dictionary.itemsByDic, {
    access: 'login',
    handler: async ({ ctx, query }) => {
      await assertDictionaryAccess(services, ctx, 'code', text(query.code))
      return schemaAnswer<DicItem[]>(await itemsOf(ctx, 'code', text(query.code)))
    },
  })
  defineListRoute(app, services, {
    method: 'GET',
    url: '/system/dic/item/queryDicByName',
    conditions: [],
    access: 'login',
    handler: async ({ ctx, query }) => {
      await assertDictionaryAccess(services, ctx, 'name', text(query.name ?? query.dicName))
      return itemsOf(ctx, 'name', text(query.name ?? query.dicName))
    },
  })

  // Modules: platform modules and which a tenant may use.
  defineCallRoute(app, system.setTenantModules, {
    access: [PERMISSION.system.tenant.module],
    handler: async ({ ctx, body }) => {
      if (ctx.tenantId !== services.operatorTenantId) throw forbidden()
      const input = objectBody(body)
      const tenantId = text(input.tenantId)
      const moduleIds = [...new Set(strings(input.moduleIds ?? [], 'moduleIds').map(String))]
      const platform = services.databases.platform
      await inTransaction(platform, async (trx) => {
        if (!(await trx.selectFrom('tenant').select('id').where('id', '=', tenantId).executeTakeFirst())) throw invalid('租户不存在！', 'tenantId')
        if (moduleIds.length) {
          const found = await trx.selectFrom('sys_module').select('id').where('id', 'in', moduleIds).execute()
          if (found.length !== moduleIds.length) throw invalid('模块不存在！', 'moduleIds')
        }
        await trx.deleteFrom('sys_module_tenant').where('tenant_id', '=', tenantId).execute()
        for (const m of moduleIds)
          await trx.insertInto('sys_module_tenant').values({ tenant_id: tenantId, module_id: m, create_by: ctx.name, create_by_id: ctx.userId, create_time: now() }).execute()
      })
      await writeOpLog(ctx.db, ctx, '租户授权模块', OpLogType.OTHER, { tenantId, moduleIds })
      return null
    },
  })
  defineCallRoute(app, system.tenantModules, {
    access: [PERMISSION.system.tenant.module],
    handler: async ({ ctx, query }) => {
      if (ctx.tenantId !== services.operatorTenantId) throw forbidden()
      const rows = await services.databases.platform.selectFrom('sys_module_tenant').select('module_id').where('tenant_id', '=', text(query.tenantId)).execute()
      return rows.map((r) => String(r.module_id))
    },
  })
}
