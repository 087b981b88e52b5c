import type { Db } from '../db/dialect.js'

/** The one transaction helper: every write runs inside it, domain code receives the transaction. */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(work)
}
