import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

type Doc = { id: string; status: number; details: { id: string; productId: string }[]; [k: string]: unknown }
type Page = { datas: { id: string }[]; totalCount: number }

/**
 * Returns made from a receipt or an out sheet start at 0 (`follows.startQuantity: "zero"`): a return
 * saved or approved untouched has every quantity at 0 and is refused with the declared message,
 * writing nothing; one typed line among zeros is what gets returned.
 */
describe('return quantities start at zero', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const call = <T = unknown>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) =>
    t.call<T>(method, url, { token, body, query })
  const ok = async <T = unknown>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await call<T>(method, url, body, query)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const get = (url: string, id: string) => ok<Doc>('GET', url, undefined, { id })
  const count = async (url: string) => (await ok<Page>('GET', url, undefined, { pageSize: '100' })).totalCount
  const stock = async (productId: string) =>
    (await ok<{ datas: { productId: string; stockNum: number }[] }>('GET', '/stock/product/query', undefined, { scId: f.scA, pageSize: '100' })).datas.find(
      (r) => r.productId === productId,
    )?.stockNum

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'Z')
  })
  afterAll(async () => t?.close())

  it('refuses a purchase return whose quantities are all 0 and returns only the typed line', async () => {
    const orderId = await ok<string>('POST', '/purchase/order/approve/pass/direct', {
      scId: f.scA, supplierId: f.supplierId,
      products: [{ productId: f.p1, orderNum: 5, taxPrice: '10.00' }, { productId: f.p2, orderNum: 4, taxPrice: '2.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: '58.00' }],
    })
    const orderLines = (await get('/purchase/order', orderId)).details
    const receiveId = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', {
      purchaseOrderId: orderId,
      products: orderLines.map((l) => ({ productId: l.productId, orderNum: l.productId === f.p1 ? 5 : 4, purchaseOrderDetailId: l.id })),
    })
    const lines = (await get('/purchase/receive/sheet', receiveId)).details
    const untouched = lines.map((l) => ({ productId: l.productId, orderNum: 0, receiveSheetDetailId: l.id }))
    const before = { returns: await count('/purchase/return/query'), p1: await stock(f.p1), p2: await stock(f.p2) }
    for (const url of ['/purchase/return', '/purchase/return/approve/pass/direct']) {
      const r = await call('POST', url, { receiveSheetId: receiveId, products: untouched })
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe('退货数量不能全部为0，请填写要退货的数量！')
    }
    expect({ returns: await count('/purchase/return/query'), p1: await stock(f.p1), p2: await stock(f.p2) }).toEqual(before)

    // A zero line beside a typed one is still a line the server refuses: the page leaves zero lines out.
    const mixed = await call('POST', '/purchase/return', { receiveSheetId: receiveId, products: [{ ...untouched[0], orderNum: 2 }, untouched[1]] })
    expect(mixed.body.msg).toBe('第2行商品退货数量必须大于0')
    const retId = await ok<string>('POST', '/purchase/return/approve/pass/direct', { receiveSheetId: receiveId, products: [{ ...untouched[0], orderNum: 2 }] })
    expect((await get('/purchase/return', retId)).details).toHaveLength(1)
    expect(await stock(untouched[0].productId)).toBe((untouched[0].productId === f.p1 ? before.p1 : before.p2)! - 2)
  })

  it('refuses a sale return whose quantities are all 0', async () => {
    const outId = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', {
      scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '20.00' }],
    })
    const line = (await get('/sale/out/sheet', outId)).details[0]
    const before = await count('/sale/return/query')
    const r = await call('POST', '/sale/return', { outSheetId: outId, products: [{ productId: f.p1, orderNum: 0, outSheetDetailId: line.id }] })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('退货数量不能全部为0，请填写要退货的数量！')
    expect(await count('/sale/return/query')).toBe(before)
  })
})
