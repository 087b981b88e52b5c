import type { DeleteQueryBuilder, InsertQueryBuilder, SelectQueryBuilder, UpdateQueryBuilder } from 'kysely'
import type { Db } from './dialect.js'
import { isPostgres } from './exact-decimal.js'
import { executePrepared } from './prepared-statements.js'

/** A write built from a transaction and not yet run. */
export type PendingWrite = UpdateQueryBuilder<any, any, any, any> | InsertQueryBuilder<any, any, any> | DeleteQueryBuilder<any, any, any>

/**
 * Runs `main` (an UPDATE or INSERT … RETURNING) and the `also` writes (inserts, updates, deletes) as one statement on PostgreSQL —
 * the others as writable CTEs — and one after another on SQLite (no round trips there, and no writable
 * CTEs). Answers the rows `main` returns. The sub-statements of one statement share a snapshot and cannot
 * see each other's changes, so they must write different rows (different tables, or rows none of the
 * others touches); a caller that finds `main` changed too little throws, and the transaction takes the
 * rest back with it.
 */
export async function writeTogether<R>(trx: Db, main: { execute(): Promise<R[]> }, also: PendingWrite[]): Promise<R[]> {
  if (!also.length || !isPostgres(trx)) return oneAfterAnother(main, also)
  // Named: the combined statements are the approvals' largest, the costliest to plan (prepared-statements.ts).
  return (await executePrepared(trx, together(trx, main, also).selectFrom('main_rows').selectAll())) as R[]
}

/**
 * As writeTogether, then `read` (rows that none of the writes changes, each with an `id`), answering
 * whether `main` changed a row and the rows read (ordered by `orderBy`, columns `read` answers). On
 * PostgreSQL the read is in the same statement, its final SELECT, so it costs no round trip of its own;
 * it sees the rows as they were before the statement (one snapshot), which is why they must be rows no
 * write of it touches.
 */
export async function writeTogetherThenRead(
  trx: Db,
  main: { execute(): Promise<unknown[]> },
  also: PendingWrite[],
  read: SelectQueryBuilder<any, any, Record<string, unknown>>,
  orderBy: string[],
): Promise<{ changed: boolean; rows: Record<string, unknown>[] }> {
  if (!isPostgres(trx)) {
    const changed = (await oneAfterAnother(main, also)).length > 0
    if (!changed) return { changed, rows: [] }
    for (const column of orderBy) read = read.orderBy(column)
    return { changed, rows: await read.execute() }
  }
  // One row of the count when the read finds none: its columns are null, `id` among them.
  let statement = together(trx, main, also)
    .selectFrom((eb) => eb.selectFrom('main_rows').select((c) => c.fn.countAll().as('written_rows')).as('w'))
    .leftJoin(read.as('r'), (join) => join.onTrue())
    .selectAll('r')
    .select('w.written_rows')
  for (const column of orderBy) statement = statement.orderBy(`r.${column}`)
  const rows = await executePrepared(trx, statement)
  const changed = Number(rows[0]?.written_rows) > 0
  for (const row of rows) delete row.written_rows
  return { changed, rows: changed ? rows.filter((row) => row.id != null) : [] }
}

/** SQLite: `main`, then each of `also` (no round trips to save there, and no writable CTEs). */
async function oneAfterAnother<R>(main: { execute(): Promise<R[]> }, also: PendingWrite[]): Promise<R[]> {
  const rows = await main.execute()
  for (const statement of also) await statement.execute()
  return rows
}

/** `main` as the CTE `main_rows` and the `also` writes beside it. */
function together(trx: Db, main: unknown, also: PendingWrite[]) {
  let q = trx.with('main_rows', () => main as PendingWrite)
  also.forEach((statement, i) => (q = q.with(`also_${i}`, () => statement)))
  return q
}
