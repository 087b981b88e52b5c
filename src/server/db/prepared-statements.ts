import { createHash } from 'node:crypto'
import type { Compilable, CompiledQuery, PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type pg from 'pg'
import type { Db } from './dialect.js'
import { isPostgres } from './exact-decimal.js'

/**
 * Server-side prepared statements for the hot statements of PostgreSQL (approval: the stock lock, the
 * combined writes). An unnamed statement is parsed, analysed and planned on every run; for the approval's
 * statements that was about half of PostgreSQL's CPU per approval (5.4 -> 3.0 ms, 10-line sale outs with
 * every statement named), and under 8 concurrent clients the server's CPU is what the approvals share.
 *
 * Only statements run through `executePrepared` are named, not every statement: a list's plan depends on
 * its search values (a `like` on a search key is planned from the pattern), which a generic plan cannot
 * see, and the app's other texts are unbounded in number. The name is derived from the text, so every
 * connection and process gives one text the same name and pg prepares it once per connection. The texts
 * kept are bounded (each holds a plan per connection that ran it); past the bound, statements run
 * unnamed as before. A plan is re-made by the server when a table it reads changes.
 */
const MAX_NAMED = 256
const names = new Map<string, string>()

/** The statement name of `text`, if it was marked by executePrepared. */
export const preparedName = (text: string): string | undefined => names.get(text)

/** The texts marked so far (what the server may hold a plan of, per connection). */
export const preparedTexts = (): string[] => [...names.keys()]

/** Runs `query` as a named statement on PostgreSQL (as any statement on SQLite, whose driver caches them). */
export async function executePrepared<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile()
  if (isPostgres(db) && !names.has(compiled.sql) && names.size < MAX_NAMED)
    names.set(compiled.sql, `k_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 32)}`)
  return (await db.executeQuery(compiled)).rows
}

const compiled = new WeakMap<Db, Map<string, CompiledQuery>>()
const COMPILED_KEPT = 1000

/**
 * The statement `build` makes, compiled once per database handle and `key`, for a hot statement whose text
 * and values follow from the key alone (the data-permission read of a user before every list): building
 * and compiling it in Kysely cost more than running it on SQLite. The oldest of a handle's keys is dropped first.
 */
export function compiledOnce<R>(db: Db, key: string, build: () => Compilable<R>): Compilable<R> {
  let kept = compiled.get(db)
  if (!kept) compiled.set(db, (kept = new Map()))
  let query = kept.get(key)
  if (!query) {
    query = build().compile()
    if (kept.size >= COMPILED_KEPT) kept.delete(kept.keys().next().value as string)
    kept.set(key, query)
  }
  const answer = query as CompiledQuery<R>
  return { compile: () => answer }
}

/** `pool` for Kysely, sending the marked texts as named statements (pg prepares a name once per connection). */
export function namingPool(pool: pg.Pool): PostgresPool {
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
    function query(first: unknown, parameters?: ReadonlyArray<unknown>): unknown {
      if (typeof first !== 'string') return client.query(first as pg.Submittable)
      const name = names.get(first)
      const values = parameters ? [...parameters] : []
      return name ? client.query({ name, text: first, values }) : client.query(first, values)
    }
    return { query, release: () => client.release() }
  }
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  }
}
