import fs from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import * as tar from 'tar'
import type { Db } from '../db/dialect.js'
import { Databases } from '../db/databases.js'
import { parseDatabaseUrl } from '../db/connections.js'
import { APP_VERSION } from './app-version.js'
import { isArchivedTable, isMigrationTable, sqliteTableColumns, sqliteTables, tablesOf, type TableColumns } from './archived-tables.js'
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, partFolder, tenantPart, type BackupManifest, type BackupSummary, type PartEntry, type PartName } from './archive-manifest.js'
import { sha256Of, writeTableFile } from './ndjson-file.js'
import { archiveName, summaryOf, summaryPath } from './backup-folder.js'

export interface BackupSource {
  /** DATABASE_URL of the installation (`sqlite:<file>` or `postgres://…`). */
  databaseUrl: string
  /** DATA_DIR: its `uploads/` go into the archive. */
  dataDir: string
}

export interface MadeBackup {
  file: string
  manifest: BackupManifest
  summary: BackupSummary
}

/** Rows read from a table in batches (a PostgreSQL cursor, a SQLite statement iterator). */
type RowSource = (table: string, columns: string[]) => AsyncIterable<unknown[]> | Iterable<unknown[]>

interface PartSource {
  part: PartName
  /** The part's tables and their stored columns. */
  tables: () => Promise<Map<string, TableColumns>>
  /** Reads the part's tables: a SQLite copy, or the snapshot's transaction bound to the schema. */
  db: Db
  /** PostgreSQL: the part's schema. */
  schema?: string
  rows: RowSource
}

/**
 * Writes one archive of the whole installation while it may be serving writes, into `outDir` (an
 * unfinished archive is never listed: it is written under a dot name and renamed when complete).
 *
 * Consistency: every write acknowledged before `startedAt` is inside. PostgreSQL: every schema is read in
 * ONE `REPEATABLE READ READ ONLY` transaction begun after `startedAt`, so the platform and all tenants are
 * one snapshot. SQLite: each database file is first copied with SQLite's online backup API (better-sqlite3
 * `backup()`, a consistent image of the file as of its own moment after `startedAt`) and exported from the
 * copy; the files are separate databases, so each is consistent in itself. Uploaded files are copied after
 * the databases, so every file a row names is there.
 */
export async function makeBackup(source: BackupSource, outDir: string): Promise<MadeBackup> {
  const startedAt = new Date()
  await fs.mkdir(outDir, { recursive: true })
  const staging = await fs.mkdtemp(path.join(outDir, '.staging-'))
  try {
    const target = parseDatabaseUrl(source.databaseUrl)
    const work = path.join(staging, 'archive')
    await fs.mkdir(work)
    const files: BackupManifest['files'] = {}
    const { parts, tenants } =
      target.kind === 'postgres'
        ? await dumpPostgres(target.location, work, files)
        : await dumpSqlite(target.location, path.join(staging, 'copies'), work, files)
    await copyUploads(source.dataDir, work, files)
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      appVersion: APP_VERSION,
      startedAt: startedAt.toISOString(),
      createdAt: new Date().toISOString(),
      kind: target.kind,
      tenants,
      parts,
      files,
    }
    await fs.writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 1))
    const name = archiveName(startedAt, target.kind)
    const file = path.join(outDir, name)
    const partial = path.join(staging, name)
    const entries = ['manifest.json', ...(await fs.readdir(work)).filter((e) => e !== 'manifest.json').sort()]
    await tar.c({ gzip: true, file: partial, cwd: work, portable: true }, entries)
    const summary = summaryOf(name, (await fs.stat(partial)).size, manifest)
    await fs.rename(partial, file)
    await fs.writeFile(summaryPath(file), JSON.stringify(summary))
    return { file, manifest, summary }
  } finally {
    await fs.rm(staging, { recursive: true, force: true })
  }
}

