import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { userWithMenus } from '../support/access-helpers.js'

interface Todo {
  id: string
  title: string
  createTime: string
  jumpUrl: string
  readed: boolean
}

/**
 * 待办 (spec 000 §3 Todo): rows the engine writes for real events, listed by `GET /system/todo/query/my`
 * and marked read by `PATCH /system/todo/read`. The customer about to return to the sea is in
 * crm-public-sea.test.ts beside its reminder notice.
 */
describe('todos', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let f: TradeFixtures
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
    clerk = await userWithMenus(t, admin, 'todoclerk', ['purchase:order:query', 'purchase:order:add', 'purchase:order:modify'])
  })
  afterAll(async () => t?.close())

  const mine = async (token: string, readed?: boolean) => {
    const r = await t.call<{ totalCount: number; datas: Todo[] }>('GET', '/system/todo/query/my', { token, query: { readed } })
    expect(r.status, r.raw).toBe(200)
    return r.body.data
  }
  const order = () => ({
    scId: f.scA,
    supplierId: f.supplierId,
    expectArriveDate: '2026-12-01',
    products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00', taxRate: 13 }],
    payTypes: [{ id: f.payTypeId, payAmount: '20.00', text: '首付' }],
  })

  it('a document waiting for approval is a todo of who may approve it (not its author), closed by the approval', async () => {
    const created = await t.call<string>('POST', '/purchase/order', { token: clerk, body: order() })
    expect(created.status, created.raw).toBe(200)
    const id = created.body.data
    const code = (await t.call<{ code: string }>('GET', '/purchase/order', { token: admin, query: { id } })).body.data.code
    const todos = (await mine(admin)).datas.filter((x) => x.jumpUrl.includes(id))
    expect(todos).toHaveLength(1)
    expect(todos[0]).toMatchObject({ title: `采购订单待审核，单号：${code}`, jumpUrl: `/purchase/order/approve/${id}`, readed: false })
    expect(todos[0].createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect((await mine(clerk)).totalCount).toBe(0)

    // a modify refreshes it, never duplicates it
    const modified = await t.call('PUT', '/purchase/order', { token: clerk, body: { ...order(), id } })
    expect(modified.status, modified.raw).toBe(200)
    expect((await mine(admin)).datas.filter((x) => x.jumpUrl.includes(id))).toHaveLength(1)

    // the author cannot mark another's todo; the owner can, and it then counts as read
    const foreign = await t.call('PATCH', '/system/todo/read', { token: clerk, query: { id: todos[0].id } })
    expect(foreign.status).toBe(404)
    expect(foreign.body.msg).toBe('待办不存在！')
    expect((await mine(admin, false)).datas.map((x) => x.id)).toContain(todos[0].id)
    expect((await t.call('PATCH', '/system/todo/read', { token: admin, query: { id: todos[0].id } })).status).toBe(200)
    expect((await mine(admin, false)).datas.map((x) => x.id)).not.toContain(todos[0].id)
    expect((await mine(admin, true)).datas.find((x) => x.id === todos[0].id)).toMatchObject({ readed: true })

    const approved = await t.call('PATCH', '/purchase/order/approve/pass', { token: admin, body: { id } })
    expect(approved.status, approved.raw).toBe(200)
    expect((await mine(admin)).datas.filter((x) => x.jumpUrl.includes(id))).toHaveLength(0)
  })

  it('a refused or deleted document leaves no todo behind', async () => {
    const refusedId = (await t.call<string>('POST', '/purchase/order', { token: clerk, body: order() })).body.data
    const deletedId = (await t.call<string>('POST', '/purchase/order', { token: clerk, body: order() })).body.data
    expect((await mine(admin)).datas.filter((x) => x.jumpUrl.includes(refusedId) || x.jumpUrl.includes(deletedId))).toHaveLength(2)
    expect((await t.call('PATCH', '/purchase/order/approve/refuse', { token: admin, body: { id: refusedId, refuseReason: '价格不对' } })).status).toBe(200)
    expect((await t.call('DELETE', '/purchase/order', { token: admin, body: { id: deletedId } })).status).toBe(200)
    expect((await mine(admin)).datas.filter((x) => x.jumpUrl.includes(refusedId) || x.jumpUrl.includes(deletedId))).toHaveLength(0)
  })

  it('a failed job run is a todo of who manages the timers, opening 定时器管理', async () => {
    const job = await t.call<string>('POST', '/qrtz', { token: admin, body: { name: '对账脚本', jobType: 2, cron: '0 0 0 * * ?', script: 'throw new Error("对账失败")' } })
    expect(job.status, job.raw).toBe(200)
    const run = await t.call<{ status: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: job.body.data } })
    expect(run.body.data.status).toBe('ERROR')
    expect((await mine(admin)).datas.filter((x) => x.title === '定时器【对账脚本】执行失败')).toEqual([
      expect.objectContaining({ jumpUrl: '/development/qrtz', readed: false }),
    ])
    expect((await mine(clerk)).datas.some((x) => x.title.includes('对账脚本'))).toBe(false)
  })

  it('refuses a readed value that is no flag', async () => {
    const r = await t.call('GET', '/system/todo/query/my', { token: admin, query: { readed: 'maybe' } })
    expect(r.status).toBe(400)
  })
})
