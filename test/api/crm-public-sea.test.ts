import dayjs from 'dayjs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createDept, created, crmCustomer, salesperson, SALES_KEYS } from '../support/crm-fixtures.js'
import { setClock } from '../../src/server/platform/clock.js'

interface Row {
  id: string
  ownerId: string | null
  ownerName?: string | null
  poolId: string | null
  preOwnerId: string | null
  locked: boolean
  name: string
}
interface Record_ {
  changeType: number
  fromOwnerId: string | null
  toOwnerId: string | null
  reason: string | null
}

/**
 * The public sea (公海): ownership tabs, release with a reason, claim (one guarded statement: exactly one
 * winner under concurrency, capacity and daily limit hold too), transfer, cool-downs, lock limit and the
 * set-based automatic return with its reminder, on a clock the test moves.
 */
describe('CRM customers and the public sea', () => {
  let t: TestApp
  let admin: string
  let sales: string
  let salesB: string
  type Person = Awaited<ReturnType<typeof salesperson>>
  let a: Person
  let b: Person
  let c: Person
  let manager: Person
  let other: Person
  let poolSales: string

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    sales = await createDept(t, admin, '销售部')
    salesB = await createDept(t, admin, '销售二组', sales)
    const service = await createDept(t, admin, '客服部')
    a = await salesperson(t, admin, 'seaalpha', [sales])
    b = await salesperson(t, admin, 'seabeta', [salesB])
    c = await salesperson(t, admin, 'seagamma', [sales])
    manager = await salesperson(t, admin, 'seamgr1', [sales], [...SALES_KEYS, 'crm:customer:dept'])
    other = await salesperson(t, admin, 'seaother', [service])
    poolSales = await created(t, admin, '/crm/sea/pool', { name: '销售部公海', deptIds: [sales], available: true })
  })
  afterEach(() => setClock())
  afterAll(async () => t?.close())

  const config = async (values: Record<string, unknown>) => {
    const r = await t.call('PUT', '/crm/sea/config', {
      token: admin,
      body: { ownerLimit: 0, lockLimit: 0, dailyClaimLimit: 0, reclaimDays: 0, protectDays: 0, remindDays: 3, autoReturn: true, ...values },
    })
    expect(r.body.code, r.raw).toBe(200)
  }
  const mine = async (token: string, scope = 1) =>
    (await t.call<{ datas: Row[]; totalCount: number }>('GET', '/basedata/customer/queryCustomerAss', { token, query: { scope, pageSize: 200 } })).body.data.datas
  const sea = async (token: string) =>
    (await t.call<{ datas: Row[] }>('GET', '/basedata/customer/queryPublicSea', { token, query: { pageSize: 200 } })).body.data.datas
  const release = (token: string, ids: string[], reason = '客户暂无需求') => t.call('POST', '/basedata/customer/removePublicSea', { token, body: { ids, reason } })
  const claim = (token: string, ids: string[]) => t.call('POST', '/basedata/customer/claimPublicSea', { token, body: { ids } })
  const history = async (token: string, customerId: string) =>
    (await t.call<Record_[]>('GET', '/crm/customer/ownerRecords', { token, query: { customerId } })).body.data
  const owner = async (id: string) => (await t.call<Row>('GET', '/crm/customer', { token: admin, query: { id } })).body.data.ownerId
  /** Moves the clock and signs everybody in again (sessions follow the clock too). */
  const travel = async (days: number) => {
    setClock(dayjs().add(days, 'day').toDate())
    admin = await t.login()
    for (const p of [a, b, c, manager, other]) p.token = await t.login(p.username, 'secret123')
  }

  it('a created customer belongs to its creator; tabs mine / department / all follow the keys', async () => {
    await config({})
    const id = await crmCustomer(t, a.token, '甲方科技')
    const rows = await mine(a.token)
    expect(rows.map((r) => r.id)).toContain(id)
    expect(rows.find((r) => r.id === id)?.ownerName).toBe('销售seaalpha')
    expect((await mine(c.token)).map((r) => r.id)).not.toContain(id)
    expect((await t.call('GET', '/basedata/customer/queryCustomerAss', { token: a.token, query: { scope: 2 } })).body.msg).toBe('无权查看本部门客户')
    expect((await t.call('GET', '/basedata/customer/queryCustomerAss', { token: manager.token, query: { scope: 3 } })).status).toBe(403)
    expect((await mine(manager.token, 2)).map((r) => r.id)).toContain(id)
    expect((await mine(admin, 3)).map((r) => r.id)).toContain(id)
    // Another salesperson cannot open, modify or release it.
    expect((await t.call('GET', '/crm/customer', { token: c.token, query: { id } })).status).toBe(404)
    expect((await t.call('PUT', '/crm/customer', { token: c.token, body: { id, name: '改名' } })).status).toBe(404)
    expect((await release(c.token, [id])).status).toBe(404)
    const h = await history(a.token, id)
    expect(h.map((r) => r.changeType)).toEqual([1])
    // Base data may still delete it: its owner history goes with it.
    const gone = await crmCustomer(t, a.token, '待删除客户')
    expect((await t.call('DELETE', '/basedata/customer', { token: admin, body: { id: gone } })).body.code).toBe(200)
    expect((await t.call('GET', '/crm/customer', { token: admin, query: { id: gone } })).status).toBe(404)
  })

  it('release needs a reason, lands in the pool of the owner department and keeps the reason', async () => {
    const id = await crmCustomer(t, a.token, '乙方贸易')
    expect((await release(a.token, [id], '  ')).body.msg).toBe('请输入放入公海的原因')
    expect((await release(a.token, [id], '预算取消，暂不采购')).body.code).toBe(200)
    const inSea = (await sea(c.token)).find((r) => r.id === id)
    expect(inSea?.poolId).toBe(poolSales)
    expect(inSea?.preOwnerId).toBe(a.id)
    // The customer service department has no pool of its own and the sales pool is not theirs.
    expect((await sea(other.token)).map((r) => r.id)).not.toContain(id)
    expect((await claim(other.token, [id])).body.msg).toBe('您不能领取该公海的客户')
    expect((await mine(a.token)).map((r) => r.id)).not.toContain(id)
    const h = await history(c.token, id)
    expect(h[0]).toMatchObject({ changeType: 4, fromOwnerId: a.id, toOwnerId: null, reason: '预算取消，暂不采购' })
    expect((await release(a.token, [id])).body.msg).toBe('公海客户不能进行此操作')
  })

  it('a claim makes the claimer the owner; the second claimer reads 该客户已被领取', async () => {
    const id = await crmCustomer(t, a.token, '丙方实业')
    await release(a.token, [id])
    expect((await claim(c.token, [id])).body.code).toBe(200)
    const second = await claim(b.token, [id])
    expect(second.status).toBe(400)
    expect(second.body.msg).toBe('该客户已被领取')
    expect(await owner(id)).toBe(c.id)
    expect((await history(c.token, id))[0]).toMatchObject({ changeType: 2, toOwnerId: c.id })
  })

  it('20 concurrent claims of one customer: exactly one owner', async () => {
    const id = await crmCustomer(t, a.token, '并发客户')
    await release(a.token, [id])
    const people = [b, c, manager]
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(people[i % people.length].token, [id])))
    const won = answers.filter((r) => r.body.code === 200)
    expect(won).toHaveLength(1)
    expect(answers.filter((r) => r.body.msg === '该客户已被领取')).toHaveLength(19)
    const claims = (await history(admin, id)).filter((r) => r.changeType === 2)
    expect(claims).toHaveLength(1)
    expect(await owner(id)).toBe(claims[0].toOwnerId)
  })

  it('capacity holds under concurrent claims of different customers', async () => {
    const ids: string[] = []
    for (let i = 0; i < 8; i++) ids.push(await crmCustomer(t, a.token, `容量客户${i}`))
    await release(a.token, ids)
    const owned = (await mine(b.token)).length
    await config({ ownerLimit: owned + 3 })
    const answers = await Promise.all(ids.map((id) => claim(b.token, [id])))
    expect(answers.filter((r) => r.body.code === 200)).toHaveLength(3)
    expect(answers.filter((r) => r.body.code !== 200).map((r) => r.body.msg)).toContain(`您拥有的客户已达上限（${owned + 3}个），不能再领取`)
    expect((await mine(b.token)).length).toBe(owned + 3)
    // Transfer to someone at capacity is refused as well.
    const extra = await crmCustomer(t, a.token, '转移受限')
    expect((await t.call('POST', '/basedata/customer/transfer', { token: a.token, body: { ids: [extra], ownerId: b.id } })).body.msg).toBe(`接收人拥有的客户已达上限（${owned + 3}个）`)
    // Nor can b create one more, and nothing is left behind by the refused create.
    const refused = await t.call('POST', '/crm/customer', { token: b.token, body: { code: 'FULL001', name: '超限客户', settleType: 1, available: true } })
    expect(refused.body.msg).toBe(`您拥有的客户已达上限（${owned + 3}个），不能再新增`)
    expect((await mine(admin, 3)).map((r) => r.name)).not.toContain('超限客户')
    await config({})
  })

  it('the daily claim limit holds, concurrently too', async () => {
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push(await crmCustomer(t, a.token, `日限客户${i}`))
    await release(a.token, ids)
    await config({ dailyClaimLimit: 2 })
    const fresh = await salesperson(t, admin, 'seadaily', [sales])
    const answers = await Promise.all(ids.map((id) => claim(fresh.token, [id])))
    expect(answers.filter((r) => r.body.code === 200)).toHaveLength(2)
    expect(answers.filter((r) => r.body.code !== 200).every((r) => r.body.msg === '今日领取客户已达上限（2个）')).toBe(true)
    await config({})
  })

  it('the previous owner waits reclaimDays; a released customer is protected for protectDays', async () => {
    const id = await crmCustomer(t, a.token, '冷却客户')
    await config({ reclaimDays: 7, protectDays: 2 })
    await release(a.token, [id])
    expect((await claim(c.token, [id])).body.msg).toBe('该客户放入公海未满2天，暂不能领取')
    await travel(3)
    expect((await claim(a.token, [id])).body.msg).toBe('您是该客户的前负责人，7天内不能再次领取')
    await travel(8)
    expect((await claim(a.token, [id])).body.code).toBe(200)
    setClock()
    await travel(0)
    await config({})
  })

  it('transfer hands customers over with the reason; lock limit holds', async () => {
    const id = await crmCustomer(t, a.token, '转移客户')
    const r = await t.call('POST', '/basedata/customer/transfer', { token: a.token, body: { ids: [id], ownerId: c.id, reason: '区域调整' } })
    expect(r.body.code, r.raw).toBe(200)
    expect(await owner(id)).toBe(c.id)
    expect((await history(c.token, id))[0]).toMatchObject({ changeType: 3, fromOwnerId: a.id, toOwnerId: c.id, reason: '区域调整' })
    expect((await t.call('POST', '/basedata/customer/transfer', { token: a.token, body: { ids: [id], ownerId: a.id } })).status).toBe(404)

    await config({ lockLimit: 1 })
    const x = await crmCustomer(t, c.token, '锁定一')
    const y = await crmCustomer(t, c.token, '锁定二')
    expect((await t.call('POST', '/basedata/customer/lock', { token: c.token, body: { ids: [x], locked: true } })).body.code).toBe(200)
    expect((await t.call('POST', '/basedata/customer/lock', { token: c.token, body: { ids: [y], locked: true } })).body.msg).toBe('锁定客户已达上限（1个）')
    await config({})
  })

  it('automatic return: per rule, level and exemptions, with the reminder before it', async () => {
    const owner1 = await salesperson(t, admin, 'seaauto', [salesB])
    const quiet = await crmCustomer(t, owner1.token, '久未跟进A', { level: 1 })
    const levelB = await crmCustomer(t, owner1.token, '久未跟进B', { level: 2 })
    const dealt = await crmCustomer(t, owner1.token, '已成交A', { level: 1, dealStatus: 1 })
    const locked = await crmCustomer(t, owner1.token, '锁定A', { level: 1 })
    const followed = await crmCustomer(t, owner1.token, '常跟进A', { level: 1 })
    await t.call('POST', '/basedata/customer/lock', { token: owner1.token, body: { ids: [locked], locked: true } })
    await created(t, admin, '/crm/sea/rule', { poolId: poolSales, level: 1, returnCondition: 1, days: 30, exemptDealt: true, exemptLocked: true, available: true })
    await config({ remindDays: 3 })

    await travel(28)
    const remind = await t.call<{ id: string; returnDate: string }[]>('GET', '/crm/customer/queryReturnRemind', { token: owner1.token })
    expect(remind.body.data.map((r) => r.id).sort()).toEqual([followed, quiet].sort())
    await created(t, owner1.token, '/crm/action/createAction', { customerId: followed, actionType: 1, content: '电话沟通，客户有意向' })

    // Before the day nothing moves, but the owner finds the reminder in the bell (and nobody else does).
    const early = await t.call<{ total: number; reminded: number }>('POST', '/crm/sea/return', { token: admin })
    expect(early.body.data).toMatchObject({ total: 0, reminded: 1 })
    const bell = async (token: string) =>
      (await t.call<{ datas: { id: string; title: string }[] }>('GET', '/system/notice/query/my', { token })).body.data.datas.map((n) => n.title)
    expect(await bell(owner1.token)).toContain('您有1个客户即将被收回公海')
    expect(await bell(a.token)).not.toContain('您有1个客户即将被收回公海')
    // and a 待办 that opens 我的客户, for the owner only
    const todos = async (token: string) =>
      (await t.call<{ datas: { title: string; jumpUrl: string }[] }>('GET', '/system/todo/query/my', { token })).body.data.datas.filter((x) => x.title.includes('收回公海'))
    expect(await todos(owner1.token)).toEqual([expect.objectContaining({ title: '您有1个客户即将被收回公海', jumpUrl: '/crm/customer' })])
    expect(await todos(a.token)).toEqual([])
    // Personal notices stay out of the publishers' notice list.
    const published = await t.call<{ datas: { title: string }[] }>('GET', '/system/notice/query', { token: admin })
    expect(published.body.data.datas.map((n) => n.title)).not.toContain('您有1个客户即将被收回公海')
    // Running again the same day sends no second notice.
    await t.call('POST', '/crm/sea/return', { token: admin })
    expect((await bell(owner1.token)).filter((x) => x === '您有1个客户即将被收回公海')).toHaveLength(1)
    await travel(31)
    const run = await t.call<{ total: number }>('POST', '/crm/sea/return', { token: admin })
    expect(run.body.code, run.raw).toBe(200)
    expect(run.body.data.total).toBe(1)
    expect(await owner(quiet)).toBeNull()
    // nothing due any more: the todo is closed
    expect(await todos(owner1.token)).toEqual([])
    for (const id of [levelB, dealt, locked, followed]) expect(await owner(id)).toBe(owner1.id)
    const h = await history(admin, quiet)
    expect(h[0]).toMatchObject({ changeType: 5, fromOwnerId: owner1.id, reason: '超过30天未跟进，自动回收公海' })
    expect((await sea(owner1.token)).find((r) => r.id === quiet)?.poolId).toBe(poolSales)
    // Running again returns nothing more.
    expect((await t.call<{ total: number }>('POST', '/crm/sea/return', { token: admin })).body.data.total).toBe(0)
    // Only admins (crm:sea-rule:run) may run it.
    expect((await t.call('POST', '/crm/sea/return', { token: owner1.token })).status).toBe(403)
  })

  it('automatic return without a deal (or an opportunity) counts from when the owner received the customer', async () => {
    const owner2 = await salesperson(t, admin, 'seadeal', [sales])
    const open = await crmCustomer(t, owner2.token, '未成交C', { level: 3 })
    const dealt = await crmCustomer(t, owner2.token, '已成交C', { level: 3, dealStatus: 1 })
    const followedOften = await crmCustomer(t, owner2.token, '常跟进未成交C', { level: 3 })
    await created(t, admin, '/crm/sea/rule', { poolId: poolSales, level: 3, returnCondition: 3, days: 60, exemptDealt: true, exemptLocked: true, available: true })
    await created(t, admin, '/crm/sea/rule', { poolId: poolSales, level: 3, returnCondition: 2, days: 90, exemptDealt: true, exemptLocked: true, available: true })
    await travel(59)
    await created(t, owner2.token, '/crm/action/createAction', { customerId: followedOften, actionType: 1, content: '每周回访' })
    await travel(61)
    await t.call('POST', '/crm/sea/return', { token: admin })
    // Following up does not stop the no-deal rule; a dealt customer is exempt.
    expect(await owner(open)).toBeNull()
    expect(await owner(followedOften)).toBeNull()
    expect(await owner(dealt)).toBe(owner2.id)
    expect((await history(admin, open))[0]).toMatchObject({ changeType: 5, reason: '超过60天未成交，自动回收公海' })
    // Claimed again, the count starts afresh.
    expect((await claim(c.token, [open])).body.code).toBe(200)
    await travel(100)
    await t.call('POST', '/crm/sea/return', { token: admin })
    expect(await owner(open)).toBe(c.id)
    await travel(125)
    await t.call('POST', '/crm/sea/return', { token: admin })
    expect(await owner(open)).toBeNull()
    expect(await owner(dealt)).toBe(owner2.id)
  })
})

