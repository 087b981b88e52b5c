import dayjs from 'dayjs'
import { sql, type Migration } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import { migrate, withAudit } from '../db/migrations.js'
import { newId } from '../platform/ids.js'
import { now } from '../platform/clock.js'
import type { BusMessage } from '../../shared/contracts/bus.js'
import { PRESENCE_TABLE, PROCESS_TABLE } from './bus-presence.js'

const TABLE = 'sys_bus_message'
/** Messages older than this are removed (the bus is a recent-events feed, not an archive). */
export const KEEP_DAYS = 30
/** Largest stored `data` (JSON text): socket.io-postgres-adapter notifies up to 8,000 bytes without an attachment row. */
export const MAX_DATA_BYTES = 6000
/** What a message's `data` may not be larger than once serialised (said to the caller who sends it). */
export const DATA_TOO_LARGE = '消息内容过大'
/** socket.io-postgres-adapter keeps larger packets here (PostgreSQL only). */
export const ATTACHMENT_TABLE = 'socket_io_attachments'
export const attachmentTable = (schema?: string) => (schema ? `${schema}.${ATTACHMENT_TABLE}` : ATTACHMENT_TABLE)


/**
 * The bus tables live in the platform database beside sessions (messages carry their tenant), so every
 * process and every tenant created later share them. Their migrations are the bus's own, with their own
 * bookkeeping table, like the import tasks'.
 */
export function busMigrations(kind: DbKind, schema?: string): Record<string, Migration> {
  return {
    '0001_bus_message': {
      async up(db: Db) {
        await db.schema
          .createTable(TABLE)
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(64)')
          .addColumn('biz_type', 'varchar(64)', (c) => c.notNull())
          .addColumn('data', 'text')
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema.createIndex('ix_sys_bus_message_tenant').on(TABLE).columns(['tenant_id', 'create_time']).execute()
        if (kind === 'postgres') {
          // The adapter's table for packets over NOTIFY's limit; made here so it sits in the platform schema.
          await sql`create table if not exists ${sql.table(attachmentTable(schema))} (id bigserial unique, created_at timestamptz default now(), payload bytea)`.execute(db)
        }
      },
    },
    // Presence that outlives a killed process (bus-presence.ts): each process's heartbeat, each socket's holder.
    '0002_bus_presence': {
      async up(db: Db) {
        await db.schema
          .createTable(PROCESS_TABLE)
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
          .execute()
        await db.schema
          .createTable(PRESENCE_TABLE)
          .addColumn('socket_id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('process_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('name', 'varchar(100)')
          .addColumn('username', 'varchar(100)')
          .addColumn('ip', 'varchar(64)')
          .execute()
        await db.schema.createIndex('ix_sys_bus_presence_process').on(PRESENCE_TABLE).column('process_id').execute()
        await db.schema.createIndex('ix_sys_bus_presence_user').on(PRESENCE_TABLE).columns(['tenant_id', 'user_id']).execute()
      },
    },
  }
}

export async function migrateBus(db: Db, kind: DbKind, schema?: string): Promise<void> {
  await migrate(db, { label: 'bus', migrations: busMigrations(kind, schema), table: 'bus_migration', schema })
}

export interface NewBusMessage {
  tenantId: string
  userId: string | null
  bizType: string
  data: unknown
  /** Who caused it (audit columns). */
  by: { userId: string; name: string }
}

/** Serialised `data`, or undefined when it is too large to travel on the bus. */
export function encodeData(data: unknown): string | undefined {
  const text = JSON.stringify(data ?? null)
  return Buffer.byteLength(text) > MAX_DATA_BYTES ? undefined : text
}

/** Writes one message (in `db`, which may be the caller's transaction on the platform database). */
export async function insertBusMessage(db: Db, message: NewBusMessage, dataText: string): Promise<BusMessage> {
  const time = now()
  const id = newId()
  await db
    .insertInto(TABLE)
    .values({
      id,
      tenant_id: message.tenantId,
      user_id: message.userId,
      biz_type: message.bizType,
      data: dataText,
      create_by: message.by.name,
      create_by_id: message.by.userId,
      create_time: time,
      update_by: message.by.name,
      update_by_id: message.by.userId,
      update_time: time,
    })
    .execute()
  return { id, bizType: message.bizType, userId: message.userId, data: JSON.parse(dataText) as unknown, createTime: time }
}

export interface BusQuery {
  tenantId: string
  userId: string
  pageIndex: number
  pageSize: number
  bizType?: string
  /** Only the messages addressed to the caller, not those to the whole tenant. */
  personal?: boolean
}

/** The caller's recent messages: those to the whole tenant and those to them, newest first. */
export async function queryBusMessages(db: Db, q: BusQuery): Promise<{ totalCount: number; datas: BusMessage[] }> {
  let base = db
    .selectFrom(TABLE)
    .where('tenant_id', '=', q.tenantId)
    .where((eb) => (q.personal ? eb('user_id', '=', q.userId) : eb.or([eb('user_id', 'is', null), eb('user_id', '=', q.userId)])))
  if (q.bizType) base = base.where('biz_type', '=', q.bizType)
  const totalCount = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
  const rows = await base
    .select(['id', 'biz_type', 'user_id', 'data', 'create_time'])
    .orderBy('create_time', 'desc')
    .orderBy('id', 'desc')
    .limit(q.pageSize)
    .offset((q.pageIndex - 1) * q.pageSize)
    .execute()
  return {
    totalCount,
    datas: rows.map((r) => ({
      id: String(r.id),
      bizType: String(r.biz_type),
      userId: r.user_id === null ? null : String(r.user_id),
      data: parseData(r.data),
      createTime: String(r.create_time),
    })),
  }
}

function parseData(text: unknown): unknown {
  try {
    return text === null || text === undefined ? null : (JSON.parse(String(text)) as unknown)
  } catch {
    return null
  }
}

/** Removes messages older than KEEP_DAYS. */
export async function pruneBusMessages(db: Db): Promise<void> {
  await db.deleteFrom(TABLE).where('create_time', '<', dayjs().subtract(KEEP_DAYS, 'day').format('YYYY-MM-DD HH:mm:ss')).execute()
}
