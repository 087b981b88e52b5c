import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/dialect.js'
import { inTransaction } from '../platform/db-tx.js'
import { newId } from '../platform/ids.js'

export const PROCESS_TABLE = 'sys_bus_process'
export const PRESENCE_TABLE = 'sys_bus_presence'

/** Who holds a socket, as its presence row keeps it (what userOffline tells the others). */
export interface PresenceUser {
  tenantId: string
  userId: string
  name: string
  username: string
  ip: string
}

export interface PresenceTimes {
  /** How often this process renews its row. */
  heartbeatMs: number
  /** A process whose row is older than this is dead. */
  expireMs: number
}

/**
 * Presence that outlives a process killed without a word (kill -9, a crash): socket.io tells nobody about
 * the sockets of a process that never ran its disconnect handlers. Each process keeps a row with a
 * heartbeat (epoch ms, renewed every `heartbeatMs`) and one row per socket it holds, in the platform
 * database. At each heartbeat every live process looks for processes not heard of for `expireMs`; the
 * one whose guarded delete removes such a row also removes its sockets' rows and, after the commit,
 * reports the users left with no socket in any process (`onGone`): the others hear userOffline within
 * `expireMs` + `heartbeatMs` of the death.
 */
export class BusPresence {
  readonly processId = newId()
  private timer?: NodeJS.Timeout

  constructor(
    private readonly db: Db,
    private readonly times: PresenceTimes,
    private readonly log: FastifyBaseLogger,
    /** Sockets this process holds now (to write again if this process was taken for dead, e.g. after a long pause). */
    private readonly localSockets: () => { socketId: string; user: PresenceUser }[],
    private readonly onGone: (user: PresenceUser) => void,
  ) {}

  async start(): Promise<void> {
    await this.register()
    this.timer = setInterval(() => void this.beat(), this.times.heartbeatMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.db.deleteFrom(PRESENCE_TABLE).where('process_id', '=', this.processId).execute()
    await this.db.deleteFrom(PROCESS_TABLE).where('id', '=', this.processId).execute()
  }

  async add(socketId: string, user: PresenceUser): Promise<void> {
    await this.db
      .insertInto(PRESENCE_TABLE)
      .values({ socket_id: socketId, process_id: this.processId, tenant_id: user.tenantId, user_id: user.userId, name: user.name, username: user.username, ip: user.ip })
      .onConflict((oc) => oc.column('socket_id').doNothing())
      .execute()
  }

  async remove(socketId: string): Promise<void> {
    await this.db.deleteFrom(PRESENCE_TABLE).where('socket_id', '=', socketId).execute()
  }

  /** Renews this process's row, then ends the presence of the dead ones. */
  async beat(): Promise<void> {
    try {
      const renewed = await this.db.updateTable(PROCESS_TABLE).set({ heartbeat_at: Date.now() }).where('id', '=', this.processId).executeTakeFirst()
      if (!Number(renewed.numUpdatedRows)) {
        // taken for dead (this process stalled longer than expireMs): its sockets are still here
        this.log.warn('bus: this process was taken for dead; writing its presence again')
        await this.register()
        for (const { socketId, user } of this.localSockets()) await this.add(socketId, user)
      }
      await this.reapDead()
    } catch (error) {
      this.log.warn({ err: error }, 'bus: presence heartbeat failed')
    }
  }

  private async register() {
    await this.db.insertInto(PROCESS_TABLE).values({ id: this.processId, heartbeat_at: Date.now() }).onConflict((oc) => oc.column('id').doNothing()).execute()
  }

  private async reapDead(): Promise<void> {
    const cutoff = Date.now() - this.times.expireMs
    const dead = await this.db.selectFrom(PROCESS_TABLE).select('id').where('heartbeat_at', '<', cutoff).execute()
    for (const { id } of dead) {
      const gone = await inTransaction(this.db, async (trx) => {
        // guarded: of several live processes, one removes the dead one, and a process beating again is not dead
        const removed = await trx.deleteFrom(PROCESS_TABLE).where('id', '=', String(id)).where('heartbeat_at', '<', cutoff).returning('id').executeTakeFirst()
        if (!removed) return []
        return trx.deleteFrom(PRESENCE_TABLE).where('process_id', '=', String(id)).returning(['tenant_id', 'user_id', 'name', 'username', 'ip']).execute()
      })
      if (gone.length) this.log.warn({ process: id, sockets: gone.length }, 'bus: a process stopped without closing its sockets; its users are told offline')
      const users = new Map<string, PresenceUser>()
      for (const r of gone)
        users.set(`${r.tenant_id}\u0000${r.user_id}`, { tenantId: String(r.tenant_id), userId: String(r.user_id), name: String(r.name ?? ''), username: String(r.username ?? ''), ip: String(r.ip ?? '') })
      for (const user of users.values()) {
        const left = await this.db
          .selectFrom(PRESENCE_TABLE)
          .select('socket_id')
          .where('tenant_id', '=', user.tenantId)
          .where('user_id', '=', user.userId)
          .limit(1)
          .executeTakeFirst()
        if (!left) this.onGone(user)
      }
    }
  }
}
