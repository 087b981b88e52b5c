import { sql } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import { ROW_COUNT_TABLE } from '../db/row-counter.js'
import { postgresColumnClass, type ColumnClass } from './row-values.js'

/**
 * Which tables an archive carries. Left out: the migrations' bookkeeping (the manifest keeps it as the
 * schema version, and restore replays it), what the app derives again at start-up (row counters, SQLite's
 * full-text indexes, PostgreSQL's generated search keys) and what only means something to running
 * processes (sessions and captchas, bus presence, socket.io's packet attachments): a restored company
 * signs in again.
 */
const TRANSIENT = new Set([ROW_COUNT_TABLE, 'sys_session', 'sys_captcha', 'sys_bus_process', 'sys_bus_presence', 'socket_io_attachments'])
const MIGRATION_TABLE = /_migration$/
const MIGRATION_LOCK = /_migration_lock$/
const FTS_SHADOW = ['data', 'idx', 'content', 'docsize', 'config']

export const isMigrationTable = (table: string) => MIGRATION_TABLE.test(table)
export const isArchivedTable = (table: string) => !TRANSIENT.has(table) && !MIGRATION_TABLE.test(table) && !MIGRATION_LOCK.test(table)

export interface TableColumns {
  table: string
  /** Stored columns (generated ones left out), in the table's order. */
  columns: string[]
  classes: Map<string, ColumnClass>
}

/** SQLite: the real tables of one file (virtual full-text tables and their shadows left out). */
export function sqliteTables(rows: { name: string; sql: string | null }[]): string[] {
  const virtual = rows.filter((r) => /^create\s+virtual\s+table/i.test(r.sql ?? '')).map((r) => r.name)
  const shadow = new Set(virtual.flatMap((v) => FTS_SHADOW.map((s) => `${v}_${s}`)))
  return rows.map((r) => r.name).filter((name) => !name.startsWith('sqlite_') && !virtual.includes(name) && !shadow.has(name))
}

/** SQLite: a table's stored columns from its `pragma_table_xinfo` rows (generated and hidden ones left out); SQLite keeps booleans as integers. */
export function sqliteTableColumns(table: string, info: { name: string; hidden: number }[]): TableColumns {
  const columns = info.filter((c) => Number(c.hidden) === 0).map((c) => c.name)
  return { table, columns, classes: new Map(columns.map((c) => [c, 'other' as const])) }
}

/** Every table of one database (SQLite file or PostgreSQL schema) with its stored columns, through the app's handle. */
export async function tablesOf(db: Db, kind: DbKind, schema: string | undefined): Promise<Map<string, TableColumns>> {
  const out = new Map<string, TableColumns>()
  if (kind === 'postgres') {
    const columns = await sql<{ table_name: string; column_name: string; data_type: string; is_generated: string }>`
      select c.table_name, c.column_name, c.data_type, c.is_generated from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = ${schema} order by c.table_name, c.ordinal_position`.execute(db)
    for (const c of columns.rows) {
      const entry: TableColumns = out.get(c.table_name) ?? { table: c.table_name, columns: [], classes: new Map() }
      if (c.is_generated !== 'ALWAYS') {
        entry.columns.push(c.column_name)
        entry.classes.set(c.column_name, postgresColumnClass(c.data_type))
      }
      out.set(c.table_name, entry)
    }
    return out
  }
  const master = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master where type = 'table'`.execute(db)
  for (const table of sqliteTables(master.rows)) {
    const info = await sql<{ name: string; hidden: number }>`select name, hidden from pragma_table_xinfo(${table})`.execute(db)
    out.set(table, sqliteTableColumns(table, info.rows))
  }
  return out
}
