import { createHash } from 'node:crypto'
import type { Server as HttpServer } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { Server, type Socket } from 'socket.io'
import { createAdapter } from '@socket.io/postgres-adapter'
import type { Databases } from '../db/databases.js'
import { afterCommit } from '../platform/db-tx.js'
import type { Db } from '../db/dialect.js'
import { invalid } from '../platform/errors.js'
import type { PermissionResolver } from '../platform/permissions.js'
import type { SessionStore } from '../platform/sessions.js'
import { now } from '../platform/clock.js'
import {
  DATA_TOO_LARGE,
  attachmentTable,
  encodeData,
  insertBusMessage,
  migrateBus,
  pruneBusMessages,
} from './bus-messages.js'
import { BusPresence, type PresenceTimes } from './bus-presence.js'
import type { BusMessage } from '../../shared/contracts/bus.js'
import { BIZ_TYPE_PATTERN, BUS_SOCKET_PATH, BusEvent, type PresenceEvent } from '../../shared/contracts/bus.js'

/** Where the socket.io server answers (under the API prefix, so every proxy in front of the API passes it). */
export const BUS_PATH = BUS_SOCKET_PATH
/** How often a process checks that the sessions of its sockets still live (idle and absolute expiry). */
export const SESSION_CHECK_MS = 30_000
/** Error a refused handshake carries (the client sees it as `connect_error`). */
export const BUS_REFUSED = '登录已过期，请重新登录！'

/**
 * Who a socket belongs to, resolved once at the handshake. It travels between processes (fetchSockets
 * answers), so it holds no token: tokens stay in the process that holds the socket (`tokens`).
 */
interface SocketUser {
  tenantId: string
  userId: string
  name: string
  username: string
  ip: string
}

const tenantRoom = (tenantId: string) => `t:${tenantId}`
const userRoom = (tenantId: string, userId: string) => `u:${tenantId}:${userId}`
// Room names travel in NOTIFY payloads between processes: a digest, never the token itself.
const sessionRoom = (token: string) => `s:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`

export interface PublishOptions {
  /** A transaction of the write that causes the message: the message goes out only once it commits. */
  trx?: Db
  /** Who caused it (audit columns); the system by default. */
  by?: { userId: string; name: string }
}

/**
 * The realtime message bus: socket.io on the API's HTTP server, signed in with the session token exactly
 * as HTTP calls are, one room per tenant, per user and per session. Messages are recorded in the platform
 * database (listed by `/message/bus/query`) and emitted once their cause has committed. On PostgreSQL the
 * postgres adapter carries broadcasts, room membership queries and disconnects to every process; on SQLite
 * the default in-process adapter does (SQLite deployments are one process).
 */
export class MessageBus {
  private io?: Server
  private adapterPool?: pg.Pool
  private sessionCheck?: NodeJS.Timeout
  /** Session token of each socket of this process, by socket id. */
  private readonly tokens = new Map<string, string>()
  /** The presence rows of this process's sockets and its heartbeat (what tells the others when it dies). */
  private alive?: BusPresence

  constructor(
    private readonly databases: Databases,
    private readonly sessions: SessionStore,
    private readonly permissions: PermissionResolver,
    private readonly log: FastifyBaseLogger,
  ) {
    sessions.onEnded((tokens) => {
      for (const token of tokens) this.io?.in(sessionRoom(token)).disconnectSockets(true)
    })
  }

  async migrate(): Promise<void> {
    const schema = this.databases.schemaOf('platform')
    await migrateBus(this.databases.platform, this.databases.kind, schema)
    await pruneBusMessages(this.databases.platform)
  }

