import pg from 'pg'
import { sql } from 'kysely'
import type { Db } from './dialect.js'

export interface ListenerEvents {
  /** A notification on the channel (its payload). */
  message(payload: string): void
  /** Listening (again): notifications from now on are delivered. */
  up(): void
  /** The connection is lost: notifications sent meanwhile are lost too. */
  down(): void
}

const RETRY_MS = [100, 500, 2_000, 5_000]

/**
 * One PostgreSQL connection of its own LISTENing on each channel of `channels`, reconnected after a loss with
 * growing waits. A pooled connection cannot listen: it is handed to other queries between them.
 */
export function listenTo(connectionString: string, channels: Record<string, ListenerEvents>): { close(): Promise<void> } {
  let client: pg.Client | undefined
  let closed = false
  let failures = 0
  let retry: NodeJS.Timeout | undefined
  const all = Object.values(channels)

  const connect = async () => {
    retry = undefined
    const next = new pg.Client({ connectionString })
    const lost = () => {
      if (client !== next) return
      client = undefined
      for (const events of all) events.down()
      next.end().catch(() => undefined)
      if (!closed) retry = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)])
    }
    next.on('error', lost)
    next.on('end', lost)
    next.on('notification', (n) => channels[n.channel]?.message(n.payload ?? ''))
    client = next
    try {
      await next.connect()
      for (const channel of Object.keys(channels)) await next.query(`listen ${pg.escapeIdentifier(channel)}`)
      if (closed) return void next.end().catch(() => undefined)
      failures = 0
      for (const events of all) events.up()
    } catch {
      lost()
    }
  }
  void connect()
  return {
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      const last = client
      client = undefined
      for (const events of all) events.down()
      await last?.end().catch(() => undefined)
    },
  }
}

/**
 * What a cache kept true by one channel knows of it: whether the process hears it now, and a counter bumped by
 * every message and every loss, so a read that was in flight while the counter moved is not kept (it may
 * have seen the rows before the change that was notified). `forget` drops what the payload names; `lost`
 * drops everything (messages sent while not listening are lost).
 */
export class HeardChannel {
  listening = false
  epoch = 0

  constructor(
    private readonly forget: (payload: string) => void,
    private readonly lost: () => void,
  ) {}

  readonly events: ListenerEvents = {
    message: (payload) => {
      this.epoch++
      this.forget(payload)
    },
    up: () => {
      this.epoch++
      this.listening = true
    },
    down: () => {
      this.epoch++
      this.listening = false
      this.lost()
    },
  }
}

/**
 * A statement trigger `name` on each of `tables` (table name → the events that fire it) of `schema`, notifying
 * `channel` with the schema when the writing transaction commits: what a cache kept true by that channel listens
 * for. PostgreSQL only; idempotent (start-up runs it on every tenant).
 */
export async function installSchemaNotify(db: Db, schema: string, name: string, channel: string, tables: Record<string, string>): Promise<void> {
  await sql`create or replace function ${sql.id('platform', name)}() returns trigger language plpgsql as $body$
    begin
      perform pg_notify(${sql.lit(channel)}, tg_table_schema);
      return null;
    end $body$`.execute(db)
  for (const [table, events] of Object.entries(tables))
    await sql`create or replace trigger ${sql.id(name)} after ${sql.raw(events)} on ${sql.id(schema, table)}
      for each statement execute function ${sql.id('platform', name)}()`.execute(db)
}
