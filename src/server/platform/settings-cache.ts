import type { Db, DbKind } from '../db/dialect.js'
import { HeardChannel, installSchemaNotify } from '../db/pg-listener.js'
import { KeptReads } from './kept-reads.js'

/** The channel the configuration tables' triggers notify, with the tenant's schema as payload. */
export const SETTINGS_CHANGED_CHANNEL = 'settings_changed'

/** One tenant's kept reads, as a request's context carries them. */
export interface TenantSettings {
  read<T>(what: string, load: () => Promise<T>): Promise<T>
}

/**
 * A tenant's configuration rows (the `singleton` entities: 采购参数设置, 销售参数设置, …) and the rows of the entities
 * declared `kept` (系统参数, 事件订阅) as this process last read them. Documents read them on every save and approval, and they change a few times a year: on PostgreSQL each
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

  /** The tenant's kept reads (a request's `ctx.settings`). */
  of(tenantId: string): TenantSettings {
    return { read: (what, load) => this.kept.read(tenantId, what, load) }
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
  const events = 'insert or update or delete or truncate'
  await installSchemaNotify(db, schema, 'settings_changed', SETTINGS_CHANGED_CHANNEL, Object.fromEntries(tables.map((table) => [table, events])))
}
