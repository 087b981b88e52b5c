import Decimal from 'decimal.js'
import { PostgresAdapter, sql, type RawBuilder } from 'kysely'
import type Database from 'better-sqlite3'
import type { Db } from './dialect.js'

/**
 * Exact decimal arithmetic inside SQL statements, so a guarded `x = x + ?` update needs no prior read.
 * PostgreSQL keeps money as NUMERIC and adds it exactly; SQLite keeps it as decimal text, and its own
 * `+` would go through binary floating point, so there the same statements call `dec_add` / `dec_cmp`,
 * functions registered on every SQLite connection (openSqlite) that compute with decimal.js.
 */

const scaleOf = (text: string) => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0)

/** Registers dec_add(a, b) (text at the larger scale of a and b) and dec_cmp(a, b) (−1, 0, 1) on a SQLite connection. */
export function registerDecimalFunctions(database: Database.Database): void {
  database.function('dec_add', { deterministic: true }, (a: unknown, b: unknown) => {
    const x = String(a ?? 0)
    const y = String(b ?? 0)
    return new Decimal(x).plus(y).toFixed(Math.max(scaleOf(x), scaleOf(y)))
  })
  database.function('dec_cmp', { deterministic: true }, (a: unknown, b: unknown) => new Decimal(String(a ?? 0)).comparedTo(String(b ?? 0)))
}

export const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter

/** A column as a decimal operand. */
export const decimalColumn = (column: string): RawBuilder<string> => sql<string>`${sql.ref(column)}`

/** A bound decimal value (text, exact) as an operand. */
export function decimalValue(db: Db, value: Decimal.Value): RawBuilder<string> {
  const text = new Decimal(value).toFixed()
  return isPostgres(db) ? sql<string>`cast(${text} as numeric)` : sql<string>`${text}`
}

/** a + b, exactly. */
export function decimalAdd(db: Db, a: RawBuilder<string>, b: RawBuilder<string>): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`(${a} + ${b})` : sql<string>`dec_add(${a}, ${b})`
}

/** a {op} b as a condition, compared exactly. */
export function decimalCompare(db: Db, a: RawBuilder<string>, op: '<' | '<=' | '=' | '<>' | '>=' | '>', b: RawBuilder<string>): RawBuilder<boolean> {
  return isPostgres(db) ? sql<boolean>`${a} ${sql.raw(op)} ${b}` : sql<boolean>`dec_cmp(${a}, ${b}) ${sql.raw(op)} 0`
}
