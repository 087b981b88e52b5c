import type Database from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

/** Distinct statements kept prepared: the app's statement shapes number in the hundreds. */
const MAX_STATEMENTS = 2000

/**
 * better-sqlite3 behind Kysely with its prepared statements reused. Kysely's SQLite driver prepares
 * every statement it runs anew, and on SQLite preparing (parsing and planning) costs as much as
 * running a small statement: an import writing a million rows through the store spends most of its
 * time there. Statements are keyed by their SQL text (values are bound, never in the text) and
 * dropped least-recently-used first. A statement still being iterated (a streamed select) is busy and
 * cannot be run again meanwhile, so a fresh one is prepared for that moment. A changed schema is
 * no hazard: SQLite re-prepares a statement whose tables changed when it next runs.
 */
export function withStatementCache(database: Database.Database): SqliteDatabase {
  const cache = new Map<string, Database.Statement>()
  return {
    prepare(sql: string): SqliteStatement {
      const hit = cache.get(sql)
      if (hit && !hit.busy) {
        // Most recently used last: Map keeps insertion order.
        cache.delete(sql)
        cache.set(sql, hit)
        return hit as unknown as SqliteStatement
      }
      const statement = database.prepare(sql)
      if (!hit) {
        cache.set(sql, statement)
        if (cache.size > MAX_STATEMENTS) cache.delete(cache.keys().next().value as string)
      }
      return statement as unknown as SqliteStatement
    },
    close() {
      cache.clear()
      database.close()
    },
  }
}
