import dayjs from 'dayjs'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type CallResult, type TestApp } from '../support/test-app.js'
import { startCluster, type TestCluster } from '../support/cluster.js'
import { httpClient, type ApiClient } from '../support/http-client.js'
import { createDept, created, crmCustomer, salesperson } from '../support/crm-fixtures.js'
import type { Db } from '../../src/server/db/dialect.js'

const onPostgres = process.env.TEST_DB === 'postgres'
const CHANGE = { CREATE: 1, CLAIM: 2, TRANSFER: 3, RELEASE: 4, AUTO_RETURN: 5 } as const
const IN_SEA = '公海客户不能进行此操作'
const OWNER_CHANGED = '客户负责人已变更，请刷新后重试'

interface HistoryRow {
  changeType: number
  fromOwnerId: string | null
  toOwnerId: string | null
}
interface Customer {
  id: string
  ownerId: string | null
  preOwnerId: string | null
}
type Person = Awaited<ReturnType<typeof salesperson>>

/** A sales team with a pool and one automatic-return rule (30 days without a follow-up), on any app. */
async function seaTeam(t: ApiClient, tag: string) {
  const admin = await t.login()
  const dept = await createDept(t, admin, `销售${tag}部`)
  const a = await salesperson(t, admin, `race${tag}a`, [dept])
  const b = await salesperson(t, admin, `race${tag}b`, [dept])
  const c = await salesperson(t, admin, `race${tag}c`, [dept])
  const pool = await created(t, admin, '/crm/sea/pool', { name: `${tag}公海`, deptIds: [dept], available: true })
  const config = await t.call('PUT', '/crm/sea/config', {
    token: admin,
    body: { ownerLimit: 0, lockLimit: 0, dailyClaimLimit: 0, reclaimDays: 0, protectDays: 0, remindDays: 0, autoReturn: true },
  })
  expect(config.body.code, config.raw).toBe(200)
  await created(t, admin, '/crm/sea/rule', { poolId: pool, returnCondition: 1, days: 30, exemptDealt: true, exemptLocked: true, available: true })
  return { admin, a, b, c, pool }
}

/** Calls and checks of the public sea against one app (in process or a process of a cluster). */
function seaCalls(t: ApiClient, admin: () => string) {
  const answers: CallResult[] = []
  const keep = async <T>(r: Promise<CallResult<T>>) => {
    const answer = await r
    answers.push(answer as CallResult)
    return answer
  }
  const on = (client: ApiClient | undefined) => client ?? t
  return {
    answers,
    transfer: (token: string, ids: string[], ownerId: string, via?: ApiClient) =>
      keep(on(via).call('POST', '/basedata/customer/transfer', { token, body: { ids, ownerId, reason: '竞争转移' } })),
    release: (token: string, ids: string[], via?: ApiClient) => keep(on(via).call('POST', '/basedata/customer/removePublicSea', { token, body: { ids, reason: '竞争放入' } })),
    claim: (token: string, ids: string[], via?: ApiClient) => keep(on(via).call('POST', '/basedata/customer/claimPublicSea', { token, body: { ids } })),
    runReturn: (via?: ApiClient) => keep(on(via).call<{ total: number }>('POST', '/crm/sea/return', { token: admin() })),
    customer: async (id: string) => (await t.call<Customer>('GET', '/crm/customer', { token: admin(), query: { id } })).body.data,
    history: async (id: string) => {
      const r = await t.call<HistoryRow[]>('GET', '/crm/customer/ownerRecords', { token: admin(), query: { customerId: id } })
      expect(r.status, r.raw).toBe(200)
      return r.body.data
    },
    /**
     * After a storm: no answer was a 5xx; no customer is both owned and in the sea (seen by `seer`, a member
     * of the pool's department); each owner is the newest history row's new owner; each customer's history
     * is a chain from its creation (a row's previous owner is the one before it's new owner).
     */
    async checkStorm(ids: string[], seer: string) {
      for (const r of answers.splice(0)) expect(r.status, r.raw).toBeLessThan(500)
      const sea = await t.call<{ datas: Customer[] }>('GET', '/basedata/customer/queryPublicSea', { token: seer, query: { pageSize: 500 } })
      const inSea = new Set(sea.body.data.datas.map((r) => r.id))
      for (const id of ids) {
        const customer = await this.customer(id)
        const newestFirst = await this.history(id)
        expect(inSea.has(id), `${id} owned by ${customer.ownerId} and listed in the sea`).toBe(customer.ownerId === null)
        expect(newestFirst[0]?.toOwnerId, JSON.stringify(newestFirst)).toBe(customer.ownerId)
        const chain = [...newestFirst].reverse()
        expect(chain[0]).toMatchObject({ changeType: CHANGE.CREATE, fromOwnerId: null })
        for (let i = 1; i < chain.length; i++) expect(chain[i].fromOwnerId, JSON.stringify(chain)).toBe(chain[i - 1].toOwnerId)
      }
    },
  }
}

