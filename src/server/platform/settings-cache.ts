import { sql } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import { HeardChannel } from '../db/pg-listener.js'
import { KeptReads } from './kept-reads.js'

/** The channel the configuration tables' triggers notify, with the tenant's schema as payload. */
export const SETTINGS_CHANGED_CHANNEL = 'settings_changed'

/**
 * A tenant's configuration rows (the `singleton` entities: 采购参数设置, 销售参数设置, …) as this process last read
 * them. Documents read them on every save and approval, and they change a few times a year: on PostgreSQL each
 * is kept until a statement that changes its table commits (installSettingsNotify), so an approval costs a
 * round trip less (platform/kept-reads.ts has the terms).
 */
export class SettingsCache {
  /** What the process's listening connection (db/pg-listener.ts) tells this cache on SETTINGS_CHANGED_CHANNEL. */
  readonly heard = new HeardChannel(
    (schema) => this.kept.forget(schema),
    () => this.kept.clear(),
  )
  private readonly kept = new KeptReads(this.heard)

  read<T>(tenantId: string, table: string, load: () => Promise<T>): Promise<T> {
    return this.kept.read(tenantId, table, load)
  }

  /** A change committed by this process: dropped here at once, before the notification comes back. */
  invalidate(): void {
    this.heard.epoch++
    this.kept.clear()
  }
}

/** PostgreSQL: every statement that changes one of `tables` of a tenant notifies SETTINGS_CHANGED_CHANNEL when it commits. Idempotent. */
export async function installSettingsNotify(db: Db, kind: DbKind, schema: string | undefined, tables: readonly string[]): Promise<void> {
  if (kind !== 'postgres' || !schema) return
  await sql`create or replace function platform.settings_changed() returns trigger language plpgsql as $body$
    begin
      perform pg_notify(${sql.lit(SETTINGS_CHANGED_CHANNEL)}, tg_table_schema);
      return null;
    end $body$`.execute(db)
  for (const table of tables)
    await sql`create or replace trigger settings_changed after insert or update or delete or truncate on ${sql.id(schema, table)}
      for each statement execute function platform.settings_changed()`.execute(db)
}
