import crypto from 'node:crypto'
import { pageOf } from './page-args.js'
import dayjs from 'dayjs'
import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'
import { BizError, relogin } from './errors.js'
import { now } from './clock.js'
import { newId } from './ids.js'

/** What a valid token stands for: its user, narrowed to its keys. */
export interface ApiTokenGrant {
  id: string
  name: string
  tenantId: string
  userId: string
  permissions: ReadonlySet<string>
}

export interface ApiTokenRecord {
  id: string
  name: string
  userId: string
  permissions: string[]
  expireTime: string
  lastUsedTime: string | null
  createTime: string
}

/** Tokens are shown once with this prefix, so a leaked one is recognisable (secret scanners, logs). */
const PREFIX = 'xyt_'

export const tokenDigest = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

export const TOO_MANY_CALLS = '调用过于频繁，请稍后再试！'

const text = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : dayjs(v as Date).format('YYYY-MM-DD HH:mm:ss'))

/**
 * API tokens in the platform database (beside the sessions: a token is found before its tenant is known).
 * Only the SHA-256 digest of a token is stored; each call through a token counts in a one-minute window
 * on its row and records its last use, in one guarded update, so every server process sees the same count.
 */
export class ApiTokenStore {
  constructor(
    private readonly db: Db,
    private readonly callsPerMinute: number,
  ) {}

  async create(input: { tenantId: string; userId: string; name: string; permissions: string[]; expireTime: string; actor: { userId: string; name: string } }): Promise<{ id: string; token: string }> {
    const token = PREFIX + crypto.randomBytes(32).toString('base64url')
    const id = newId()
    const time = now()
    await this.db
      .insertInto('sys_api_token')
      .values({
        id,
        digest: tokenDigest(token),
        tenant_id: input.tenantId,
        user_id: input.userId,
        name: input.name,
        permissions: JSON.stringify(input.permissions),
        expire_time: input.expireTime,
        window_start: time,
        window_count: 0,
        create_by: input.actor.name,
        create_by_id: input.actor.userId,
        create_time: time,
        update_by: input.actor.name,
        update_by_id: input.actor.userId,
        update_time: time,
      })
      .execute()
    return { id, token }
  }

  /** The tokens of a tenant (of one user when `userId` is given), newest first. */
  async list(tenantId: string, userId: string | undefined, pageIndex: number, pageSize: number): Promise<{ totalCount: number; datas: ApiTokenRecord[] }> {
    let base = this.db.selectFrom('sys_api_token').where('tenant_id', '=', tenantId)
    if (userId) base = base.where('user_id', '=', userId)
    const { totalCount, rows } = await pageOf(
      base,
      (q) => q.select(['id', 'name', 'user_id', 'permissions', 'expire_time', 'last_used_time', 'create_time']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
      pageIndex,
      pageSize,
    )
    return {
      totalCount,
      datas: rows.map((r) => ({
        id: String(r.id),
        name: String(r.name),
        userId: String(r.user_id),
        permissions: JSON.parse(String(r.permissions)) as string[],
        expireTime: text(r.expire_time) as string,
        lastUsedTime: text(r.last_used_time),
        createTime: text(r.create_time) as string,
      })),
    }
  }

  /** Deletes a token of the tenant (of `userId` when given); answers its name, or undefined when there is none. */
  async revoke(tenantId: string, id: string, userId?: string): Promise<{ name: string; userId: string } | undefined> {
    let q = this.db.deleteFrom('sys_api_token').where('tenant_id', '=', tenantId).where('id', '=', id)
    if (userId) q = q.where('user_id', '=', userId)
    const [row] = await q.returning(['name', 'user_id']).execute()
    return row ? { name: String(row.name), userId: String(row.user_id) } : undefined
  }

  /**
   * The grant of a token, counting the call: 401 for an unknown, revoked or expired token, 429 when
   * its calls of the current minute are used up.
   */
  async resolve(token: string): Promise<ApiTokenGrant> {
    const digest = tokenDigest(token)
    const time = now()
    const windowFloor = dayjs(time).subtract(1, 'minute').format('YYYY-MM-DD HH:mm:ss')
    const fresh = sql<boolean>`window_start <= ${windowFloor}`
    const [row] = await this.db
      .updateTable('sys_api_token')
      .set({
        last_used_time: time,
        window_start: sql`case when ${fresh} then ${time} else window_start end`,
        window_count: sql`case when ${fresh} then 1 else window_count + 1 end`,
      })
      .where('digest', '=', digest)
      .where('expire_time', '>', time)
      .where((eb) => eb.or([fresh, eb('window_count', '<', this.callsPerMinute)]))
      .returning(['id', 'name', 'tenant_id', 'user_id', 'permissions'])
      .execute()
    if (!row) {
      const known = await this.db.selectFrom('sys_api_token').select('id').where('digest', '=', digest).where('expire_time', '>', time).executeTakeFirst()
      throw known ? new BizError(429, TOO_MANY_CALLS) : relogin('接口令牌无效或已过期！')
    }
    return {
      id: String(row.id),
      name: String(row.name),
      tenantId: String(row.tenant_id),
      userId: String(row.user_id),
      permissions: new Set(JSON.parse(String(row.permissions)) as string[]),
    }
  }
}