/** Refusals a lost race may answer. */
const refusedAsStale = (r: CallResult) => r.status === 400 && [IN_SEA, OWNER_CHANGED].includes(r.body.msg)

/** The time stamp of a customer held for 40 days (due under the 30-day rule). */
const longAgo = () => dayjs().subtract(40, 'day').format('YYYY-MM-DD HH:mm:ss')

/**
 * Many hands on the public sea at once (issue 26): concurrent automatic returns, a return racing a
 * transfer or a release, a transfer of a customer that has just gone back, deletes in between, and the
 * order of the owner history. Each change of owner is one UPDATE expecting the owner it replaces; after
 * each storm the owner history is a chain that ends at the owner.
 */
describe('public sea under concurrent changes of owner', () => {
  let t: TestApp
  let team: Awaited<ReturnType<typeof seaTeam>>
  let a: Person
  let b: Person
  let c: Person
  let calls: ReturnType<typeof seaCalls>
  let tenantDb: Db
  let n = 0

  beforeAll(async () => {
    t = await startTestApp()
    team = await seaTeam(t, 'R')
    ;({ a, b, c } = team)
    calls = seaCalls(t, () => team.admin)
    const [tenantId] = await t.app.services.tenantIds()
    tenantDb = t.app.services.databases.tenant(tenantId)
  })
  afterAll(async () => t?.close())

  /** `count` customers of `owner` held long enough for the rule to take them back. */
  const dueCustomers = async (owner: Person, count: number) => {
    const ids: string[] = []
    for (let i = 0; i < count; i++) ids.push(await crmCustomer(t, owner.token, `竞争客户${++n}`))
    await tenantDb.updateTable('base_data_customer').set({ receive_time: longAgo(), create_time: longAgo() }).where('id', 'in', ids).execute()
    return ids
  }
  const autoReturns = (h: HistoryRow[]) => h.filter((r) => r.changeType === CHANGE.AUTO_RETURN)

  it('6 automatic returns at once over 12 due customers return each customer once, from its owner', async () => {
    const ids = await dueCustomers(a, 12)
    const runs = await Promise.all(Array.from({ length: 6 }, () => calls.runReturn()))
    for (const r of runs) expect(r.body.code, r.raw).toBe(200)
    expect(runs.reduce((sum, r) => sum + r.body.data.total, 0)).toBe(12)
    for (const id of ids) {
      const h = await calls.history(id)
      expect(autoReturns(h), JSON.stringify(h)).toHaveLength(1)
      expect(autoReturns(h)[0]).toMatchObject({ fromOwnerId: a.id, toOwnerId: null })
      expect(await calls.customer(id)).toMatchObject({ ownerId: null, preOwnerId: a.id })
    }
    await calls.checkStorm(ids, c.token)
  })

  it('a return racing transfers: each customer is either transferred or returned, never both', async () => {
    const ids = await dueCustomers(a, 8)
    const transfers = ids.map((id) => calls.transfer(a.token, [id], b.id))
    const [answers] = await Promise.all([Promise.all(transfers), calls.runReturn(), calls.runReturn(), calls.runReturn()])
    for (const [i, r] of answers.entries()) {
      const h = await calls.history(ids[i])
      const moved = h.filter((x) => x.changeType === CHANGE.TRANSFER || x.changeType === CHANGE.AUTO_RETURN)
      expect(moved, JSON.stringify(h)).toHaveLength(1)
      if (r.body.code === 200) {
        expect(moved[0]).toMatchObject({ changeType: CHANGE.TRANSFER, fromOwnerId: a.id, toOwnerId: b.id })
        expect((await calls.customer(ids[i])).ownerId).toBe(b.id)
      } else {
        expect(refusedAsStale(r), r.raw).toBe(true)
        expect(moved[0]).toMatchObject({ changeType: CHANGE.AUTO_RETURN, fromOwnerId: a.id })
        expect(await calls.customer(ids[i])).toMatchObject({ ownerId: null, preOwnerId: a.id })
      }
    }
    await calls.checkStorm(ids, c.token)
  })

  it('a return racing releases: each customer leaves its owner once', async () => {
    const ids = await dueCustomers(a, 8)
    const releases = ids.map((id) => calls.release(a.token, [id]))
    const [answers] = await Promise.all([Promise.all(releases), calls.runReturn(), calls.runReturn()])
    for (const [i, r] of answers.entries()) {
      const h = await calls.history(ids[i])
      const left = h.filter((x) => x.changeType === CHANGE.RELEASE || x.changeType === CHANGE.AUTO_RETURN)
      expect(left, JSON.stringify(h)).toHaveLength(1)
      expect(left[0]).toMatchObject({ changeType: r.body.code === 200 ? CHANGE.RELEASE : CHANGE.AUTO_RETURN, fromOwnerId: a.id, toOwnerId: null })
      if (r.body.code !== 200) expect(refusedAsStale(r), r.raw).toBe(true)
      expect(await calls.customer(ids[i])).toMatchObject({ ownerId: null, preOwnerId: a.id })
    }
    await calls.checkStorm(ids, c.token)
  })

  it('a customer that has just gone back to the sea can be neither transferred nor released, by its owner or an admin', async () => {
    const [id] = await dueCustomers(a, 1)
    expect((await calls.runReturn()).body.data.total).toBe(1)
    const before = await calls.history(id)
    for (const token of [a.token, team.admin]) {
      const transfer = await calls.transfer(token, [id], c.id)
      expect(transfer.status, transfer.raw).toBe(400)
      expect(transfer.body.msg).toBe(IN_SEA)
      const release = await calls.release(token, [id])
      expect(release.body.msg, release.raw).toBe(IN_SEA)
    }
    expect(await calls.customer(id)).toMatchObject({ ownerId: null, preOwnerId: a.id })
    expect(await calls.history(id)).toEqual(before)
    // The way out of the sea is a claim, with its rules.
    expect((await calls.claim(c.token, [id])).body.code).toBe(200)
    await calls.checkStorm([id], c.token)
  })

  it('transfers just after a return, with several in flight: each refused transfer changed nothing', async () => {
    const ids = await dueCustomers(a, 6)
    const returning = calls.runReturn()
    const late = await Promise.all(ids.map((id) => calls.transfer(a.token, [id], c.id)))
    await returning
    for (const [i, r] of late.entries()) {
      const h = await calls.history(ids[i])
      if (r.body.code === 200) expect(h[0]).toMatchObject({ changeType: CHANGE.TRANSFER, toOwnerId: c.id })
      else {
        expect(refusedAsStale(r), r.raw).toBe(true)
        expect(h.map((x) => x.changeType)).toEqual([CHANGE.AUTO_RETURN, CHANGE.CREATE])
      }
    }
    await calls.checkStorm(ids, c.token)
  })

  it('deleting customers while they are transferred and returned leaves no history behind', async () => {
    const ids = await dueCustomers(a, 6)
    const doomed = ids.filter((_, i) => i % 2 === 0)
    const deletes = doomed.map((id) => t.call('DELETE', '/basedata/customer', { token: team.admin, body: { id } }))
    const [removed] = await Promise.all([Promise.all(deletes), Promise.all(ids.map((id) => calls.transfer(a.token, [id], b.id))), calls.runReturn()])
    for (const r of removed) expect(r.body.code, r.raw).toBe(200)
    const orphans = await tenantDb.selectFrom('crm_customer_owner_record').select('id').where('customer_id', 'in', doomed).execute()
    expect(orphans).toEqual([])
    await calls.checkStorm(
      ids.filter((id) => !doomed.includes(id)),
      c.token,
    )
  })

  it('lists the owner history of one second in the order the changes were made', async () => {
    const id = await crmCustomer(t, a.token, `顺序客户${++n}`)
    const contact = await created(t, team.admin, '/crm/contact/createContact', { name: '顺序联系人', customerId: id })
    const ok = (r: CallResult) => expect(r.body.code, r.raw).toBe(200)
    ok(await calls.transfer(a.token, [id], b.id))
    ok(await calls.transfer(b.token, [id], c.id))
    ok(await calls.release(c.token, [id]))
    ok(await calls.claim(a.token, [id]))
    ok(await calls.transfer(a.token, [id], b.id))
    ok(await calls.release(b.token, [id]))
    ok(await calls.claim(c.token, [id]))
    ok(await calls.transfer(c.token, [id], a.id))
    await tenantDb.updateTable('base_data_customer').set({ receive_time: longAgo() }).where('id', '=', id).execute()
    expect((await calls.runReturn()).body.data.total).toBe(1)
    ok(await calls.claim(b.token, [id]))
    // The customer's contacts follow every change, a claim out of the sea included.
    expect((await tenantDb.selectFrom('crm_contact').select('owner_id').where('id', '=', contact).executeTakeFirstOrThrow()).owner_id).toBe(b.id)
    ok(await calls.transfer(b.token, [id], c.id))
    const chain = [...(await calls.history(id))].reverse().map((r) => [r.changeType, r.fromOwnerId, r.toOwnerId])
    expect(chain).toEqual([
      [CHANGE.CREATE, null, a.id],
      [CHANGE.TRANSFER, a.id, b.id],
      [CHANGE.TRANSFER, b.id, c.id],
      [CHANGE.RELEASE, c.id, null],
      [CHANGE.CLAIM, null, a.id],
      [CHANGE.TRANSFER, a.id, b.id],
      [CHANGE.RELEASE, b.id, null],
      [CHANGE.CLAIM, null, c.id],
      [CHANGE.TRANSFER, c.id, a.id],
      [CHANGE.AUTO_RETURN, a.id, null],
      [CHANGE.CLAIM, null, b.id],
      [CHANGE.TRANSFER, b.id, c.id],
    ])
    await calls.checkStorm([id], c.token)
  })

  it('a database from before the change numbers upgrades: its history first, then the new changes in order', async () => {
    const id = await crmCustomer(t, a.token, `升级客户${++n}`)
    // The table as it was: no seq column (its index goes first, SQLite drops no indexed column).
    await tenantDb.schema.dropIndex('ux_crm_customer_owner_record_customer_id_seq').execute()
    await tenantDb.schema.alterTable('crm_customer_owner_record').dropColumn('seq').execute()
    await t.restart()
    const [tenantId] = await t.app.services.tenantIds()
    tenantDb = t.app.services.databases.tenant(tenantId)
    team.admin = await t.login()
    a.token = await t.login(a.username, 'secret123')
    expect((await calls.transfer(a.token, [id], b.id)).body.code).toBe(200)
    expect((await calls.history(id)).map((r) => r.changeType)).toEqual([CHANGE.TRANSFER, CHANGE.CREATE])
    const rows = await tenantDb.selectFrom('crm_customer_owner_record').select(['change_type', 'seq']).where('customer_id', '=', id).orderBy('change_type').execute()
    expect(rows.map((r) => [Number(r.change_type), r.seq === null ? null : Number(r.seq)])).toEqual([
      [CHANGE.CREATE, null],
      [CHANGE.TRANSFER, 1],
    ])
    await calls.checkStorm([id], c.token)
  })
})

