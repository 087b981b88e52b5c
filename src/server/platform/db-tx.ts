import type { Db } from '../db/dialect.js'

/** Work waiting for the commit of the transaction it was registered in. */
const pending = new WeakMap<Db, (() => void)[]>()
/** The handle each transaction was opened on, so code given only a transaction can tell whose it is. */
const origins = new WeakMap<Db, Db>()

/** The database handle `db` is a transaction of (or `db` itself): e.g. to know its tenant (Databases.tenantOf). */
export const handleOf = (db: Db): Db => origins.get(db) ?? db

/** The one transaction helper: every write runs inside it, domain code receives the transaction. */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  const after: (() => void)[] = []
  const result = await db.transaction().execute((trx) => {
    pending.set(trx, after)
    origins.set(trx, handleOf(db))
    return work(trx)
  })
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

/**
 * Runs `effect` once the transaction `trx` has committed (at once when `trx` is no transaction of
 * inTransaction): what leaves the database, such as a bus message, must never announce a rolled-back write.
 */
export function afterCommit(trx: Db, effect: () => void): void {
  const queue = pending.get(trx)
  if (queue) queue.push(effect)
  else effect()
}
