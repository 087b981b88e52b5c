import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

/**
 * Saved data permissions of the order model (DATA_PERMISSION_TYPE 2) narrow every document list and
 * detail; the product model narrows the product picker and the stock query too.
 */
describe('data permission on documents, the product picker and stock', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let roleId: string
  let f: TradeFixtures
  let orderId: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
    const created = async (url: string, body: unknown) => {
      const r = await t.call<string>('POST', url, { token: admin, body })
      if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
      return r.body.data
    }
    orderId = await created('/purchase/order/approve/pass/direct', {
      scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }], payTypes: [{ id: f.payTypeId, payAmount: '20.00' }],
    })
    await t.call('PUT', '/purchase/config', { token: admin, body: { receiveRequirePurchase: false } })
    await created('/purchase/receive/sheet/approve/pass/direct', { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 5, taxPrice: '10.00' }, { productId: f.p2, orderNum: 5, taxPrice: '20.00' }] })
    const userId = await created('/system/user', { code: 'dp02', name: '单据限权', username: 'dp02user', password: 'secret123', gender: 0, available: true })
    roleId = await created('/system/role', { code: 'DPO', name: '限单据', available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const wanted = ['purchase:order:query', 'stock:product:query', 'base-data:product:info:query', 'base-data:product:query', 'stock:adjust:query', 'settle:fee-sheet:query']
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: menus.body.data.filter((m) => wanted.includes(m.permission ?? '')).map((m) => m.id) } })
    clerk = await t.login('dp02user', 'secret123')
  })
  afterAll(async () => t?.close())

  const save = (permissionType: number, children: unknown[]) =>
    t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [roleId], bizType: 0, permissionType, permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children }]) },
    })
  const orders = async () => (await t.call<{ datas: { id: string }[] }>('GET', '/purchase/order/query', { token: clerk })).body.data.datas.map((d) => d.id)

  it('narrows the purchase order list and detail by creation time', async () => {
    expect(await orders()).toEqual([orderId])
    // detail 17 = 创建时间; condition 1 = greater than.
    expect((await save(2, [{ nodeType: 2, detailId: 17, conditionType: 1, value: '2999-01-01 00:00:00' }])).body.code).toBe(200)
    expect(await orders()).toEqual([])
    expect((await t.call('GET', '/purchase/order', { token: clerk, query: { id: orderId } })).status).toBe(404)
    expect((await t.call('GET', '/purchase/order', { token: admin, query: { id: orderId } })).status).toBe(200)
    await save(2, [{ nodeType: 2, detailId: 17, conditionType: 3, value: '2999-01-01 00:00:00' }])
    expect(await orders()).toEqual([orderId])
  })

  it('narrows documents by their party (往来单位); documents without a party are not narrowed by it', async () => {
    const otherSupplier = await t.call<string>('POST', '/basedata/supplier', { token: admin, body: { code: 'DPS2', name: '另一供应商', mnemonicCode: 'LY', settleType: 1, manageType: 1 } })
    const item = await t.call<string>('POST', '/settle/item/out', { token: admin, body: { code: 'DPO1', name: '运费' } })
    const fee = async (supplierId: string) =>
      (await t.call<string>('POST', '/settle/feesheet', { token: admin, body: { supplierId, sheetType: 2, products: [{ itemId: item.body.data, amount: '1.00' }] } })).body.data
    const mine = await fee(f.supplierId)
    const theirs = await fee(otherSupplier.body.data)
    const reason = await t.call<string>('POST', '/stock/adjust/reason', { token: admin, body: { code: 'DPR', name: '损溢' } })
    const adjust = (await t.call<string>('POST', '/stock/adjust', { token: admin, body: { scId: f.scA, bizType: 0, reasonId: reason.body.data, products: [{ productId: f.p1, stockNum: 1 }] } })).body.data
    const ids = async (url: string) => (await t.call<{ datas: { id: string }[] }>('GET', url, { token: clerk })).body.data.datas.map((d) => d.id).sort()
    // detail 18 = 往来单位编号; condition 0 = equals.
    expect((await save(2, [{ nodeType: 2, detailId: 18, conditionType: 0, value: 'FS1' }])).body.code).toBe(200)
    expect(await ids('/settle/feesheet/query')).toEqual([mine])
    expect(await orders()).toEqual([orderId])
    expect((await t.call('GET', '/settle/feesheet', { token: clerk, query: { id: theirs } })).status).toBe(404)
    expect(await ids('/stock/adjust/query')).toEqual([adjust])
    // 往来单位名称 contains: the other supplier only.
    await save(2, [{ nodeType: 2, detailId: 19, conditionType: 10, value: '另一' }])
    expect(await ids('/settle/feesheet/query')).toEqual([theirs])
    expect(await orders()).toEqual([])
    await save(2, [])
  })

  it('narrows the product picker and the stock query by product code', async () => {
    const picked = async () => (await t.call<{ datas: { code: string }[] }>('GET', '/selector/product', { token: clerk, query: { pageSize: 50 } })).body.data.datas.map((d) => d.code).sort()
    const stocked = async () => (await t.call<{ datas: { productCode: string }[] }>('GET', '/stock/product/query', { token: clerk, query: { scId: f.scA } })).body.data.datas.map((d) => d.productCode).sort()
    expect(await picked()).toEqual(['FK1', 'FP1', 'FP2', 'FP3'])
    expect(await stocked()).toEqual(['FP1', 'FP2'])
    // detail 1 = product code; condition 0 = equals.
    await save(1, [{ nodeType: 2, detailId: 1, conditionType: 0, value: 'FP2' }])
    expect(await picked()).toEqual(['FP2'])
    expect(await stocked()).toEqual(['FP2'])
  })
})