async function dumpPart(source: PartSource, work: string, files: BackupManifest['files']): Promise<PartEntry> {
  const tables = await source.tables()
  const migrations: Record<string, string[]> = {}
  const entry: PartEntry = { part: source.part, migrations, tables: [] }
  const folder = partFolder(source.part)
  await fs.mkdir(path.join(work, folder), { recursive: true })
  for (const t of [...tables.values()].sort((a, b) => a.table.localeCompare(b.table))) {
    if (isMigrationTable(t.table)) {
      const rows = await source.db.selectFrom(t.table).select('name').orderBy('name').execute()
      migrations[t.table] = rows.map((r) => String(r.name))
      continue
    }
    if (!isArchivedTable(t.table)) continue
    const file = `${folder}/${t.table}.ndjson`
    const written = await writeTableFile(path.join(work, file), t.columns, source.rows(t.table, t.columns))
    files[file] = { sha256: written.sha256, size: written.size }
    entry.tables.push({ table: t.table, columns: t.columns, rows: written.rows, file })
  }
  return entry
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`

async function dumpSqlite(platformFile: string, copies: string, work: string, files: BackupManifest['files']) {
  await fs.mkdir(copies, { recursive: true })
  const copyOf = async (file: string, name: string) => {
    const live = new Database(file, { fileMustExist: true })
    try {
      live.pragma('busy_timeout = 5000')
      const copy = path.join(copies, name)
      // After the first step the whole rest in one step: one read of the file, so writers never restart it.
      await live.backup(copy, { progress: () => 1 << 30 })
      return copy
    } finally {
      live.close()
    }
  }
  const dumpFile = async (part: PartName, copyFile: string) => {
    const raw = new Database(copyFile, { readonly: true })
    const db = new Kysely({ dialect: new SqliteDialect({ database: raw }) })
    try {
      const rows: RowSource = (table, columns) =>
        raw
          .prepare(`select ${columns.map(quoteId).join(', ')} from ${quoteId(table)}`)
          .safeIntegers(true)
          .raw(true)
          .iterate() as Iterable<unknown[]>
      // Read straight from the copy (no other connection writes it): one statement per table, no turn of the event loop.
      const tables = async () => {
        const master = raw.prepare("select name, sql from sqlite_master where type = 'table'").all() as { name: string; sql: string | null }[]
        return new Map(
          sqliteTables(master).map((table) => [table, sqliteTableColumns(table, raw.prepare('select name, hidden from pragma_table_xinfo(?)').all(table) as { name: string; hidden: number }[])]),
        )
      }
      const entry = await dumpPart({ part, db, rows, tables }, work, files)
      const tenants =
        part === 'platform'
          ? (raw.prepare('select id, name from tenant order by id').all() as { id: string; name: string | null }[]).map((t) => ({ id: String(t.id), name: String(t.name ?? '') }))
          : []
      return { entry, tenants }
    } finally {
      await db.destroy()
    }
  }
  const platform = await dumpFile('platform', await copyOf(platformFile, 'platform.db'))
  const parts = [platform.entry]
  for (const tenant of platform.tenants) {
    const file = Databases.sqliteTenantFile(platformFile, tenant.id)
    if (!existsSync(file)) continue
    parts.push((await dumpFile(tenantPart(tenant.id), await copyOf(file, `${tenant.id}.db`))).entry)
  }
  return { parts, tenants: platform.tenants }
}

/** Values as stored: text for numerics, dates and times (exact), JSON as its text; numbers, booleans and bytes as such. */
const exportTypes = {
  getTypeParser: (oid: number, format?: string) => {
    switch (oid) {
      case 16:
        return (v: string) => v === 't'
      case 21:
      case 23:
      case 700:
      case 701:
        return Number
      case 20:
        return (v: string) => (Number.isSafeInteger(Number(v)) ? Number(v) : v)
      case 17:
        return pg.types.getTypeParser(17, (format ?? 'text') as 'text')
      default:
        return (v: string) => v
    }
  },
} as unknown as pg.CustomTypesConfig

async function dumpPostgres(url: string, work: string, files: BackupManifest['files']) {
  const pool = new pg.Pool({ connectionString: url, max: 1, types: exportTypes })
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
  try {
    return await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const tenants = (await trx.withSchema('platform').selectFrom('tenant').select(['id', 'name']).orderBy('id').execute()).map((t) => ({
          id: String(t.id),
          name: String(t.name ?? ''),
        }))
        const parts: PartEntry[] = []
        const schemas: [PartName, string][] = [['platform', 'platform'], ...tenants.map((t): [PartName, string] => [tenantPart(t.id), Databases.tenantSchema(t.id)])]
        for (const [part, schema] of schemas) {
          const rows: RowSource = (table, columns) => cursorRows(trx, schema, table, columns)
          const tables = () => tablesOf(trx, 'postgres', schema)
          parts.push(await dumpPart({ part, db: trx.withSchema(schema), schema, rows, tables }, work, files))
        }
        return { parts, tenants }
      })
  } finally {
    await db.destroy()
  }
}

/** A table's rows through a cursor of the snapshot's transaction, a thousand at a time. */
async function* cursorRows(trx: Db, schema: string, table: string, columns: string[]): AsyncGenerator<unknown[]> {
  const cursor = sql.id('backup_rows')
  await sql`declare ${cursor} no scroll cursor for select ${sql.join(columns.map((c) => sql.id(c)))} from ${sql.id(schema, table)}`.execute(trx)
  try {
    for (;;) {
      const batch = await sql<Record<string, unknown>>`fetch forward 1000 from ${cursor}`.execute(trx)
      for (const row of batch.rows) yield columns.map((c) => row[c])
      if (batch.rows.length < 1000) break
    }
  } finally {
    await sql`close ${cursor}`.execute(trx)
  }
}

/** DATA_DIR/uploads → files/uploads, each file hashed. */
async function copyUploads(dataDir: string, work: string, files: BackupManifest['files']): Promise<void> {
  const uploads = path.join(dataDir, 'uploads')
  if (!existsSync(uploads)) return
  const into = path.join(work, 'files', 'uploads')
  await fs.cp(uploads, into, { recursive: true })
  for (const entry of await fs.readdir(into, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const full = path.join(entry.parentPath, entry.name)
    files[path.relative(work, full).split(path.sep).join('/')] = await sha256Of(full)
  }
}
