import fs from 'node:fs/promises'
import { existsSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import * as tar from 'tar'
import type { Db } from '../db/dialect.js'
import { Databases } from '../db/databases.js'
import { parseDatabaseUrl, type DatabaseTarget } from '../db/connections.js'
import { EntityRegistry } from '../engine/entity-registry.js'
import { existingSchema, syncEntityTable } from '../engine/entity-tables.js'
import { migrateTenant, provisionPlatform } from '../engine/provision.js'
import { BackupError } from './backup-error.js'
import { tablesOf, type TableColumns } from './archived-tables.js'
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, tenantOfPart, type BackupManifest, type PartEntry } from './archive-manifest.js'
import { VERSIONED_SETS, migrateSetTo } from './migration-sets.js'
import { readTableFile, sha256Of } from './ndjson-file.js'
import { fromArchiveValue } from './row-values.js'

export interface RestoreTarget {
  /** DATABASE_URL to restore into: an empty SQLite location or an empty PostgreSQL database. */
  databaseUrl: string
  /** DATA_DIR the uploaded files go to. */
  dataDir: string
  /** Extra entity folders of the installation (ENTITY_DIRS), so their tables exist to load into. */
  entityDirs?: string[]
}

export interface RestoreOptions {
  /** Replace what the target holds (without it a target that is not empty is refused, nothing changed). */
  force?: boolean
  /** Restore the uploaded files too (default); the move to PostgreSQL keeps them where they are. */
  files?: boolean
}

export interface RestoreResult {
  manifest: BackupManifest
  tables: number
  rows: number
}

/**
 * Restores an archive (backup-….tar.gz of either database) into an empty target of either database.
 * Nothing is written before the archive has been read whole and every file matched its checksum, and
 * before the target was found empty (or `force` given). Then each database is created at the archive's
 * schema version (the migration sets up to what the archive had run, the entity tables from their
 * files), its rows are loaded in one transaction, the remaining migrations run (an older backup moves
 * forward), row counters are counted and PostgreSQL's sequences set past the loaded rows, and every
 * table's row count is checked against the manifest.
 */
export async function restoreBackup(archive: string, target: RestoreTarget, options: RestoreOptions = {}): Promise<RestoreResult> {
  const staging = await fs.mkdtemp(path.join(os.tmpdir(), 'erp-restore-'))
  try {
    const work = path.join(staging, 'archive')
    await fs.mkdir(work)
    try {
      await tar.x({ file: archive, cwd: work, strict: true })
    } catch (error) {
      throw new BackupError(`备份文件已损坏，无法读取：${(error as Error).message}`)
    }
    const manifest = await verifiedManifest(work)
    const into = parseDatabaseUrl(target.databaseUrl)
    const withFiles = options.files !== false
    const occupied = await occupiedParts(into, withFiles ? target.dataDir : undefined)
    if (occupied.length && !options.force) throw new BackupError(`目标不是空的（${occupied.join('、')}）：恢复会替换其中的全部数据，确认后加 --force 重新执行`)
    if (occupied.length) await clearTarget(into, withFiles ? target.dataDir : undefined)
    const result = await loadDatabases(work, manifest, into, target.entityDirs ?? [])
    if (withFiles && existsSync(path.join(work, 'files', 'uploads')))
      await fs.cp(path.join(work, 'files', 'uploads'), path.join(target.dataDir, 'uploads'), { recursive: true })
    return { manifest, ...result }
  } finally {
    // A failed extraction may still be closing its files: retried, and never hiding the error that got here.
    await fs.rm(staging, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {})
  }
}

