import type { DeleteQueryBuilder, InsertQueryBuilder, UpdateQueryBuilder } from 'kysely'
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
  if (!also.length || !isPostgres(trx)) {
    const rows = await main.execute()
    for (const statement of also) await statement.execute()
    return rows
  }
  let q = trx.with('main_rows', () => main as unknown as PendingWrite)
  also.forEach((statement, i) => (q = q.with(`also_${i}`, () => statement)))
  // Named: the combined statements are the approvals' largest, the costliest to plan (prepared-statements.ts).
  return (await executePrepared(trx, q.selectFrom('main_rows').selectAll())) as R[]
}
