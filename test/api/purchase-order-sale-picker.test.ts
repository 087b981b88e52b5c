import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { stockClient } from '../support/stock-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'

type Row = Record<string, unknown> & { id: string }
type Page = { datas: Row[]; totalCount: number }

/**
 * The purchase-order picker "for sales too" (000 §7, §9): `GET /purchase/order/saleQuery` answers the
 * picker's rows with its filters (code, warehouse, supplier, buyer, created range, status), approved
 * orders (status 3) unless a status is asked for; the sale order offers it for its 关联采购订单.
 */
describe('purchase-order picker of the sale side (saleQuery)', () => {
  let t: TestApp
  let f: TradeFixtures
  let c: ReturnType<typeof stockClient>
  let token: string
  const ids: Record<string, string> = {}
  const line = (f: TradeFixtures) => [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }]

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'PSQ')
    c = stockClient(t, token)
    const payTypes = [{ id: f.payTypeId, payAmount: '20.00' }]
    const users = await c.ok<Page>('GET', '/system/user/query', undefined, { pageIndex: '1', pageSize: '50' })
    ids.admin = users.datas.find((u) => u.code === '001')!.id
    ids.approvedA = await c.ok<string>('POST', '/purchase/order/approve/pass/direct', { scId: f.scA, supplierId: f.supplierId, purchaserId: ids.admin, products: line(f), payTypes })
    ids.approvedB = await c.ok<string>('POST', '/purchase/order/approve/pass/direct', { scId: f.scB, supplierId: f.codSupplierId, products: line(f), payTypes })
    ids.pending = await c.ok<string>('POST', '/purchase/order', { scId: f.scA, supplierId: f.supplierId, products: line(f), payTypes })
  })
  afterAll(async () => t?.close())

  const query = async (q: Record<string, string> = {}) => (await c.ok<Page>('GET', '/purchase/order/saleQuery', undefined, q)).datas.map((r) => r.id).sort()
  const sorted = (...xs: string[]) => [...xs].sort()

  it('answers approved orders (status 3) when no status is asked for, newest first, with the picker columns', async () => {
    expect(await query()).toEqual(sorted(ids.approvedA, ids.approvedB))
    const page = await c.ok<Page>('GET', '/purchase/order/saleQuery', undefined, { status: '' })
    expect(page.totalCount).toBe(2)
    expect(page.datas[0]).toMatchObject({ id: ids.approvedB, status: 3, scCode: 'PSQSCB', supplierCode: 'PSQS2' })
  })

  it('filters by status, warehouse, supplier, code, buyer and created range', async () => {
    expect(await query({ status: '0' })).toEqual([ids.pending])
    expect(await query({ scId: f.scB })).toEqual([ids.approvedB])
    expect(await query({ scId: f.scA, status: '0' })).toEqual([ids.pending])
    expect(await query({ supplierId: f.supplierId })).toEqual([ids.approvedA])
    const code = String((await c.ok<Row>('GET', '/purchase/order', undefined, { id: ids.approvedA })).code)
    expect(await query({ code: code.slice(-4) })).toEqual([ids.approvedA])
    expect(await query({ purchaserId: ids.admin })).toEqual([ids.approvedA])
    expect(await query({ purchaserId: 'nobody' })).toEqual([])
    expect(await query({ createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2000-01-31 23:59:59' })).toEqual([])
    expect(await query({ createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2999-12-31 23:59:59' })).toEqual(sorted(ids.approvedA, ids.approvedB))
  })

  it('keeps the purchase order a sale order is linked to, and refuses one that does not exist', async () => {
    const body = { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }], payTypes: [{ id: f.payTypeId, payAmount: '15.00' }] }
    const id = await c.ok<string>('POST', '/sale/order', { ...body, purchaseOrderId: ids.approvedA })
    expect(await c.ok<Row>('GET', '/sale/order', undefined, { id })).toMatchObject({ purchaseOrderId: ids.approvedA })
    const before = (await c.ok<Page>('GET', '/sale/order/query')).totalCount
    const missing = await c.call('POST', '/sale/order', { ...body, purchaseOrderId: 'no-such-order' })
    expect(missing.body.msg).toBe('关联采购订单不存在')
    expect((await c.ok<Page>('GET', '/sale/order/query')).totalCount).toBe(before)
  })

  it('answers the sale order clerk, whose form offers it, and refuses a clerk whose screens do not', async () => {
    const seller = await userWithMenus(t, token, 'psqseller', ['sale:order:add'])
    const r = await t.call<Page>('GET', '/purchase/order/saleQuery', { token: seller })
    expect(r.body.msg).toBe('操作成功！')
    expect(r.body.data.datas.map((x) => x.id).sort()).toEqual(sorted(ids.approvedA, ids.approvedB))
    const returns = await userWithMenus(t, token, 'psqreturns', ['sale:return:add'])
    const refused = await t.call('GET', '/purchase/order/saleQuery', { token: returns })
    expect(refused.status).toBe(403)
  })
})
