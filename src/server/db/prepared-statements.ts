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

/** Texts PostgreSQL refused to run from an old plan (below): they stay unnamed. */
const unnamed = new Set<string>()

/** List texts have a budget of their own, so the many list shapes never crowd out the hot statements. */
const MAX_LISTED = 512
const listed = new Set<string>()

const mark = (text: string, list: boolean) => {
  if (names.has(text) || unnamed.has(text) || (list ? listed.size >= MAX_LISTED : names.size - listed.size >= MAX_NAMED)) return
  names.set(text, `k_${createHash('sha1').update(text).digest('hex').slice(0, 32)}`)
  if (list) listed.add(text)
}

/** Runs `query` as a named statement on PostgreSQL (as any statement on SQLite, whose driver caches them). */
export async function executePrepared<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile()
  if (isPostgres(db)) mark(compiled.sql, false)
  return (await db.executeQuery(compiled)).rows
}

/** A search pattern decides the plan of the statement it is in (see above). */
const PATTERN = /\b(i?like|similar to)\b|~~/i

/**
 * Runs a list's page (or count) named on PostgreSQL unless a search pattern is in it: a list without one
 * (a page of brands, a picker's first page, a filter by status) is planned once per connection instead of
 * on every call, which was a third of PostgreSQL's work for a small list (issue 33).
 */
export async function executeListed<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile()
  if (isPostgres(db) && !PATTERN.test(compiled.sql)) mark(compiled.sql, true)
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

/** The answer of a `begin`, `commit` or `rollback` that needed no round trip. */
const NOTHING: pg.QueryResult = { command: '', rowCount: 0, rows: [], fields: [], oid: 0 }

/**
 * `pool` for Kysely, sending the marked texts as named statements (pg prepares a name once per connection).
 *
 * A transaction's `begin` is not sent on its own: it waits for the transaction's first statement and is
 * written just before it, and the two are answered in one round trip (the pool's connections are
 * pipelined: connections.ts). An approval on PostgreSQL is a handful of round trips, so one fewer was
 * about a twentieth of its time. PostgreSQL runs them in order, so the statement is inside the
 * transaction; a `begin` refused on a connection that then runs the statement is not a case PostgreSQL
 * has (it refuses no `begin` outside a transaction), and its error would still be what the caller gets.
 * A transaction that ends before any statement sends nothing.
 */
export function namingPool(pool: pg.Pool): PostgresPool {
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    /** A `begin` not sent yet: it goes out with the transaction's first statement. */
    let beginDeferred = false
    function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
    function query(first: unknown, parameters?: ReadonlyArray<unknown>): unknown {
      if (typeof first !== 'string') return client.query(first as pg.Submittable)
      if (first === 'begin' && !parameters?.length) {
        beginDeferred = true
        return Promise.resolve(NOTHING)
      }
      if (!beginDeferred) return run(first, parameters)
      beginDeferred = false
      // A transaction that ends before its first statement: there is nothing to commit or take back.
      if (first === 'commit' || first === 'rollback') return Promise.resolve(NOTHING)
      // Corked: both go out in one write.
      const stream = client.connection.stream
      stream.cork()
      let begun: Promise<unknown>, answer: Promise<pg.QueryResult>
      try {
        begun = client.query('begin')
        answer = run(first, parameters)
      } finally {
        stream.uncork()
      }
      return begun.then(
        () => answer,
        (error: unknown) => {
          answer.catch(() => {})
          throw error
        },
      )
    }
    function run(first: string, parameters?: ReadonlyArray<unknown>): Promise<pg.QueryResult> {
      const name = names.get(first)
      const values = parameters ? [...parameters] : []
      if (!name) return client.query(first, values)
      return client.query({ name, text: first, values }).catch((error: { code?: string }) => {
        // A table gained a column since this connection prepared `select t.*` (an upgrade on another
        // process): PostgreSQL refuses the old plan once; the text runs unnamed from now on. Inside a
        // transaction the refusal aborted it, so the transaction runs again instead (db-tx inTransaction).
        if (error.code !== '0A000') throw error
        names.delete(first)
        listed.delete(first)
        unnamed.add(first)
        if (client.getTransactionStatus() !== 'I') throw error
        return client.query(first, values)
      })
    }
    return { query, release: () => client.release() }
  }
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  }
}