  /** Starts the socket.io server on `server` (the Fastify server; it answers once that one listens). */
  async attach(server: HttpServer, databaseUrl: string, presence: PresenceTimes): Promise<void> {
    const io = new Server(server, {
      path: BUS_PATH,
      serveClient: false,
      // Same-origin in production; the Vite dev server proxies the path.
      cors: { origin: false },
    })
    if (this.databases.kind === 'postgres') {
      this.adapterPool = new pg.Pool({ connectionString: databaseUrl, max: 4 })
      this.adapterPool.on('error', (error) => this.log.warn({ err: error }, 'bus adapter connection lost'))
      io.adapter(
        createAdapter(this.adapterPool, {
          tableName: attachmentTable(this.databases.schemaOf('platform')),
          errorHandler: (error) => this.log.warn({ err: error }, 'bus adapter error'),
        }),
      )
    }
    io.use((socket, next) => {
      this.authenticate(socket).then(
        ({ token, user }) => {
          socket.data = user
          this.tokens.set(socket.id, token)
          // The handshake is part of what other processes can fetch: the token does not stay in it.
          socket.handshake.auth = {}
          delete socket.handshake.headers['x-auth-token']
          next()
        },
        (error: unknown) => {
          if (!(error instanceof Error && error.message === BUS_REFUSED)) this.log.error({ err: error }, 'bus handshake failed')
          next(new Error(BUS_REFUSED))
        },
      )
    })
    io.on('connection', (socket) => void this.connected(socket))
    this.io = io
    this.alive = new BusPresence(
      this.databases.platform,
      presence,
      this.log,
      () => [...io.of('/').sockets.values()].map((s) => ({ socketId: s.id, user: s.data as SocketUser })),
      (user) => this.presence(BusEvent.userOffline, user),
    )
    await this.alive.start()
    this.sessionCheck = setInterval(() => void this.endExpiredSockets(), SESSION_CHECK_MS)
    this.sessionCheck.unref()
  }

  /** Disconnects this process's sockets and stops the adapter; the HTTP server is closed by Fastify. */
  async close(): Promise<void> {
    clearInterval(this.sessionCheck)
    const io = this.io
    this.io = undefined
    if (!io) return
    io.local.disconnectSockets(true)
    io.engine.close()
    await this.alive?.stop().catch((error: unknown) => this.log.warn({ err: error }, 'bus: presence rows not removed'))
    this.alive = undefined
    // The adapter's heartbeat and LISTEN connection end with it.
    const adapter = io.of('/').adapter as { close?: () => Promise<void> | void; client?: { client?: unknown; reconnectTimer?: unknown } }
    // @socket.io/postgres-adapter 0.5 releases its LISTEN connection on close only once that connection is
    // set up: closed sooner (an app started and stopped at once), the connection stays checked out and the
    // pool's end() never returns. Wait (briefly) for the set-up to finish or fail first.
    const pubsub = adapter.client
    for (let i = 0; this.adapterPool && pubsub && !pubsub.client && !pubsub.reconnectTimer && i < 250; i++) await new Promise((r) => setTimeout(r, 20))
    await Promise.resolve(adapter.close?.()).catch(() => {})
    await this.adapterPool?.end().catch(() => {})
  }

  /** Records a message for one user and emits it to their sockets (in every process) as `bizType`. */
  async publishToUser(tenantId: string, userId: string, bizType: string, data: unknown, options: PublishOptions = {}): Promise<void> {
    await this.publish(tenantId, userId, bizType, data, options)
  }

  /** Records a message for every user of a tenant and emits it to all their sockets. */
  async publishToTenant(tenantId: string, bizType: string, data: unknown, options: PublishOptions = {}): Promise<void> {
    await this.publish(tenantId, null, bizType, data, options)
  }

  /** Sockets connected to this process (for /metrics). */
  localSockets(): number {
    return this.io?.of('/').sockets.size ?? 0
  }

  /** Sockets of a user across all processes (0 when the bus is not started). */
  async socketsOf(tenantId: string, userId: string): Promise<number> {
    if (!this.io) return 0
    return (await this.io.in(userRoom(tenantId, userId)).fetchSockets()).length
  }

  private async publish(tenantId: string, userId: string | null, bizType: string, data: unknown, options: PublishOptions) {
    if (!BIZ_TYPE_PATTERN.test(bizType)) throw invalid('消息类型不正确', 'bizType')
    const text = encodeData(data)
    if (text === undefined) throw invalid(DATA_TOO_LARGE, 'data')
    const send = async () => {
      const message = await insertBusMessage(
        this.databases.platform,
        { tenantId, userId, bizType, data, by: options.by ?? { userId: 'system', name: '系统' } },
        text,
      )
      this.emit(message, tenantId)
    }
    if (!options.trx) return send()
    // The caller's transaction is usually a tenant database's; the platform row follows its commit.
    afterCommit(options.trx, () => void send().catch((error: unknown) => this.log.error({ err: error, bizType }, 'bus message not sent')))
  }

