import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { createHash } from 'node:crypto'
import Database from 'better-sqlite3'
import pg from 'pg'

/** One table of a snapshot: its rows and a checksum over all of them (and their order-free content). */
export interface TableSnapshot {
  rows: number
  checksum: string
}

/**
 * What a database holds, read from outside the app: every table of the platform and of every tenant
 * (`file:table` for SQLite files, `schema.table` for PostgreSQL) with its row count and a checksum of its
 * rows, plus a `(schema)` entry per database hashing its tables, columns, indexes and triggers. Two equal
 * snapshots mean nothing was added, removed, changed or re-laid out.
 */
export async function snapshotDatabase(kind: 'sqlite' | 'postgres', location: string): Promise<Record<string, TableSnapshot>> {
  return kind === 'sqlite' ? snapshotSqlite(location) : snapshotPostgres(location)
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex')

/** `dataDir`: the folder of the platform file and the tenant files. */
async function snapshotSqlite(dataDir: string): Promise<Record<string, TableSnapshot>> {
  const result: Record<string, TableSnapshot> = {}
  for (const file of (await readdir(dataDir)).filter((f) => f.endsWith('.db')).sort()) {
    const db = new Database(path.join(dataDir, file), { readonly: true })
    try {
      const objects = db.prepare(`select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`).all() as { type: string; name: string; sql: string | null }[]
      result[`${file}:(schema)`] = { rows: objects.length, checksum: sha1(JSON.stringify(objects)) }
      for (const { name } of objects.filter((o) => o.type === 'table')) {
        const rows = db.prepare(`select * from "${name.replace(/"/g, '""')}"`).raw().all().map((r) => JSON.stringify(r)).sort()
        result[`${file}:${name}`] = { rows: rows.length, checksum: sha1(rows.join('\n')) }
      }
    } finally {
      db.close()
    }
  }
  return result
}

/** `url`: the database; its platform and tenant schemas are read. */
async function snapshotPostgres(url: string): Promise<Record<string, TableSnapshot>> {
  const client = new pg.Client({ connectionString: url, types: { getTypeParser: () => (value: string) => value } })
  await client.connect()
  try {
    const result: Record<string, TableSnapshot> = {}
    const q = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows as Record<string, string>[]
    const schemas = (await q(`select nspname from pg_namespace where nspname = 'platform' or nspname like 'tenant\\_%' order by 1`)).map((r) => r.nspname)
    for (const schema of schemas) {
      const layout = [
        ...(await q(`select table_name, column_name, data_type, is_nullable, column_default, generation_expression from information_schema.columns where table_schema = $1 order by 1, 2`, [schema])),
        ...(await q(`select indexname, indexdef from pg_indexes where schemaname = $1 order by 1`, [schema])),
        ...(await q(`select g.tgname, pg_get_triggerdef(g.oid) as def from pg_trigger g join pg_class c on c.oid = g.tgrelid
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and not g.tgisinternal order by 1`, [schema])),
      ]
      result[`${schema}.(schema)`] = { rows: layout.length, checksum: sha1(JSON.stringify(layout)) }
      const tables = await q(`select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by 1`, [schema])
      for (const { table_name: table } of tables) {
        const name = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)}`
        const [r] = await q(`select count(*) as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as sum from ${name} t`)
        result[`${schema}.${table}`] = { rows: Number(r.n), checksum: r.sum }
      }
    }
    return result
  } finally {
    await client.end()
  }
}

/**
 * Rows of one table as the database stores them (PostgreSQL: the server's text of each value), by id:
 * `scope` is 'platform' or a tenant id; read from outside the app so it can be compared across versions.
 */
export async function readRows(kind: 'sqlite' | 'postgres', location: string, scope: string, table: string, columns: string[]): Promise<Map<string, Record<string, unknown>>> {
  const list = ['id', ...columns].map((c) => `"${c}"`).join(', ')
  let rows: Record<string, unknown>[]
  if (kind === 'sqlite') {
    const file = path.join(location, scope === 'platform' ? 'app.db' : `app.tenant_${scope.toLowerCase()}.db`)
    const db = new Database(file, { readonly: true })
    try {
      rows = db.prepare(`select ${list} from "${table}"`).all() as Record<string, unknown>[]
    } finally {
      db.close()
    }
  } else {
    const client = new pg.Client({ connectionString: location, types: { getTypeParser: () => (value: string) => value } })
    await client.connect()
    try {
      const schema = scope === 'platform' ? 'platform' : `tenant_${scope.toLowerCase()}`
      rows = (await client.query(`select ${list} from ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)}`)).rows
    } finally {
      await client.end()
    }
  }
  return new Map(rows.map((r) => [String(r.id), r]))
}

/** What differs between two snapshots, one line per table (`name: rows a → rows b`), for a readable failure. */
export function snapshotChanges(a: Record<string, TableSnapshot>, b: Record<string, TableSnapshot>): string[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
  return names
    .filter((name) => a[name]?.checksum !== b[name]?.checksum || a[name]?.rows !== b[name]?.rows)
    .map((name) => `${name}: ${a[name]?.rows ?? 'missing'} → ${b[name]?.rows ?? 'missing'}${a[name] && b[name] && a[name].rows === b[name].rows ? ' (changed)' : ''}`)
}
