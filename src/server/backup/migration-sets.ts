import type { Migration } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import { migrate, platformMigrations, tenantMigrations } from '../db/migrations.js'
import { busMigrations } from '../realtime/bus-messages.js'
import { importTaskMigrations } from '../db/import-task-migrations.js'
import { BackupError } from './backup-error.js'

/**
 * The versioned migrations of the app, by bookkeeping table: an archive records which of them had run, and
 * restore brings a new database to exactly that state before loading rows, then runs the rest (an older
 * backup is migrated forward the way the app migrates an older database). Entity tables are not versioned:
 * they are brought up to their files, which only ever adds tables and columns, so older rows fit.
 */
export interface VersionedSet {
  label: string
  table: string
  scope: 'platform' | 'tenant'
  migrations(kind: DbKind, schema?: string): Record<string, Migration>
}

export const VERSIONED_SETS: readonly VersionedSet[] = [
  { label: 'platform', table: 'kysely_migration', scope: 'platform', migrations: (kind) => platformMigrations(kind) },
  { label: 'bus', table: 'bus_migration', scope: 'platform', migrations: busMigrations },
  { label: 'import task', table: 'component_migration', scope: 'platform', migrations: (kind) => importTaskMigrations(kind) },
  { label: 'tenant', table: 'kysely_migration', scope: 'tenant', migrations: (kind) => tenantMigrations(kind) },
]

/** Runs the migrations of `set` that the archive had run (`applied`), and only those. */
export async function migrateSetTo(db: Db, kind: DbKind, schema: string | undefined, set: VersionedSet, applied: readonly string[]): Promise<void> {
  const known = set.migrations(kind, schema)
  const unknown = applied.find((name) => !(name in known))
  if (unknown) throw new BackupError(`备份来自更新的版本（迁移 ${unknown} 在本版本中不存在），请先升级本系统再恢复`)
  const wanted = new Set(applied)
  await migrate(db, { label: set.label, migrations: Object.fromEntries(Object.entries(known).filter(([name]) => wanted.has(name))), table: set.table, schema })
}
