import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { userWithMenus } from '../support/access-helpers.js'

interface PayRow {
  id: string
  orderId: string
  payTypeId: string
  payTypeCode: string
  payTypeName: string
  payAmount: string
  text: string | null
}

/** `/selector/paytype/order` (000 §7 Pickers): the agreed payments of an order, following the order's keys and data permission. */
describe('the picker of orders’ agreed payments', () => {
  let t: TestApp
  let admin: string
  let f: TradeFixtures
  let purchaseOrderId: string
  let saleOrderId: string
  let cardId: string

  const created = async (url: string, body: unknown) => {
    const r = await t.call<string>('POST', url, { token: admin, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const page = (token: string, query: Record<string, string | number>) =>
    t.call<{ datas: PayRow[]; totalCount: number }>('GET', '/selector/paytype/order', { token, query })

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin, 'SPO')
    cardId = await created('/basedata/paytype', { code: 'SPOCARD', name: '银行卡', recText: true })
    // Two identical agreed payments stay two rows.
    purchaseOrderId = await created('/purchase/order', {
      scId: f.scA,
      supplierId: f.supplierId,
      products: [{ productId: f.p1, orderNum: 3, taxPrice: '10.00' }],
      payTypes: [
        { id: f.payTypeId, payAmount: '10.00', text: '定金' },
        { id: f.payTypeId, payAmount: '10.00', text: '定金' },
        { id: cardId, payAmount: '10.00', text: '尾款' },
      ],
    })
    saleOrderId = await created('/sale/order', {
      scId: f.scA,
      customerId: f.customerId,
      products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }],
      payTypes: [{ id: cardId, payAmount: '15.00' }],
    })
  })
  afterAll(async () => t?.close())

  it('answers one order’s agreed payments, paged, in the order they were entered, with the pay type’s code and name', async () => {
    const r = await page(admin, { orderId: purchaseOrderId, pageIndex: 1, pageSize: 2 })
    expect(r.body.code, r.raw).toBe(200)
    expect(r.body.data.totalCount).toBe(3)
    expect(r.body.data.datas).toEqual([
      expect.objectContaining({ orderId: purchaseOrderId, payTypeId: f.payTypeId, payTypeCode: 'SPOPT', payTypeName: 'SPO现金', payAmount: '10.00', text: '定金' }),
      expect.objectContaining({ orderId: purchaseOrderId, payTypeId: f.payTypeId, payAmount: '10.00', text: '定金' }),
    ])
    const second = await page(admin, { orderId: purchaseOrderId, pageIndex: 2, pageSize: 2 })
    expect(second.body.data.datas).toEqual([expect.objectContaining({ payTypeId: cardId, payTypeCode: 'SPOCARD', text: '尾款' })])
    const byType = await page(admin, { orderId: purchaseOrderId, payTypeId: cardId })
    expect(byType.body.data.totalCount).toBe(1)
    const sale = await page(admin, { orderId: saleOrderId })
    expect(sale.body.data.datas).toEqual([expect.objectContaining({ orderId: saleOrderId, payTypeId: cardId, payAmount: '15.00' })])
  })

  it('needs the order id, and an unknown order has none', async () => {
    const r = await page(admin, {})
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('订单ID不能为空！')
    const none = await page(admin, { orderId: 'no-such-order' })
    expect(none.body.data).toMatchObject({ totalCount: 0, datas: [] })
  })

  it('loads rows by id in the order asked, and leaves out unknown ids', async () => {
    const all = (await page(admin, { orderId: purchaseOrderId })).body.data.datas
    const r = await t.call<PayRow[]>('POST', '/selector/paytype/order/load', { token: admin, body: [all[2].id, 'missing', all[0].id] })
    expect(r.body.code, r.raw).toBe(200)
    expect(r.body.data.map((x) => x.id)).toEqual([all[2].id, all[0].id])
    expect(r.body.data[0]).toMatchObject({ payTypeCode: 'SPOCARD', payAmount: '10.00' })
    const empty = await t.call('POST', '/selector/paytype/order/load', { token: admin, body: [] })
    expect(empty.status).toBe(400)
  })

  it('follows the order: a purchase clerk sees purchase orders’ payments only, a user without order keys is refused', async () => {
    const clerk = await userWithMenus(t, admin, 'spoclerk', ['purchase:order:query'])
    const own = await page(clerk, { orderId: purchaseOrderId })
    expect(own.body.data.totalCount).toBe(3)
    // A sale order is out of this clerk's keys: it answers like a missing one.
    expect((await page(clerk, { orderId: saleOrderId })).body.data).toMatchObject({ totalCount: 0, datas: [] })
    const saleRows = (await page(admin, { orderId: saleOrderId })).body.data.datas
    const loaded = await t.call<PayRow[]>('POST', '/selector/paytype/order/load', { token: clerk, body: [saleRows[0].id] })
    expect(loaded.body.data).toEqual([])

    const stranger = await userWithMenus(t, admin, 'spostranger', ['base-data:pay-type:query'])
    expect((await page(stranger, { orderId: purchaseOrderId })).status).toBe(403)
  })

  it('follows the order’s data permission: an order outside it has no rows', async () => {
    const clerk = await userWithMenus(t, admin, 'spodp', ['purchase:order:query'])
    expect((await page(clerk, { orderId: purchaseOrderId })).body.data.totalCount).toBe(3)
    // The roles userWithMenus made (codes ACC…): the data permission below narrows both clerks.
    const roles = await t.call<{ datas: { id: string; code: string }[] }>('GET', '/system/role/query', { token: admin, query: { pageSize: 100 } })
    const clerkRoles = roles.body.data.datas.filter((r) => r.code.startsWith('ACC')).map((r) => r.id)
    expect(clerkRoles.length).toBeGreaterThan(0)
    // Only purchase documents created after 2999 (detail 17 = 创建时间, condition 1 = greater than): none.
    const saved = await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: {
        bizIds: clerkRoles,
        bizType: 0,
        permissionType: 2,
        permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 17, conditionType: 1, value: '2999-01-01 00:00:00' }] }]),
      },
    })
    expect(saved.body.code, saved.raw).toBe(200)
    expect((await page(clerk, { orderId: purchaseOrderId })).body.data).toMatchObject({ totalCount: 0, datas: [] })
    const rows = (await page(admin, { orderId: purchaseOrderId })).body.data.datas
    expect((await t.call<PayRow[]>('POST', '/selector/paytype/order/load', { token: clerk, body: [rows[0].id] })).body.data).toEqual([])
    expect((await page(admin, { orderId: purchaseOrderId })).body.data.totalCount).toBe(3)
  })
})
