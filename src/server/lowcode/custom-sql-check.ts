import { sql, type SelectQueryBuilder } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import { BizError, invalid } from '../platform/errors.js'
import { renderCustomSql, type SqlToken } from './custom-sql.js'

/**
 * Custom SQL columns that the database refuses. The token allow-list (custom-sql.ts) keeps a column to
 * the row it sits in, but not every allowed sequence is an expression the database can compile
 * (`p.code p.name`, `p.code +`) or compute for every row (an integer overflow on SQLite). So a column
 * is compiled and run when its data object is saved, and a statement that still fails when a list runs
 * is a 400 naming the list, never a 500.
 */

/** The database's own reason for a failed statement (SQLite or PostgreSQL), or undefined for any other error. */
export function databaseReason(error: unknown): string | undefined {
  if (!(error instanceof Error) || error instanceof BizError) return undefined
  const code = (error as { code?: unknown }).code
  const sqlite = error.name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_'))
  // pg's DatabaseError carries the SQLSTATE (five characters) and a severity.
  const postgres = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error
  return sqlite || postgres ? error.message.slice(0, 300) : undefined
}

export interface CheckedFrom {
  table: string
  alias: string
}

export interface CheckedJoin extends CheckedFrom {
  /** Pairs of main-table and joined-table columns. */
  on: [string, string][]
}

export interface CheckedColumn {
  /** How the column is named in the message (第1个自定义查询字段【毛利】). */
  where: string
  tokens: readonly SqlToken[]
}

/**
 * Compiles and runs every custom column against the data object's tables on an empty page (LIMIT 0),
 * inside a savepoint made read-only and rolled back: the write's own transaction is left as it was.
 * Answers 400 naming the column and the database's reason.
 */
export async function tryCustomColumns(kind: DbKind, trx: Db, main: CheckedFrom, joins: readonly CheckedJoin[], columns: readonly CheckedColumn[]): Promise<void> {
  if (!columns.length) return
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let q: SelectQueryBuilder<any, any, any> = trx.selectFrom(`${main.table} as ${main.alias}`)
  for (const j of joins) {
    q = q.leftJoin(`${j.table} as ${j.alias}`, (join) => {
      let on = join
      for (const [m, s] of j.on) on = on.onRef(`${main.alias}.${m}`, '=', `${j.alias}.${s}`)
      return on
    })
  }
  for (const column of columns) {
    await sql`savepoint custom_sql_check`.execute(trx)
    let reason: string | undefined
    try {
      await (kind === 'sqlite' ? sql`pragma query_only = 1` : sql`set transaction read only`).execute(trx)
      await q.select(renderCustomSql(column.tokens).as('checked')).limit(0).execute()
    } catch (error) {
      reason = databaseReason(error)
      if (reason === undefined) throw error
    } finally {
      if (kind === 'sqlite') await sql`pragma query_only = 0`.execute(trx)
      await sql`rollback to savepoint custom_sql_check`.execute(trx)
      await sql`release savepoint custom_sql_check`.execute(trx)
    }
    if (reason !== undefined) throw invalid(`${column.where}：SQL无法执行（${reason}）`, 'customColumns')
  }
}

/** Runs a custom list's statement: a database refusal is a 400 naming the list (the reason goes to the log). */
export async function runCustomListStatement<T>(listName: string, log: { warn: (o: object, m: string) => void }, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const reason = databaseReason(error)
    if (reason === undefined) throw error
    log.warn({ err: error, list: listName }, 'custom list statement failed')
    throw invalid(`自定义列表【${listName}】查询失败，请检查其数据对象的自定义查询字段`)
  }
}
