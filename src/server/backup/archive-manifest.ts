import type { DbKind } from '../db/dialect.js'

/**
 * The one archive format of both databases (`backup-….tar.gz`): `manifest.json`, one NDJSON file per
 * table per database (`data/<part>/<table>.ndjson`, first line the column names, then one JSON array per
 * row) and the uploaded files (`files/uploads/…`). A SQLite installation restores into PostgreSQL and
 * back, because rows travel as neutral JSON values, not as either database's dump.
 */
export const ARCHIVE_FORMAT = 'xingyun-backup'
export const ARCHIVE_FORMAT_VERSION = 1

/** The platform database, or one tenant's. */
export type PartName = 'platform' | `tenant:${string}`

export interface TableEntry {
  table: string
  columns: string[]
  rows: number
  /** Archive path of its NDJSON file. */
  file: string
}

export interface PartEntry {
  part: PartName
  /** Applied migrations of each migration set (bookkeeping table → names in order): the schema version. */
  migrations: Record<string, string[]>
  tables: TableEntry[]
}

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT
  formatVersion: number
  appVersion: string
  /** When the backup started: every write acknowledged before it is inside. */
  startedAt: string
  createdAt: string
  kind: DbKind
  tenants: { id: string; name: string }[]
  parts: PartEntry[]
  /** sha256 (hex) and size of every other file of the archive, by archive path. */
  files: Record<string, { sha256: string; size: number }>
}

/** What the list of backups shows of one archive (kept beside it, so listing never opens an archive). */
export interface BackupSummary {
  name: string
  size: number
  startedAt: string
  createdAt: string
  kind: DbKind
  appVersion: string
  tenants: number
  rows: number
}

export const tenantPart = (tenantId: string): PartName => `tenant:${tenantId}`
export const tenantOfPart = (part: PartName): string | undefined => (part.startsWith('tenant:') ? part.slice('tenant:'.length) : undefined)
/** The archive folder of a part's tables (no colon in file names). */
export const partFolder = (part: PartName) => (part === 'platform' ? 'data/platform' : `data/tenant-${tenantOfPart(part)}`)
