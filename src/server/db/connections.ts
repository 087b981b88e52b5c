import path from 'node:path'
import fs from 'node:fs'
import Database from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import { registerDecimalFunctions } from './exact-decimal.js'
import { namingPool } from './prepared-statements.js'
import { withStatementCache } from './statement-cache.js'
import { SchemaPostgresDialect } from './schema-compiler.js'

/** Opening the databases: the URL's kind, an SQLite file with its decimal functions, a PostgreSQL pool. */

/* PostgreSQL answers timestamps, dates and numerics as the text we store in SQLite, so one codec serves both. */
pg.types.setTypeParser(1114, (v) => v.slice(0, 19))
pg.types.setTypeParser(1082, (v) => v)
pg.types.setTypeParser(20, (v) => Number(v))

export interface DatabaseTarget {
  kind: DbKind
  /** SQLite: the platform file. PostgreSQL: the connection string. */
  location: string
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', location: path.resolve(url.slice('sqlite:'.length)) }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres', location: url }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${url})`)
}

export function openSqlite(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const database = new Database(file)
  database.pragma('journal_mode = WAL')
  database.pragma('busy_timeout = 5000')
  database.pragma('synchronous = NORMAL')
  registerDecimalFunctions(database)
  return new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(database) }) })
}

/** The PostgreSQL pool of a process (Databases reads its counts for /metrics). */
export function postgresPool(connectionString: string, max = 10): pg.Pool {
  // Pipelined: a query is written when it is asked, not when the one before it is answered. Kysely asks
  // one at a time on a connection; the one pair written together is a transaction's `begin` and its first
  // statement (namingPool).
  const pool = new pg.Pool({ connectionString, max, pipeline: true })
  // An idle connection the server ends (restart, failover, pg_terminate_backend) is emitted here; without
  // a listener it would be an uncaught exception that stops the whole process. The pool drops the client
  // and opens a new one on the next query.
  pool.on('error', (error) => console.warn(`[db] idle PostgreSQL connection lost: ${error.message}`))
  return pool
}

/** A handle on `pool`; with `schema`, every statement's tables are qualified by it (db/schema-compiler.ts). */
export function openPostgres(pool: pg.Pool, schema?: string): Db {
  const config = { pool: namingPool(pool) }
  return new Kysely({ dialect: schema ? new SchemaPostgresDialect(config, schema) : new PostgresDialect(config) })
}
