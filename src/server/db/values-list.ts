import { sql, type AliasedRawBuilder } from 'kysely'
import type { Db } from './dialect.js'
import { isPostgres } from './exact-decimal.js'

/** SQL type of a column of a values list: PostgreSQL needs it (a bound value in VALUES is text otherwise). */
export type ValuesColumnType = 'text' | 'bigint' | 'numeric' | 'timestamp'

/**
 * Rows given by the caller as a derived table `alias(column…)`, for one-statement batches such as
 * `UPDATE t SET x = v_x FROM <values> WHERE t.id = v_id`. On PostgreSQL the rows go as one typed array a
 * column, `unnest(cast($1 as text[]), …) as alias_rows(a, …)`: the text is the same for any number of rows.
 * SQLite has no arrays and takes no column list after a derived table's alias, so there it is
 * `(select column1 as a, … from (values …))`. Column names should not clash with the target table's, so
 * statements can use them unqualified (a qualified `alias.column` would get the tenant schema prepended).
 * Decimal values are bound as exact text: NUMERIC on PostgreSQL, decimal text on SQLite (no cast there,
 * which would turn them into floating point).
 */
export function valuesList<A extends string>(
  db: Db,
  alias: A,
  columns: ReadonlyArray<readonly [name: string, type: ValuesColumnType]>,
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
): AliasedRawBuilder<Record<string, unknown>, A> {
  if (!rows.length) throw new Error('a values list needs at least one row')
  if (isPostgres(db)) {
    // One prepared statement for any number of lines, and a small tree to build.
    const arrays = columns.map(([, type], i) => sql`cast(${rows.map((row) => row[i] ?? null)} as ${sql.raw(type)}[])`)
    const named = sql.join(columns.map(([name]) => sql.ref(name)))
    return sql<Record<string, unknown>>`(select * from unnest(${sql.join(arrays)}) as ${sql.ref(`${alias}_rows`)}(${named}))`.as(alias)
  }
  const tuples = rows.map((row) => sql`(${sql.join(row.map((value) => sql`${value}`))})`)
  const named = sql.join(columns.map(([name], i) => sql`${sql.ref(`column${i + 1}`)} as ${sql.ref(name)}`))
  return sql<Record<string, unknown>>`(select ${named} from (values ${sql.join(tuples)}) as ${sql.ref(`${alias}_rows`)})`.as(alias)
}
