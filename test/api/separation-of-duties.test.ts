import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { userWithMenus } from '../support/access-helpers.js'

/**
 * Separation of duties (系统参数 approval.separate-duties, off by default): with it on, whoever made a
 * document, a 商机 or a contract may neither pass nor refuse it, nor create and pass it in one step;
 * another person with the approve key may. Nothing changes on a refusal.
 */
describe('separation of duties', () => {
  let t: TestApp
  let admin: string
  let approver: string
  let f: TradeFixtures

  const setRule = async (on: boolean) => {
    const params = await t.call<{ datas: { id: string; pKey: string }[] }>('GET', '/system/parameter/query', { token: admin, query: { pKey: 'approval.separate-duties' } })
    const row = params.body.data.datas.find((p) => p.pKey === 'approval.separate-duties')!
    const saved = await t.call('PUT', '/system/parameter', { token: admin, body: { id: row.id, pKey: row.pKey, pValue: String(on) } })
    expect(saved.body.msg, saved.raw).toBe('操作成功！')
  }
  const order = async () => {
    const r = await t.call<string>('POST', '/purchase/order', { token: admin, body: { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }], payTypes: [{ id: f.payTypeId, payAmount: '20.00' }] } })
    expect(r.body.code, r.raw).toBe(200)
    return r.body.data
  }
  const statusOf = async (id: string) => (await t.call<{ status: number }>('GET', '/purchase/order', { token: admin, query: { id } })).body.data.status

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login('admin')
    f = await createTradeFixtures(t, admin, 'SD')
    approver = await userWithMenus(t, admin, 'sdapprove', ['purchase:order:query', 'purchase:order:approve', 'crm:business:query', 'crm:business:approve'])
  }, 120_000)
  afterAll(async () => t?.close())

  it('is off by default: the maker approves their own order', async () => {
    const id = await order()
    expect((await t.call('PATCH', '/purchase/order/approve/pass', { token: admin, body: { id } })).body.msg).toBe('操作成功！')
    expect(await statusOf(id)).toBe(3)
  })

  it('switched on, refuses the maker passing, refusing or creating-and-passing; another approver may', async () => {
    await setRule(true)
    const id = await order()
    for (const [url, body, message] of [
      ['/purchase/order/approve/pass', { id }, '不允许审核自己创建的采购订单'],
      ['/purchase/order/approve/refuse', { id, refuseReason: '价格不对' }, '不允许审核自己创建的采购订单'],
      ['/purchase/order/approve/pass/batch', { ids: [id] }, '第1个采购订单审核通过失败，失败原因：不允许审核自己创建的采购订单'],
    ] as const) {
      const r = await t.call('PATCH', url, { token: admin, body })
      expect(r.status, url).toBe(400)
      expect(r.body.msg, url).toBe(message)
    }
    expect(await statusOf(id)).toBe(0)
    const before = (await t.call<{ totalCount: number }>('GET', '/purchase/order/query', { token: admin })).body.data.totalCount
    const direct = await t.call('POST', '/purchase/order/approve/pass/direct', { token: admin, body: { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }], payTypes: [{ id: f.payTypeId, payAmount: '10.00' }] } })
    expect(direct.body.msg).toBe('不允许审核自己创建的采购订单')
    expect((await t.call<{ totalCount: number }>('GET', '/purchase/order/query', { token: admin })).body.data.totalCount).toBe(before)
    const passed = await t.call('PATCH', '/purchase/order/approve/pass', { token: approver, body: { id } })
    expect(passed.body.msg, passed.raw).toBe('操作成功！')
    expect(await statusOf(id)).toBe(3)
  })

  it('holds for 商机 too', async () => {
    await setRule(true)
    const created = await t.call<string>('POST', '/crm/business', { token: admin, body: { name: '分权商机', customerId: f.customerId, stage: 1, amount: '100.00', expectedCloseDate: '2030-01-01' } })
    const id = created.body.data
    const own = await t.call('POST', '/crm/business/approve', { token: admin, body: { id } })
    expect(own.body.msg).toBe('不允许审核自己创建的商机')
    const other = await t.call('POST', '/crm/business/approve', { token: approver, body: { id } })
    expect(other.body.msg, other.raw).toBe('操作成功！')
    await setRule(false)
    const again = await t.call<string>('POST', '/crm/business', { token: admin, body: { name: '自审商机', customerId: f.customerId, stage: 1, amount: '1.00', expectedCloseDate: '2030-01-01' } })
    expect((await t.call('POST', '/crm/business/approve', { token: admin, body: { id: again.body.data } })).body.msg).toBe('操作成功！')
  })
})
