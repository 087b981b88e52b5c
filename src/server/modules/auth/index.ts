import type { FastifyInstance } from 'fastify'
import { auth } from '../../../shared/contracts/auth.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { defineRoute } from '../../platform/routes.js'
import { invalid, forbidden } from '../../platform/errors.js'
import { patterns } from '../../../shared/metadata/patterns.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { objectBody } from '../../engine/request-values.js'
import type { Services } from '../../engine/services.js'
import { parameterFlag } from '../../platform/parameters.js'
import { assertCanLogin, assertNotLocked, checkCaptcha, checkPassword, findUser, newCaptcha, openSession, rejectUnknownUser, resolveTenant, signInTenant } from './login.js'
import { userMenus } from './menus.js'
import { currentUser } from './current-user.js'
import { CODE_EXPIRED, consumeCode, issueCode } from './verify-codes.js'
import { withPasswordProof } from '../../platform/password-proof.js'
import { prepareDummyHash } from '../../platform/passwords.js'

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/** What `/auth/forget/username` answers for every name, whether it has an account or not. */
export const RECOVERY_MAIL_PLACEHOLDER = '账号绑定的邮箱'
export const RECOVERY_SMS_PLACEHOLDER = '账号绑定的手机号'

export function authModule(app: FastifyInstance, services: Services): void {
  const { databases, config } = services
  prepareDummyHash()
  const platform = databases.platform

  defineCallRoute(app, auth.init, {
    access: 'public',
    handler: async () => {
      const tenants = await platform.selectFrom('tenant').select('id').execute()
      const operator = databases.tenant(services.operatorTenantId)
      return {
        captcha: config.loginCaptcha,
        multiTenant: tenants.length > 1,
        allowRegist: await parameterFlag(operator, 'auth.regist.enabled', false),
        title: config.systemTitle,
      }
    },
  })

  defineCallRoute(app, auth.captcha, {
    access: 'public',
    handler: async () => newCaptcha(platform),
  })

  defineCallRoute(app, auth.login, {
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
      if (!user) return rejectUnknownUser(services, tenant.tenantId, tenant.username, password)
      // Lock first (no guessing on a locked account); "disabled" only after the right password, so
      // it tells nothing to someone who does not know it.
      assertNotLocked(user)
      await checkPassword(services, tenant.tenantId, user, password)
      assertCanLogin(user)
      const token = await openSession(services, tenant.tenantId, user, req.ip, '用户登录')
      return { token, ...(await currentUser(services, tenant.tenantId, db, user.id)) }
    },
  })

  defineCallRoute(app, auth.logout, {
    access: 'login',
    handler: async ({ ctx }) => {
      await services.sessions.end(ctx.token)
      await writeOpLog(ctx.db, ctx, '退出登录', OpLogType.AUTH)
      return null
    },
  })

  defineCallRoute(app, auth.info, {
    access: 'login',
    handler: async ({ ctx }) => currentUser(services, ctx.tenantId, ctx.db, ctx.userId),
  })

  defineCallRoute(app, auth.menus, {
    access: 'login',
    handler: async ({ ctx }) => {
      const grants = await services.permissions.grants(ctx.tenantId, ctx.db, ctx.userId)
      return userMenus(services, ctx, grants?.menuIds ?? new Set())
    },
  })

  for (const [contract, collect] of [[auth.collectMenu, true], [auth.uncollectMenu, false]] as const) {
    defineCallRoute(app, contract, {
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

  defineCallRoute(app, auth.regist, {
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

  // Forgotten password: find the account, send a code by mail or SMS, reset with the code. None of
  // these answers tells whether the name has an account: the codes are keyed by the typed name, a
  // name without an account (or without that address) gets a row that nothing was sent for, and the
  // account is looked up only after a right code.
  const recoveryOf = async (usernameInput: unknown) => {
    const raw = text(usernameInput)
    if (!raw) throw invalid('请输入用户名', 'username')
    const tenant = await resolveTenant(services, raw)
    const db = databases.tenant(tenant.tenantId)
    const row = await db.selectFrom('sys_user').select(['id', 'email', 'telephone']).where('username', '=', tenant.username).executeTakeFirst()
    const account = row ? { id: String(row.id), email: row.email as string | null, telephone: row.telephone as string | null } : undefined
    return { tenantId: tenant.tenantId, username: tenant.username, db, account }
  }
  const recoveryKey = (channel: 'mail' | 'sms', username: string) => `${channel}:${username}`

  defineCallRoute(app, auth.forgetUsername, {
    access: 'public',
    // The same placeholders for every name: showing the masked addresses would tell who has an account.
    handler: async ({ query }) => {
      await recoveryOf(query.username)
      return { email: RECOVERY_MAIL_PLACEHOLDER, telephone: RECOVERY_SMS_PLACEHOLDER }
    },
  })
  for (const channel of ['mail', 'sms'] as const) {
    defineCallRoute(app, auth.forgetCode[channel], {
      access: 'public',
      handler: async ({ query }) => {
        const recovery = await recoveryOf(query.username)
        const address = channel === 'mail' ? recovery.account?.email : recovery.account?.telephone
        await issueCode(services, recovery.tenantId, recoveryKey(channel, recovery.username), 'forget', address ? { channel, address } : null)
        return null
      },
    })
    defineCallRoute(app, auth.forgetReset[channel], {
      access: 'public',
      handler: async ({ body }) => {
        const input = objectBody(body)
        const recovery = await recoveryOf(input.username)
        const password = typeof input.password === 'string' ? input.password : ''
        if (!password) throw invalid('请输入新密码', 'password')
        await consumeCode(services, recovery.tenantId, recoveryKey(channel, recovery.username), 'forget', input.code ?? input.captcha)
        const account = recovery.account
        // A right code was sent to this account's address; gone since then, the code is worth nothing.
        if (!account) throw invalid(CODE_EXPIRED, 'captcha')
        const actor = withPasswordProof({ token: '', tenantId: recovery.tenantId, userId: account.id, username: recovery.username, name: '找回密码', db: recovery.db, isAdmin: false, permissions: new Set<string>(), ip: '' })
        await inTransaction(recovery.db, (trx) => services.store.modify(trx, actor, services.registry.get('user'), { id: account.id, password }))
        return null
      },
    })
  }

  // Telephone login and binding: an SMS code instead of the password. A number without an account
  // gets the same answer as one with (nothing is sent), so numbers cannot be probed.
  defineCallRoute(app, auth.telephoneCaptcha, {
    access: 'public',
    handler: async ({ query }) => {
      const telephone = text(query.telephone)
      if (!patterns.mobile.regex.test(telephone)) throw invalid(patterns.mobile.message, 'telephone')
      const tenantId = await signInTenant(services, text(query.tenantId) || undefined)
      const user = await findUser(databases.tenant(tenantId), 'telephone', telephone)
      await issueCode(services, tenantId, `sms:${telephone}`, 'login', user ? { channel: 'sms', address: telephone } : null)
      return null
    },
  })
  defineCallRoute(app, auth.telephoneLogin, {
    access: 'public',
    handler: async ({ body, req }) => {
      const input = objectBody(body)
      const telephone = text(input.telephone)
      if (!patterns.mobile.regex.test(telephone)) throw invalid(patterns.mobile.message, 'telephone')
      const tenantId = await signInTenant(services, text(input.tenantId) || undefined)
      await consumeCode(services, tenantId, `sms:${telephone}`, 'login', input.captcha ?? input.code)
      const db = databases.tenant(tenantId)
      const user = await findUser(db, 'telephone', telephone)
      if (!user) throw invalid(CODE_EXPIRED, 'captcha')
      assertCanLogin(user)
      const token = await openSession(services, tenantId, user, req.ip, '手机号登录')
      return { token, ...(await currentUser(services, tenantId, db, user.id)) }
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
      // The code binds this number to this user only: another signed-in user cannot spend it.
      const bindKey = `sms:${ctx.userId}:${telephone}`
      if (!input.captcha && !input.code) {
        await issueCode(services, ctx.tenantId, bindKey, 'bind', { channel: 'sms', address: telephone })
        return null
      }
      await consumeCode(services, ctx.tenantId, bindKey, 'bind', input.captcha ?? input.code)
      await inTransaction(ctx.db, (trx) => services.store.modify(trx, ctx, services.registry.get('user'), { id: ctx.userId, telephone }))
      return null
    },
  })
}