/** The manifest, once every file of the archive is listed in it and matches its checksum and size. */
export async function verifiedManifest(work: string): Promise<BackupManifest> {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(await fs.readFile(path.join(work, 'manifest.json'), 'utf8')) as BackupManifest
  } catch {
    throw new BackupError('备份文件缺少清单（manifest.json），不是本系统的备份')
  }
  if (manifest.format !== ARCHIVE_FORMAT || manifest.formatVersion > ARCHIVE_FORMAT_VERSION)
    throw new BackupError(`备份文件格式不受支持（${String(manifest.format)} ${String(manifest.formatVersion)}）`)
  const present = (await fs.readdir(work, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(work, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => f !== 'manifest.json')
  const unlisted = present.find((f) => !manifest.files[f])
  if (unlisted) throw new BackupError(`备份文件校验失败：${unlisted} 不在清单中`)
  for (const [file, expected] of Object.entries(manifest.files)) {
    const full = path.join(work, file)
    if (!existsSync(full)) throw new BackupError(`备份文件校验失败：缺少 ${file}`)
    const actual = await sha256Of(full)
    if (actual.sha256 !== expected.sha256 || actual.size !== expected.size) throw new BackupError(`备份文件校验失败：${file} 的校验和不符，文件已损坏`)
  }
  for (const part of manifest.parts)
    for (const t of part.tables) if (!manifest.files[t.file]) throw new BackupError(`备份文件校验失败：缺少 ${t.file}`)
  return manifest
}

/** What the target already holds, named for the message (empty when there is nothing). */
async function occupiedParts(into: DatabaseTarget, dataDir: string | undefined): Promise<string[]> {
  const found: string[] = []
  if (into.kind === 'sqlite') {
    for (const file of sqliteFiles(into.location)) found.push(file)
  } else {
    const databases = new Databases(into)
    try {
      const schemas = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = 'platform' or nspname like 'tenant\\_%' order by 1`.execute(
        databases.platform,
      )
      found.push(...schemas.rows.map((r) => `schema ${r.name}`))
    } finally {
      await databases.close()
    }
  }
  if (dataDir) {
    const uploads = path.join(dataDir, 'uploads')
    if (existsSync(uploads) && (await fs.readdir(uploads)).length) found.push(uploads)
  }
  return found
}

/** The SQLite files of an installation: the platform file, its tenants' files, their WAL and shared-memory files. */
function sqliteFiles(platformFile: string): string[] {
  const dir = path.dirname(platformFile)
  const base = path.basename(platformFile, '.db')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f === path.basename(platformFile) || f.startsWith(`${path.basename(platformFile)}-`) || (f.startsWith(`${base}.tenant_`) && /\.db(-wal|-shm|-journal)?$/.test(f)))
    .map((f) => path.join(dir, f))
}

async function clearTarget(into: DatabaseTarget, dataDir: string | undefined): Promise<void> {
  if (into.kind === 'sqlite') {
    for (const file of sqliteFiles(into.location)) await fs.rm(file, { force: true })
  } else {
    const databases = new Databases(into)
    try {
      const schemas = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = 'platform' or nspname like 'tenant\\_%'`.execute(databases.platform)
      for (const { name } of schemas.rows) await sql`drop schema ${sql.id(name)} cascade`.execute(databases.platform)
    } finally {
      await databases.close()
    }
  }
  if (dataDir) await fs.rm(path.join(dataDir, 'uploads'), { recursive: true, force: true })
}

async function loadDatabases(work: string, manifest: BackupManifest, into: DatabaseTarget, entityDirs: string[]): Promise<{ tables: number; rows: number }> {
  const registry = new EntityRegistry(entityDirs)
  const databases = new Databases(into)
  try {
    const platform = manifest.parts.find((p) => p.part === 'platform')
    if (!platform) throw new BackupError('备份文件缺少平台数据库')
    const tenants = manifest.parts.filter((p) => p.part !== 'platform')
    const handle = (part: PartEntry) => {
      const tenantId = tenantOfPart(part.part)
      return { tenantId, db: tenantId ? databases.tenant(tenantId) : databases.platform, schema: databases.schemaOf(tenantId ?? 'platform') }
    }
    // 1. Every database at the archive's schema version, then checked to take every archived column.
    const targets = new Map<PartEntry, Map<string, TableColumns>>()
    for (const part of [platform, ...tenants]) {
      const { tenantId, db, schema } = handle(part)
      const scope = tenantId ? 'tenant' : 'platform'
      await databases.ensureSchema(tenantId ? { tenantId } : 'platform')
      for (const set of VERSIONED_SETS.filter((s) => s.scope === scope)) await migrateSetTo(db, databases.kind, schema, set, part.migrations[set.table] ?? [])
      const existing = await existingSchema(db, databases.kind, schema)
      for (const entity of registry.all().filter((e) => e.scope === scope)) await syncEntityTable(db, databases.kind, entity, registry.enums, existing)
      const tables = await tablesOf(db, databases.kind, schema)
      for (const t of part.tables) {
        const have = tables.get(t.table)
        if (!have) throw new BackupError(`备份中的表 ${t.table} 在本版本中不存在，无法恢复`)
        const missing = t.columns.find((c) => !have.columns.includes(c))
        if (missing) throw new BackupError(`备份中的列 ${t.table}.${missing} 在本版本中不存在，无法恢复`)
      }
      targets.set(part, tables)
    }
    // 2. The rows, one transaction per database.
    let rows = 0
    let tables = 0
    for (const part of [platform, ...tenants]) {
      const { db } = handle(part)
      const columnsOf = targets.get(part)!
      await db.transaction().execute(async (trx) => {
        for (const t of part.tables) {
          rows += await loadTable(trx, databases.kind, columnsOf.get(t.table)!, t.columns, path.join(work, t.file))
          tables++
        }
      })
    }
    // 3. The remaining migrations and what start-up derives (row counters, singletons), as the app does.
    for (const set of VERSIONED_SETS.filter((s) => s.scope === 'platform'))
      await migrateSetTo(databases.platform, databases.kind, databases.schemaOf('platform'), set, Object.keys(set.migrations(databases.kind, databases.schemaOf('platform'))))
    await provisionPlatform(databases, registry)
    for (const part of tenants) await migrateTenant(databases, registry, tenantOfPart(part.part)!)
    if (databases.kind === 'postgres') for (const part of [platform, ...tenants]) await advanceSequences(handle(part).db, handle(part).schema!)
    // 4. Every table holds what the manifest says it had.
    for (const part of [platform, ...tenants]) {
      const { db } = handle(part)
      for (const t of part.tables) {
        const row = await db.selectFrom(t.table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
        if (Number(row.n) !== t.rows) throw new BackupError(`恢复后表 ${t.table}（${part.part}）有 ${Number(row.n)} 行，备份中为 ${t.rows} 行`)
      }
    }
    return { tables, rows }
  } finally {
    await databases.close()
  }
}

async function loadTable(trx: Db, kind: DatabaseTarget['kind'], target: TableColumns, columns: string[], file: string): Promise<number> {
  // Far below both databases' limit of bound values per statement (SQLite 32,766; PostgreSQL 65,535).
  const batchSize = Math.max(1, Math.min(500, Math.floor(30_000 / Math.max(columns.length, 1))))
  const classes = columns.map((c) => target.classes.get(c) ?? 'other')
  let batch: Record<string, unknown>[] = []
  let count = 0
  const flush = async () => {
    if (!batch.length) return
    await trx.insertInto(target.table).values(batch).execute()
    count += batch.length
    batch = []
  }
  for await (const values of readTableFile(file, columns)) {
    const row: Record<string, unknown> = {}
    columns.forEach((c, i) => (row[c] = fromArchiveValue(values[i], classes[i], kind)))
    batch.push(row)
    if (batch.length >= batchSize) await flush()
  }
  await flush()
  return count
}

/** Sequences (serial columns) of a schema set past the rows just loaded, so the next insert does not collide. */
async function advanceSequences(db: Db, schema: string): Promise<void> {
  const serials = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns where table_schema = ${schema} and column_default like 'nextval(%'`.execute(db)
  for (const { table_name: table, column_name: column } of serials.rows) {
    const qualified = `${quoteId(schema)}.${quoteId(table)}`
    await sql`select setval(pg_get_serial_sequence(${qualified}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.id(schema, table)}`.execute(db)
  }
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`
