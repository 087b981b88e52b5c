import type { Db } from '../db/dialect.js'
import { BizError } from './errors.js'

/*
 * Concurrency: the one lock order of every write.
 *
 * 1. An action locks the row of its own document first (DocumentStore.scoped, `SELECT … FOR UPDATE` on
 *    PostgreSQL); a batch action locks all its documents first, in id order (DocumentStore.batch).
 * 2. Then what the document holds or pays, each set in id order: the rows its lines reserve (source lines),
 *    the check sheets a settle sheet pays, the documents a check sheet holds, the stock rows it posts
 *    (product × warehouse key order). A batch or a modify locks the union of those sets in one statement
 *    per table (DocumentHooks.lockHeld, and lockDocumentStock for a batch approval) before any of them
 *    is changed.
 * 3. A change of state is one guarded statement naming the state it expects (`… WHERE status IN (0, 2)`),
 *    and a statement that changes nothing answers a clear 4xx (信息已过期), never a write on a stale read.
 *
 * A deadlock or serialization failure that the order cannot rule out (two tables' sets taken by actions
 * of different kinds) is retried here, the whole transaction, a bounded number of times; after the last
 * attempt it is answered 409 操作冲突，请稍后重试, never 500. So is a unique violation (two writers of one code), and a
 * named statement whose kept plan no longer fits its table (isStalePlan). The work must therefore do nothing but
 * database writes before the commit: whatever leaves the database goes through afterCommit, collected per
 * attempt and run only after the attempt that committed.
 */

/** Work waiting for the commit of the transaction it was registered in. */
const pending = new WeakMap<Db, (() => void)[]>()
/** The handle each transaction was opened on, so code given only a transaction can tell whose it is. */
const origins = new WeakMap<Db, Db>()

/** The database handle `db` is a transaction of (or `db` itself): e.g. to know its tenant (Databases.tenantOf). */
export const handleOf = (db: Db): Db => origins.get(db) ?? db

/** Attempts of one transaction whose only failure is a lock conflict. */
export const TRANSACTION_ATTEMPTS = 3

/** What a request that lost every attempt is answered (409, Chinese, never 500). */
export const CONFLICT_MESSAGE = '操作冲突，请稍后重试'

/**
 * A failure the same work may not meet again: PostgreSQL deadlock_detected (40P01) and
 * serialization_failure (40001); SQLite busy (another process held the write lock past busy_timeout).
 */
export function isLockConflict(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const code = (error as { code?: unknown }).code
  return code === '40P01' || code === '40001' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))
}

/**
 * PostgreSQL refused a named statement's kept plan because its table changed shape since this connection
 * prepared it (an upgrade on another process added a column): the statement now runs unnamed
 * (db/prepared-statements.ts), but the transaction it failed in is aborted, so the whole of it runs again.
 */
function isStalePlan(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type')
}

/**
 * A unique index refused a row (PostgreSQL unique_violation 23505, SQLite UNIQUE / PRIMARY KEY): two writers
 * passed the store's check for the same value in the same moment and the index let one of them through.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const code = (error as { code?: unknown }).code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

let retries = 0

/** Transactions of this process run again after a lock conflict so far (the lock order is meant to keep it 0). */
export function lockConflictRetries(): number {
  return retries
}

/** 10–40 ms, then 20–80 ms: short enough to go unnoticed, jittered so the two losers do not meet again. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, (10 + Math.random() * 30) * attempt))

/**
 * The one transaction helper: every write runs inside it, domain code receives the transaction. Called
 * with a transaction it joins it (no savepoint, no retry of its own: the outermost call retries the whole).
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db)
  for (let attempt = 1; ; attempt++) {
    const after: (() => void)[] = []
    let result: T
    try {
      result = await db.transaction().execute((trx) => {
        pending.set(trx, after)
        origins.set(trx, handleOf(db))
        return work(trx)
      })
    } catch (error) {
      // The loser of a unique race runs again: its checks now see the winner's row and answer the field's own
      // message (编号重复…) instead of a database error.
      if (!isLockConflict(error) && !isUniqueViolation(error) && !isStalePlan(error)) throw error
      if (attempt >= TRANSACTION_ATTEMPTS) {
        console.warn(`[db] transaction given up after ${attempt} lock conflicts: ${(error as Error).message}`)
        throw new BizError(409, CONFLICT_MESSAGE)
      }
      retries++
      await backoff(attempt)
      continue
    }
    for (const run of after) {
      // The write is committed whatever an effect does: its failure is reported, never answered as the write's.
      try {
        run()
      } catch (error) {
        console.error('[db] after-commit effect failed', error)
      }
    }
    return result
  }
}

/**
 * Runs `effect` once the transaction `trx` has committed (at once when `trx` is no transaction of
 * inTransaction): what leaves the database, such as a bus message, must never announce a rolled-back write.
 */
export function afterCommit(trx: Db, effect: () => void): void {
  const queue = pending.get(trx)
  if (queue) queue.push(effect)
  else effect()
}
