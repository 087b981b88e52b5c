import Decimal from 'decimal.js'
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db, DbKind } from '../../db/dialect.js'
import { invalid } from '../../platform/errors.js'

/**
 * Exact money arithmetic inside SQL for the guarded counters of settlement (a plan's paid amount, a
 * payment's invoiced amount). PostgreSQL keeps NUMERIC(24,2) and computes in NUMERIC. SQLite keeps
 * the codec's exact 2-place text (`toFixed(2)`, always with both decimals), which SQLite arithmetic
 * would turn into binary floating point; there the text is read as scaled integers (cents: the text
 * without its point) and written back from cents, so no float ever touches the value.
 */

/** Largest amount handled here: cents stay far inside the exact integer range of JS and SQLite. */
const MAX_AMOUNT = new Decimal('1e13')

/** A positive or zero amount with at most 2 places, as decimal.js, or the Chinese message. */
export function money(value: unknown, label: string, field?: string): Decimal {
  // Not trimmed: blanks around a number are refused (decimal-grammar.ts).
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw invalid(`${label}必须为数字`, field)
  const d = new Decimal(text)
  if (d.decimalPlaces() > 2) throw invalid(`${label}最多允许2位小数！`, field)
  if (d.abs().gte(MAX_AMOUNT)) throw invalid(`${label}超出允许范围`, field)
  return d
}

export const fixed = (d: Decimal.Value) => new Decimal(d).toFixed(2)

/** The column as a comparable number: NUMERIC on PostgreSQL, integer cents on SQLite. */
function measure(kind: DbKind, column: string): RawBuilder<number> {
  const ref = sql.ref(column)
  return kind === 'postgres'
    ? sql<number>`coalesce(${ref}, 0)`
    : sql<number>`cast(replace(coalesce(${ref}, '0.00'), '.', '') as integer)`
}

/** An amount bound in the same measure as `measure`. */
function bound(kind: DbKind, amount: Decimal): RawBuilder<number> {
  return kind === 'postgres' ? sql<number>`cast(${amount.toFixed(2)} as numeric)` : sql<number>`cast(${amount.times(100).toFixed(0)} as integer)`
}

/** `column + delta` as the column's stored type. */
export function plus(kind: DbKind, column: string, delta: Decimal): RawBuilder<unknown> {
  if (kind === 'postgres') return sql`coalesce(${sql.ref(column)}, 0) + cast(${delta.toFixed(2)} as numeric)`
  const cents = sql`(${measure(kind, column)} + cast(${delta.times(100).toFixed(0)} as integer))`
  return sql`(case when ${cents} < 0 then '-' else '' end) || (abs(${cents}) / 100) || '.' || substr('0' || (abs(${cents}) % 100), -2)`
}

/** `left - right >= amount` over two money columns of the updated row. */
export function remainderAtLeast(kind: DbKind, left: string, right: string, amount: Decimal): Expression<SqlBool> {
  return sql<SqlBool>`${measure(kind, left)} - ${measure(kind, right)} >= ${bound(kind, amount)}`
}

/** `column >= amount`. */
export function atLeast(kind: DbKind, column: string, amount: Decimal): Expression<SqlBool> {
  return sql<SqlBool>`${measure(kind, column)} >= ${bound(kind, amount)}`
}

/**
 * The guard as one statement: `SET counter = counter + amount WHERE id = ? AND limit - counter >= amount`.
 * True when the row took it; false when its remainder was smaller (nothing changed). Concurrent callers
 * serialise on the row (PostgreSQL re-evaluates the WHERE on the committed row; SQLite has one writer),
 * so two requests can never both take the same remainder.
 */
export async function guardedAdd(
  trx: Db,
  kind: DbKind,
  table: string,
  id: string,
  counter: string,
  limit: string,
  amount: Decimal,
): Promise<boolean> {
  const done = await trx
    .updateTable(table)
    .set({ [counter]: plus(kind, counter, amount) })
    .where('id', '=', id)
    .where(remainderAtLeast(kind, limit, counter, amount))
    .executeTakeFirst()
  return Number(done.numUpdatedRows) === 1
}

/** Gives back what `guardedAdd` took: `counter = counter - amount`, never below zero. */
export async function giveBack(trx: Db, kind: DbKind, table: string, id: string, counter: string, amount: Decimal): Promise<void> {
  const done = await trx
    .updateTable(table)
    .set({ [counter]: plus(kind, counter, amount.negated()) })
    .where('id', '=', id)
    .where(atLeast(kind, counter, amount))
    .executeTakeFirst()
  if (Number(done.numUpdatedRows) !== 1) throw new Error(`settlement counter ${table}.${counter} of ${id} below ${amount.toFixed(2)}`)
}
