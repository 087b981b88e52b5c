import dayjs from 'dayjs'
import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { forbidden, invalid, notFound } from '../../platform/errors.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { loadGrants } from '../../platform/permissions.js'
import { pageArgs } from '../../platform/page-args.js'
import { now } from '../../platform/clock.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { apiTokens, type ApiTokenKeyMenu } from '../../../shared/contracts/api-tokens.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const KEYS = PERMISSION.system.apiToken
const NAME_MAX = 64
const EXPIRY = /^(\d{4}-\d{2}-\d{2})( \d{2}:\d{2}:\d{2})?$/

/** Every permission key of the menu seed (an admin's own keys). */
function allKeys(): string[] {
  const out: string[] = []
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.push(node)
    else if (node && typeof node === 'object') Object.values(node).forEach(walk)
  }
  walk(PERMISSION)
  return [...new Set(out)].sort()
}

/**
 * The tenant's menus that grant one of `keys`, with the catalogs and menus above them, in menu order: the
 * tree the keys of a token are chosen in, grouped as the user knows them.
 */
async function keyMenus(ctx: RequestContext, keys: ReadonlySet<string>): Promise<ApiTokenKeyMenu[]> {
  const rows = await ctx.db.selectFrom('sys_menu').select(['id', 'parent_id', 'title', 'permission']).orderBy('code').orderBy('id').execute()
  const byId = new Map(rows.map((r) => [String(r.id), r]))
  const wanted = new Set<string>()
  for (const r of rows) {
    if (!r.permission || !keys.has(String(r.permission))) continue
    const seen = new Set<string>()
    for (let id: string | undefined = String(r.id); id && byId.has(id) && !seen.has(id); id = byId.get(id)!.parent_id ? String(byId.get(id)!.parent_id) : undefined) {
      seen.add(id)
      wanted.add(id)
    }
  }
  return rows
    .filter((r) => wanted.has(String(r.id)))
    .map((r) => ({
      id: String(r.id),
      parentId: r.parent_id ? String(r.parent_id) : null,
      title: String(r.title),
      permission: r.permission && keys.has(String(r.permission)) ? String(r.permission) : null,
    }))
}

/**
 * 接口令牌 (系统管理): a user makes named tokens for integrations, each with an expiry and some of the
 * user's own permission keys; a holder of 管理其他用户的令牌 does so for another user of the tenant (a
 * service user). The token is answered once; only its digest is kept (platform/api-tokens.ts). A call
 * through a token cannot manage tokens: a token never makes another.
 */
export function apiTokenRoutes(app: FastifyInstance, services: Services): void {
  const others = (ctx: RequestContext) => hasPermission(ctx, [KEYS.others])
  /** Whose tokens the call is about: the caller, or another user for a holder of the others key. */
  const subject = (ctx: RequestContext, userId: unknown): string => {
    if (ctx.apiToken) throw forbidden()
    if (userId === undefined || userId === null || userId === '' || userId === ctx.userId) return ctx.userId
    if (typeof userId !== 'string' || !others(ctx)) throw forbidden()
    return userId
  }
  /** The keys a token of `userId` may carry: that user's own. */
  const ownKeys = async (ctx: RequestContext, userId: string): Promise<string[]> => {
    const grants = await loadGrants(ctx.db, userId)
    if (!grants) throw notFound('用户不存在！')
    return grants.isAdmin ? allKeys() : [...grants.permissions].sort()
  }

  defineCallRoute(app, apiTokens.query, {
    access: [KEYS.query],
    handler: async ({ ctx, params }) => {
      const userId = params.userId || !others(ctx) ? subject(ctx, params.userId) : undefined
      const { pageIndex, pageSize } = pageArgs({ ...params })
      const page = await services.apiTokens.list(ctx.tenantId, userId, pageIndex, pageSize)
      const ids = [...new Set(page.datas.map((r) => r.userId))]
      const users = ids.length ? await ctx.db.selectFrom('sys_user').select(['id', 'username']).where('id', 'in', ids).execute() : []
      const names = new Map(users.map((u) => [String(u.id), String(u.username)]))
      return { pageIndex, pageSize, totalCount: page.totalCount, datas: page.datas.map((r) => ({ ...r, username: names.get(r.userId) ?? '' })) }
    },
  })

  defineCallRoute(app, apiTokens.keys, {
    access: [KEYS.add],
    handler: async ({ ctx, params }) => {
      const keys = await ownKeys(ctx, subject(ctx, params.userId))
      return { keys, menus: await keyMenus(ctx, new Set(keys)) }
    },
  })

  defineCallRoute(app, apiTokens.create, {
    access: [KEYS.add],
    handler: async ({ ctx, params }) => {
      const body = (params && typeof params === 'object' ? params : {}) as Partial<Record<keyof typeof params, unknown>>
      const userId = subject(ctx, body.userId)
      const name = typeof body.name === 'string' ? body.name.trim() : ''
      if (!name) throw invalid('请输入令牌名称', 'name')
      if (name.length > NAME_MAX) throw invalid(`令牌名称不能超过${NAME_MAX}个字符`, 'name')
      const written = typeof body.expireTime === 'string' && EXPIRY.exec(body.expireTime.trim())
      // A day alone means the end of that day.
      const expire = written ? dayjs(written[2] ? written[0] : `${written[1]} 23:59:59`) : undefined
      if (!expire || !expire.isValid() || expire.format('YYYY-MM-DD') !== (written as RegExpExecArray)[1]) throw invalid('请选择令牌的有效期', 'expireTime')
      const expireTime = expire.format('YYYY-MM-DD HH:mm:ss')
      if (expireTime <= now()) throw invalid('令牌的有效期须晚于当前时间', 'expireTime')
      const keys = body.permissions
      if (!Array.isArray(keys) || !keys.length || keys.some((k) => typeof k !== 'string')) throw invalid('请选择令牌的权限', 'permissions')
      const own = new Set(await ownKeys(ctx, userId))
      const foreign = (keys as string[]).filter((k) => !own.has(k))
      if (foreign.length) throw invalid(`令牌的权限须为该用户自己的权限：${foreign.slice(0, 5).join('、')}`, 'permissions')
      const made = await services.apiTokens.create({ tenantId: ctx.tenantId, userId, name, permissions: [...new Set(keys as string[])].sort(), expireTime, actor: ctx })
      await writeOpLog(ctx.db, ctx, '新建接口令牌', OpLogType.OTHER, { id: made.id, name, userId, expireTime })
      return made
    },
  })

  defineCallRoute(app, apiTokens.revoke, {
    access: [KEYS.delete],
    handler: async ({ ctx, params, query }) => {
      const id = params?.id ?? query.id
      if (ctx.apiToken) throw forbidden()
      if (typeof id !== 'string' || !id) throw invalid('请选择要吊销的令牌')
      const revoked = await services.apiTokens.revoke(ctx.tenantId, id, others(ctx) ? undefined : ctx.userId)
      if (!revoked) throw notFound('令牌不存在！')
      await writeOpLog(ctx.db, ctx, '吊销接口令牌', OpLogType.OTHER, { id, name: revoked.name, userId: revoked.userId })
    },
  })
}
