import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

type Config = Record<string, unknown>

/**
 * The day counts of 采购参数设置 / 销售参数设置 a new document's dates start from (`defaultDays` on the
 * date fields): stored and refused as settings are; 付款天数 is also what a party whose settle type
 * is 任意指定 proposes (today + 1 month while it is blank), so the page's default and the party's terms agree.
 */
describe('day counts in the purchase and sale settings', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const call = <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, query?: Record<string, string>) =>
    t.call<T>(method, url, { token, body, query })
  const ok = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await call<T>(method, url, body, query)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const day = (n: number) => dayjs().add(n, 'day').format('YYYY-MM-DD')
  const month = () => dayjs().add(1, 'month').format('YYYY-MM-DD')

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'DC')
  })
  afterAll(async () => t?.close())

  it('a new tenant’s settings hold the day counts (付款天数 blank) and refuse a negative one, changing nothing', async () => {
    expect(await ok<Config>('GET', '/purchase/config')).toMatchObject({ expectArriveDays: 7, receiveDays: 0, paymentDays: null })
    expect(await ok<Config>('GET', '/sale/config')).toMatchObject({ paymentDays: null })
    const before = await ok<Config>('GET', '/purchase/config')
    const bad = await call('PUT', '/purchase/config', { ...before, expectArriveDays: -1 })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toContain('预计到货天数')
    expect(await ok<Config>('GET', '/purchase/config')).toEqual(before)
  })

  it('付款天数 is what 任意指定 suppliers and customers propose; blank: one month', async () => {
    const terms = () => ok<{ paymentDate: string }>('GET', '/purchase/receive/sheet/paymentdate', undefined, { supplierId: f.supplierId })
    expect((await terms()).paymentDate).toBe(month())
    await ok('PUT', '/purchase/config', { paymentDays: 10 })
    expect((await terms()).paymentDate).toBe(day(10))
    const orderId = await ok<string>('POST', '/purchase/order/approve/pass/direct', {
      scId: f.scA, supplierId: f.supplierId,
      products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: '20.00' }],
    })
    const line = (await ok<{ details: { id: string }[] }>('GET', '/purchase/order', undefined, { id: orderId })).details[0]
    const receiveId = await ok<string>('POST', '/purchase/receive/sheet', {
      purchaseOrderId: orderId, products: [{ productId: f.p1, orderNum: 2, purchaseOrderDetailId: line.id }],
    })
    expect((await ok<Config>('GET', '/purchase/receive/sheet', undefined, { id: receiveId })).paymentDate).toBe(day(10))
    // 货到付款 stays today whatever the count.
    expect((await ok<{ paymentDate: string }>('GET', '/purchase/receive/sheet/paymentdate', undefined, { supplierId: f.codSupplierId })).paymentDate).toBe(
      dayjs().format('YYYY-MM-DD'),
    )

    await ok('PUT', '/sale/config', { paymentDays: 5 })
    const outId = await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }] })
    expect((await ok<Config>('GET', '/sale/out/sheet', undefined, { id: outId })).paymentDate).toBe(day(5))
    await ok('PUT', '/sale/config', { paymentDays: null })
    const second = await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }] })
    expect((await ok<Config>('GET', '/sale/out/sheet', undefined, { id: second })).paymentDate).toBe(month())
  })
})