/**
 * The same races on two server processes sharing one PostgreSQL (`startCluster`), with the every-second
 * automatic-return job of the scheduler running beside 执行自动回收 on both processes. Skipped on SQLite:
 * one process by design.
 */
describe.skipIf(!onPostgres)('public sea races across two server processes (skipped on SQLite: one process by design)', () => {
  let cluster: TestCluster
  let one: ApiClient
  let two: ApiClient
  let team: Awaited<ReturnType<typeof seaTeam>>
  let calls: ReturnType<typeof seaCalls>
  let db: Db
  let n = 0

  beforeAll(async () => {
    cluster = await startCluster(2)
    one = httpClient(cluster.workers[0])
    two = httpClient(cluster.workers[1])
    team = await seaTeam(one, 'X')
    calls = seaCalls(one, () => team.admin)
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 }) }) }).withSchema('tenant_1000')
  }, 180_000)
  afterAll(async () => {
    await db?.destroy()
    await cluster?.stop()
  })

  const dueCustomers = async (owner: Person, count: number) => {
    const ids: string[] = []
    for (let i = 0; i < count; i++) ids.push(await crmCustomer(one, owner.token, `集群客户${++n}`))
    await db.updateTable('base_data_customer').set({ receive_time: longAgo(), create_time: longAgo() }).where('id', 'in', ids).execute()
    return ids
  }
  /** Waits (bounded) until every customer of `ids` is in the sea. */
  const allInSea = async (ids: string[]) => {
    const until = Date.now() + 30_000
    for (;;) {
      const owned = await db.selectFrom('base_data_customer').select('id').where('id', 'in', ids).where('owner_id', 'is not', null).execute()
      if (!owned.length) return
      if (Date.now() > until) throw new Error(`still owned after 30 s: ${owned.map((r) => r.id).join()}\n${cluster.output().slice(-3000)}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const jobRuns = async (jobId: string) =>
    Number((await db.selectFrom('qrtz_job_run').select(sql<number>`count(*)`.as('n')).where('job_id', '=', jobId).executeTakeFirstOrThrow()).n)

  it('the every-second job and 执行自动回收 on both processes return 12 due customers once each', { timeout: 90_000 }, async () => {
    const ids = await dueCustomers(team.a, 12)
    const job = await one.call<string>('POST', '/qrtz', { token: team.admin, body: { name: '公海回收每秒', jobType: 1, cron: '* * * * * ?', targetClassName: 'crmSeaReturn' } })
    expect(job.status, job.raw).toBe(200)
    const runs = await Promise.all([one, two, one, two, one, two].map((via) => calls.runReturn(via)))
    for (const r of runs) expect(r.status, r.raw).toBe(200)
    await allInSea(ids)
    // Let the job run again over customers already returned.
    const seen = await jobRuns(job.body.data)
    const until = Date.now() + 20_000
    while ((await jobRuns(job.body.data)) < seen + 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 200))
    expect(await jobRuns(job.body.data)).toBeGreaterThanOrEqual(seen + 2)

    for (const id of ids) {
      const h = await calls.history(id)
      expect(h.filter((r) => r.changeType === CHANGE.AUTO_RETURN), JSON.stringify(h)).toEqual([expect.objectContaining({ fromOwnerId: team.a.id, toOwnerId: null })])
      expect(await calls.customer(id)).toMatchObject({ ownerId: null, preOwnerId: team.a.id })
    }
    await calls.checkStorm(ids, team.c.token)

    // The job keeps running for the next case: transfers on both processes racing it and the button.
    const racing = await dueCustomers(team.a, 8)
    const [transfers] = await Promise.all([
      Promise.all(racing.map((id, i) => calls.transfer(team.a.token, [id], team.b.id, i % 2 ? two : one))),
      calls.runReturn(two),
      calls.runReturn(one),
    ])
    for (const [i, id] of racing.entries()) {
      // A transfer loses only to a return that committed first.
      if (transfers[i].body.code !== 200) expect(refusedAsStale(transfers[i]), transfers[i].raw).toBe(true)
      const h = await calls.history(id)
      const moved = h.filter((x) => x.changeType === CHANGE.TRANSFER || x.changeType === CHANGE.AUTO_RETURN)
      expect(moved, JSON.stringify(h)).toHaveLength(1)
      expect(moved[0]).toMatchObject(
        transfers[i].body.code === 200 ? { changeType: CHANGE.TRANSFER, toOwnerId: team.b.id } : { changeType: CHANGE.AUTO_RETURN, fromOwnerId: team.a.id },
      )
    }
    expect((await one.call('PATCH', '/qrtz/pause', { token: team.admin, body: { id: job.body.data } })).status).toBe(200)
    await calls.checkStorm(racing, team.c.token)
  })
})
