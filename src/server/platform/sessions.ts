import crypto from 'node:crypto'
import dayjs from 'dayjs'
import type { Db } from '../db/dialect.js'
import { executePrepared } from '../db/prepared-statements.js'
import { later, now } from './clock.js'
import type { SessionCache, SessionRow } from './session-cache.js'
import { shapedStatement, where } from '../db/shaped-statements.js'

/** Activity is written at most this often per session. */
export const ACTIVITY_WRITE_MS = 60_000

/**
 * Sessions in the platform database (token -> tenant, user, idle and absolute expiry) so several
 * server processes can share them. Activity is written at most once a minute per session. On PostgreSQL
 * a `cache` (session-cache.ts) answers the reads between two activity writes.
 */
export class SessionStore {
  private readonly endedListeners = new Set<(tokens: string[]) => void>()

  constructor(
    private readonly db: Db,
    private readonly idleMinutes: number,
    private readonly maxHours: number,
    private readonly cache?: SessionCache,
  ) {}

  async create(tenantId: string, userId: string, ip: string): Promise<string> {
    const token = crypto.randomBytes(24).toString('base64url')
    const time = now()
    await this.db
      .insertInto('sys_session')
      .values({
        token,
        tenant_id: tenantId,
        user_id: userId,
        ip,
        last_active_time: time,
        expire_time: later(this.maxHours * 60),
        create_by_id: userId,
        create_time: time,
        update_by_id: userId,
        update_time: time,
      })
      .execute()
    return token
  }

  async resolve(token: string): Promise<SessionRow | undefined> {
    const cached = this.cache?.get(token, Date.now())
    if (cached) return cached
    const mark = this.cache?.mark()
    // Every authenticated call runs it: named on PostgreSQL (db/prepared-statements.ts), compiled once
    // (db/shaped-statements.ts).
    const read = shapedStatement(this.db, 'session', [where('token', '=', token)], [], ([mine]) =>
      this.db.selectFrom('sys_session').select(['token', 'tenant_id', 'user_id', 'last_active_time', 'expire_time']).where(mine),
    )
    const [row] = await executePrepared(this.db, read)
    if (!row) return undefined
    const current = dayjs()
    const lastActive = dayjs(String(row.last_active_time))
    if (current.isAfter(dayjs(String(row.expire_time))) || current.diff(lastActive, 'minute', true) > this.idleMinutes) {
      await this.end(token)
      return undefined
    }
    let activeAt = lastActive.valueOf()
    if (current.diff(lastActive) >= ACTIVITY_WRITE_MS) {
      await this.db.updateTable('sys_session').set({ last_active_time: now() }).where('token', '=', token).execute()
      activeAt = current.valueOf()
    }
    const session = { token, tenantId: String(row.tenant_id), userId: String(row.user_id) }
    if (mark !== undefined) this.cache?.keep(mark, session, activeAt, dayjs(String(row.expire_time)).valueOf())
    return session
  }

  /** Deletes the sessions past their absolute or idle expiry (the 清理过期会话 job); answers how many. */
  async purgeExpired(): Promise<number> {
    const idleSince = dayjs().subtract(this.idleMinutes, 'minute').format('YYYY-MM-DD HH:mm:ss')
    const ended = await this.db
      .deleteFrom('sys_session')
      .where((eb) => eb.or([eb('expire_time', '<', now()), eb('last_active_time', '<', idleSince)]))
      .returning('token')
      .execute()
    this.ended(ended.map((r) => String(r.token)))
    return ended.length
  }

  async end(token: string): Promise<void> {
    await this.db.deleteFrom('sys_session').where('token', '=', token).execute()
    this.ended([token])
  }

  /**
   * Which of `tokens` still name a live session, read without counting as activity (an open socket
   * must not keep an idle session alive). Expired ones end here.
   */
  async live(tokens: string[]): Promise<Set<string>> {
    const alive = new Set<string>()
    if (!tokens.length) return alive
    const rows = await this.db.selectFrom('sys_session').select(['token', 'last_active_time', 'expire_time']).where('token', 'in', tokens).execute()
    const current = dayjs()
    for (const row of rows) {
      const token = String(row.token)
      const expired = current.isAfter(dayjs(String(row.expire_time))) || current.diff(dayjs(String(row.last_active_time)), 'minute', true) > this.idleMinutes
      if (expired) await this.db.deleteFrom('sys_session').where('token', '=', token).execute()
      else alive.add(token)
    }
    this.ended(tokens.filter((t) => !alive.has(t)))
    return alive
  }

  /** Called with the tokens of sessions that ended here (logout, expiry, signed out everywhere). */
  onEnded(listener: (tokens: string[]) => void): void {
    this.endedListeners.add(listener)
  }

  private ended(tokens: string[]) {
    if (!tokens.length) return
    this.cache?.drop(tokens)
    for (const listener of this.endedListeners) listener(tokens)
  }

  /**
   * Signs users out everywhere (disabled, locked, password changed), except `keepToken`: the session
   * that changed its own password stays signed in.
   */
  async endUser(tenantId: string, userIds: string[], keepToken?: string): Promise<void> {
    if (!userIds.length) return
    let query = this.db.deleteFrom('sys_session').where('tenant_id', '=', tenantId).where('user_id', 'in', userIds)
    if (keepToken) query = query.where('token', '<>', keepToken)
    const ended = await query.returning('token').execute()
    this.ended(ended.map((r) => String(r.token)))
  }
}