  private emit(message: BusMessage, tenantId: string) {
    const room = message.userId ? userRoom(tenantId, message.userId) : tenantRoom(tenantId)
    this.io?.to(room).emit(message.bizType, message)
  }

  /** The handshake: the token of `auth.token` (or the X-Auth-Token header) must be a live session of an enabled user. */
  private async authenticate(socket: Socket): Promise<{ token: string; user: SocketUser }> {
    const auth = socket.handshake.auth as Record<string, unknown> | undefined
    const header = socket.handshake.headers['x-auth-token']
    const token = typeof auth?.token === 'string' ? auth.token : Array.isArray(header) ? header[0] : header
    if (!token || token.length > 128) throw new Error(BUS_REFUSED)
    const session = await this.sessions.resolve(token)
    if (!session) throw new Error(BUS_REFUSED)
    const db = this.databases.tenant(session.tenantId)
    const grants = await this.permissions.grants(session.tenantId, db, session.userId)
    if (!grants?.available) throw new Error(BUS_REFUSED)
    return {
      token,
      user: { tenantId: session.tenantId, userId: session.userId, name: grants.name, username: grants.username, ip: clientIp(socket) },
    }
  }

  private async connected(socket: Socket) {
    const user = socket.data as SocketUser
    const token = this.tokens.get(socket.id) ?? ''
    const own = userRoom(user.tenantId, user.userId)
    socket.on('disconnect', () => {
      this.tokens.delete(socket.id)
      void this.alive?.remove(socket.id).catch((error: unknown) => this.log.warn({ err: error }, 'bus: presence row not removed'))
      void this.left(user)
    })
    await socket.join([tenantRoom(user.tenantId), own, sessionRoom(token)])
    try {
      await this.alive?.add(socket.id, user)
      // gone while its row was written: the disconnect's removal may have come first
      if (!socket.connected) await this.alive?.remove(socket.id)
    } catch (error) {
      this.log.warn({ err: error }, 'bus: presence row not written')
    }
    // The session may have ended between the handshake and the join (a logout racing the connect).
    if (!(await this.sessions.live([token])).has(token)) {
      socket.disconnect(true)
      return
    }
    // A socket gone again before it was counted is no coming online (its leaving counts the rest).
    if ((await this.countSockets(own, 1)) === 1 && socket.connected) this.presence(BusEvent.userOnline, user)
  }

  private async left(user: SocketUser) {
    if ((await this.countSockets(userRoom(user.tenantId, user.userId), 0)) === 0) this.presence(BusEvent.userOffline, user)
  }

  /** Sockets in `room` across processes; `fallback` when another process does not answer in time. */
  private async countSockets(room: string, fallback: number): Promise<number> {
    if (!this.io) return fallback
    try {
      return (await this.io.in(room).fetchSockets()).length
    } catch (error) {
      this.log.warn({ err: error }, 'bus: socket count across processes failed')
      return fallback
    }
  }

  /** Online/offline: the other users of the tenant see who, from where and when (not recorded). */
  private presence(event: BusEvent, user: SocketUser) {
    const payload: PresenceEvent = { userId: user.userId, name: user.name, username: user.username, ip: user.ip, time: now() }
    this.io?.to(tenantRoom(user.tenantId)).except(userRoom(user.tenantId, user.userId)).emit(event, payload)
  }

  /** Ends the sockets of this process whose session has expired or was removed behind the server's back (every SESSION_CHECK_MS). */
  async endExpiredSockets(): Promise<void> {
    const io = this.io
    if (!io) return
    try {
      const alive = await this.sessions.live([...new Set(this.tokens.values())])
      for (const [id, token] of this.tokens) if (!alive.has(token)) io.of('/').sockets.get(id)?.disconnect(true)
    } catch (error) {
      this.log.warn({ err: error }, 'bus session check failed')
    }
  }
}

function clientIp(socket: Socket): string {
  const plain = (a: string) => (a.startsWith('::ffff:') ? a.slice(7) : a)
  const direct = plain(socket.handshake.address)
  // Only a proxy on this machine (npm run cluster's) is believed about the browser's address.
  if (direct !== '127.0.0.1' && direct !== '::1') return direct
  const forwarded = socket.handshake.headers['x-forwarded-for']
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim()
  return first ? plain(first) : direct
}
