import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../platform/routes.js'
import { invalid, forbidden } from '../../platform/errors.js'
import { patterns } from '../../../shared/metadata/patterns.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { objectBody } from '../../engine/request-values.js'
import type { Services } from '../../services.js'
import { parameterFlag } from '../../platform/parameters.js'
import { assertCanLogin, checkCaptcha, checkPassword, findUser, newCaptcha, openSession, resolveTenant, signInTenant } from './login.js'
import { userMenus } from './menus.js'
import { currentUser } from './current-user.js'
import { consumeCode, issueCode } from './verify-codes.js'

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

export function authModule(app: FastifyInstance, services: Services): void {
  const { databases, config } = services
  const platform = databases.platform

  defineRoute(app, {
    method: 'GET',
    url: '/auth/init',
    access: 'public',
    handler: async () => {
      const tenants = await platform.selectFrom('tenant').select('id').execute()
      const operator = databases.tenant(services.operatorTenantId)
      return {
        captcha: config.loginCaptcha,
        multiTenant: tenants.length > 1,
        allowRegist: await parameterFlag(operator, 'auth.regist.enabled', false),
        title: '星云ERP',
      }
    },
  })

  defineRoute(app, {
    method: 'GET',
    url: '/auth/captcha',
    access: 'public',
    handler: async () => newCaptcha(platform),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/auth/login',
    access: 'public',
    handler: async ({ body, req }) => {
      const input = objectBody(body)
      const username = text(input.username)
      const password = typeof input.password === 'string' ? input.password : ''
      if (!username) throw invalid('请输入用户名', 'username')
      if (!password) throw invalid('请输入密码', 'password')
      if (config.loginCaptcha) await checkCaptcha(platform, input.sn, input.captcha)
      const tenant = await resolveTenant(services, username)
      const db = databases.tenant(tenant.tenantId)
      const user = await findUser(db, 'username', tenant.username)
      if (!user) throw invalid('用户名或密码错误！', 'username')
      assertCanLogin(user)
      await checkPassword(services, tenant.tenantId, user, password)
      const token = await openSession(services, tenant.tenantId, user, req.ip, '用户登录')
      return { token, ...(await currentUser(services, tenant.tenantId, db, user.id)) }
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/auth/logout',
    access: 'login',
    handler: async ({ ctx }) => {
      await services.sessions.end(ctx.token)
      await writeOpLog(ctx.db, ctx, '退出登录', OpLogType.AUTH)
      return null
    },
  })

  defineRoute(app, {
    method: 'GET',
    url: '/auth/info',
    access: 'login',
    handler: async ({ ctx }) => currentUser(services, ctx.tenantId, ctx.db, ctx.userId),
  })

  defineRoute(app, {
    method: 'GET',
    url: '/auth/menus',
    access: 'login',
    handler: async ({ ctx }) => {
      const grants = await services.permissions.grants(ctx.tenantId, ctx.db, ctx.userId)
      return userMenus(services, ctx, grants?.menuIds ?? new Set())
    },
  })

  for (const [url, collect] of [['/menu/collect', true], ['/menu/collect/cancel', false]] as const) {
    defineRoute(app, {
      method: 'POST',
      url,
      access: 'login',
      handler: async ({ ctx, body, query }) => {
        const input = body && typeof body === 'object' ? (body as Record<string, unknown>) : {}
        const menuId = text(input.menuId ?? query.menuId)
        if (!menuId) throw invalid('请选择菜单', 'menuId')
        const menu = await ctx.db.selectFrom('sys_menu').select('id').where('id', '=', menuId).executeTakeFirst()
        if (!menu) throw invalid('菜单不存在！', 'menuId')
        await inTransaction(ctx.db, async (trx) => {
          await trx.deleteFrom('sys_menu_collect').where('user_id', '=', ctx.userId).where('menu_id', '=', menuId).execute()
          if (collect)
            await trx.insertInto('sys_menu_collect').values({ user_id: ctx.userId, menu_id: menuId, create_by_id: ctx.userId, create_time: now() }).execute()
        })
        return null
      },
    })
  }

  defineRoute(app, {
    method: 'POST',
    url: '/auth/regist',
    access: 'public',
    handler: async ({ body, req }) => {
      const operator = databases.tenant(services.operatorTenantId)
      if (!(await parameterFlag(operator, 'auth.regist.enabled', false))) throw forbidden('系统未开放注册！')
      const input = objectBody(body)
      if (config.loginCaptcha) await checkCaptcha(platform, input.sn, input.captcha)
      const entity = services.registry.get('user')
      const system = { token: '', tenantId: services.operatorTenantId, userId: 'regist', username: '', name: '注册', db: operator, isAdmin: false, permissions: new Set<string>(), ip: req.ip }
      const username = text(input.username)
      const id = await inTransaction(operator, (trx) =>
        services.store.create(trx, system, entity, {
          code: username.slice(0, 20),
          username,
          name: text(input.name) || username,
          password: input.password,
          email: input.email,
          telephone: input.telephone,
          gender: 0,
          available: true,
        }),
      )
      return { id }
    },
  })

  // Forgotten password: find the account, send a code by mail or SMS, reset with the code.
  const accountOf = async (usernameInput: unknown) => {
    const raw = text(usernameInput)
    if (!raw) throw invalid('请输入用户名', 'username')
    const tenant = await resolveTenant(services, raw)
    const db = databases.tenant(tenant.tenantId)
    const row = await db.selectFrom('sys_user').select(['id', 'username', 'email', 'telephone']).where('username', '=', tenant.username).executeTakeFirst()
    if (!row) throw invalid('用户不存在！', 'username')
    return { tenantId: tenant.tenantId, db, id: String(row.id), email: row.email as string | null, telephone: row.telephone as string | null }
  }
  const mask = (v: string | null, keep: number) => (v ? v.slice(0, keep) + '****' + v.slice(-Math.min(4, v.length - keep)) : null)

  defineRoute(app, {
    method: 'GET',
    url: '/auth/forget/username',
    access: 'public',
    handler: async ({ query }) => {
      const account = await accountOf(query.username)
      return { email: mask(account.email, 2), telephone: mask(account.telephone, 3) }
    },
  })
  for (const channel of ['mail', 'sms'] as const) {
    defineRoute(app, {
      method: 'GET',
      url: `/auth/forget/${channel}/code`,
      access: 'public',
      handler: async ({ query }) => {
        const account = await accountOf(query.username)
        const target = channel === 'mail' ? account.email : account.telephone
        if (!target) throw invalid(channel === 'mail' ? '该用户未绑定邮箱！' : '该用户未绑定手机号！', 'username')
        await issueCode(services, account.tenantId, `${channel}:${account.id}`, 'forget', channel, target)
        return null
      },
    })
    defineRoute(app, {
      method: 'POST',
      url: `/auth/forget/${channel}`,
      access: 'public',
      handler: async ({ body }) => {
        const input = objectBody(body)
        const account = await accountOf(input.username)
        const password = typeof input.password === 'string' ? input.password : ''
        if (!password) throw invalid('请输入新密码', 'password')
        await consumeCode(services, account.tenantId, `${channel}:${account.id}`, 'forget', input.code ?? input.captcha)
        const actor = { token: '', tenantId: account.tenantId, userId: account.id, username: '', name: '找回密码', db: account.db, isAdmin: false, permissions: new Set<string>(), ip: '' }
        await inTransaction(account.db, (trx) => services.store.modify(trx, actor, services.registry.get('user'), { id: account.id, password }))
        await services.sessions.endUser(account.tenantId, [account.id])
        return null
      },
    })
  }

  // Telephone login and binding: an SMS code instead of the password.
  defineRoute(app, {
    method: 'GET',
    url: '/auth/login/telephone/captcha',
    access: 'public',
    handler: async ({ query }) => {
      const telephone = text(query.telephone)
      if (!patterns.mobile.regex.test(telephone)) throw invalid(patterns.mobile.message, 'telephone')
      const tenant = { tenantId: await signInTenant(services, text(query.tenantId) || undefined) }
      const user = await findUser(databases.tenant(tenant.tenantId), 'telephone', telephone)
      if (!user) throw invalid('该手机号未绑定用户！', 'telephone')
      await issueCode(services, tenant.tenantId, `sms:${telephone}`, 'login', 'sms', telephone)
      return null
    },
  })
  defineRoute(app, {
    method: 'POST',
    url: '/auth/login/telephone',
    access: 'public',
    handler: async ({ body, req }) => {
      const input = objectBody(body)
      const telephone = text(input.telephone)
      if (!patterns.mobile.regex.test(telephone)) throw invalid(patterns.mobile.message, 'telephone')
      const tenant = { tenantId: await signInTenant(services, text(input.tenantId) || undefined) }
      await consumeCode(services, tenant.tenantId, `sms:${telephone}`, 'login', input.captcha ?? input.code)
      const db = databases.tenant(tenant.tenantId)
      const user = await findUser(db, 'telephone', telephone)
      if (!user) throw invalid('该手机号未绑定用户！', 'telephone')
      assertCanLogin(user)
      const token = await openSession(services, tenant.tenantId, user, req.ip, '手机号登录')
      return { token, ...(await currentUser(services, tenant.tenantId, db, user.id)) }
    },
  })
  defineRoute(app, {
    method: 'POST',
    url: '/auth/bind/telephone',
    access: 'login',
    handler: async ({ ctx, body }) => {
      const input = objectBody(body)
      const telephone = text(input.telephone)
      if (!patterns.mobile.regex.test(telephone)) throw invalid(patterns.mobile.message, 'telephone')
      if (!input.captcha && !input.code) {
        await issueCode(services, ctx.tenantId, `sms:${telephone}`, 'bind', 'sms', telephone)
        return null
      }
      await consumeCode(services, ctx.tenantId, `sms:${telephone}`, 'bind', input.captcha ?? input.code)
      await inTransaction(ctx.db, (trx) => services.store.modify(trx, ctx, services.registry.get('user'), { id: ctx.userId, telephone }))
      return null
    },
  })
}
