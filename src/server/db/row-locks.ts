import type { Db } from './dialect.js'
import { isPostgres } from './exact-decimal.js'

/**
 * Locks rows of one table `FOR UPDATE` in id order (PostgreSQL; SQLite runs one write transaction at a
 * time), the order every action takes them in (platform/db-tx.ts), so two actions never wait on each other crosswise.
 */
export async function lockRows(trx: Db, table: string, ids: string[]): Promise<void> {
  if (!ids.length || !isPostgres(trx)) return
  await trx.selectFrom(table).select('id').where('id', 'in', [...ids].sort()).orderBy('id').forUpdate().execute()
}
