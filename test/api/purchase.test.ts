import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

type Doc = { id: string; code: string; status: number; totalNum: number; totalGiftNum: number; totalAmount: string; details: Record<string, unknown>[]; [k: string]: unknown }

describe('purchase documents', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const call = <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, query?: Record<string, string>) =>
    t.call<T>(method, url, { token, body, query })
  const ok = async <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await call<T>(method, url, body, query)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const get = (url: string, id: string) => ok<Doc>('GET', url, undefined, { id })
  const stock = async (productId: string, scId: string) => {
    const page = await ok<{ datas: { productId: string; scId: string; stockNum: number; taxPrice: string; taxAmount: string }[] }>(
      'GET', '/stock/product/query', undefined, { scId, pageSize: '100' })
    return page.datas.find((r) => r.productId === productId)
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
  })
  afterAll(async () => t?.close())

  const order = (extra: Record<string, unknown> = {}) => ({
    scId: f.scA,
    supplierId: f.supplierId,
    expectArriveDate: '2026-12-01',
    description: '首批',
    products: [
      { productId: f.p1, orderNum: 10, taxPrice: '10.10', taxRate: 17 },
      { productId: f.p2, orderNum: 3, taxPrice: '0.1', taxRate: 17 },
      { productId: f.p3, orderNum: 2, taxPrice: '0' },
    ],
    payTypes: [{ id: f.payTypeId, payAmount: '101.30', text: '首付' }],
    ...extra,
  })

  it('creates an order with numbers, exact totals, gifts and agreed payments', async () => {
    const id = await ok<string>('POST', '/purchase/order', order())
    const doc = await get('/purchase/order', id)
    expect(doc.code).toMatch(/^\d{8}\d{10}$/)
    // 10 × 10.10 + 3 × 0.1 = 101.30 exactly; the 0-priced line is a gift.
    expect(doc).toMatchObject({ status: 0, totalNum: 13, totalGiftNum: 2, totalAmount: '101.30', scName: 'F一号仓', supplierName: 'F供应商' })
    expect(doc.details.map((d) => [d.productCode, d.orderNum, d.taxPrice, d.isGift])).toEqual([
      ['FP1', 10, '10.10', false],
      ['FP2', 3, '0.10', false],
      ['FP3', 2, '0.00', true],
    ])
    expect(doc.payTypes).toEqual([expect.objectContaining({ id: f.payTypeId, payAmount: '101.30', text: '首付' })])
    const timeline = await ok<{ bizType: number; content: string }[]>('GET', '/component/timeline/order', undefined, { orderId: id })
    expect(timeline).toEqual([expect.objectContaining({ bizType: 1, content: '创建单据' })])
  })

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const before = (await ok<{ totalCount: number }>('GET', '/purchase/order/query')).totalCount
    const cases: [Record<string, unknown>, string][] = [
      [{ scId: '' }, '仓库不能为空'],
      [{ products: [] }, '采购订单中的商品不能为空！'],
      [{ products: [{ productId: f.p1, orderNum: 0, taxPrice: '1' }] }, '第1行商品采购数量必须大于0'],
      [{ products: [{ productId: f.p1, orderNum: 1, taxPrice: '1.001' }] }, '第1行商品采购价最多允许2位小数！'],
      [{ payTypes: [{ id: f.payTypeId, payAmount: '100' }] }, '所有支付方式的支付金额不等于含税总金额，请检查！'],
      [{ supplierId: 'nope' }, '供应商不存在'],
    ]
    for (const [patch, msg] of cases) {
      const r = await call('POST', '/purchase/order', order(patch))
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe(msg)
    }
    expect((await ok<{ totalCount: number }>('GET', '/purchase/order/query')).totalCount).toBe(before)
  })

  it('walks the approval state machine with guarded transitions', async () => {
    const id = await ok<string>('POST', '/purchase/order', order({ payTypes: [] }))
    expect((await call('PATCH', '/purchase/order/approve/pass', { id })).body.msg).toBe('单据没有约定支付，请检查！')
    expect((await call('PATCH', '/purchase/order/approve/refuse', { id })).body.msg).toBe('拒绝理由不能为空！')
    await ok('PATCH', '/purchase/order/approve/refuse', { id, refuseReason: '价格太高' })
    expect((await get('/purchase/order', id))).toMatchObject({ status: 6, refuseReason: '价格太高' })
    expect((await call('PATCH', '/purchase/order/approve/refuse', { id, refuseReason: 'x' })).body.msg).toBe('采购订单已审核拒绝，不允许继续执行审核！')
    await ok('PUT', '/purchase/order', { ...order(), id })
    expect(await get('/purchase/order', id)).toMatchObject({ status: 0, refuseReason: null })
    await ok('PATCH', '/purchase/order/approve/pass', { id, description: '同意' })
    const passed = await get('/purchase/order', id)
    expect(passed).toMatchObject({ status: 3, approveBy: expect.any(String), description: '同意' })
    expect((await call('PUT', '/purchase/order', { ...order(), id })).body.msg).toBe('采购订单已审核通过，无法修改！')
    expect((await call('DELETE', '/purchase/order', { id })).body.msg).toBe('“审核通过”的采购订单不允许执行删除操作！')
    expect((await call('PATCH', '/purchase/order/approve/pass', { id })).body.msg).toBe('采购订单已审核通过，不允许继续执行审核！')
    await ok('PATCH', '/purchase/order/approve/cancel', { id })
    expect((await get('/purchase/order', id)).status).toBe(0)
    const timeline = await ok<{ bizType: number }[]>('GET', '/component/timeline/order', undefined, { orderId: id })
    expect(timeline.map((e) => e.bizType)).toEqual([6, 4, 2, 5, 1])
    await ok('DELETE', '/purchase/order', { id })
    expect((await call('GET', '/purchase/order', undefined, { id })).status).toBe(404)
    expect(await ok('GET', '/component/timeline/order', undefined, { orderId: id })).toEqual([])
  })

  it('batches are all-or-nothing and name the failing position', async () => {
    const a = await ok<string>('POST', '/purchase/order', order())
    const b = await ok<string>('POST', '/purchase/order', order({ payTypes: [] }))
    const r = await call('PATCH', '/purchase/order/approve/pass/batch', { ids: [a, b] })
    expect(r.body.msg).toBe('第2个采购订单审核通过失败，失败原因：单据没有约定支付，请检查！')
    expect((await get('/purchase/order', a)).status).toBe(0)
    await ok('DELETE', '/purchase/order/batch', [a, b])
    expect((await call('GET', '/purchase/order', undefined, { id: a })).status).toBe(404)
  })

  it('receives against an order at the order price, averages cost, and moves the order to 9 then 12', async () => {
    const orderId = await ok<string>('POST', '/purchase/order/approve/pass/direct', order())
    const po = await get('/purchase/order', orderId)
    expect(po.status).toBe(3)
    const [l1, l2, l3] = po.details as { id: string; productId: string }[]
    // Price comes from the order line, whatever the client sends.
    const first = await ok<string>('POST', '/purchase/receive/sheet', {
      purchaseOrderId: orderId,
      receiveDate: '2026-11-22',
      products: [
        { productId: f.p1, orderNum: 4, taxPrice: '99', purchaseOrderDetailId: l1.id },
        { productId: f.p3, orderNum: 2, taxPrice: '0', purchaseOrderDetailId: l3.id },
      ],
    })
    const sheet = await get('/purchase/receive/sheet', first)
    expect(sheet).toMatchObject({ scId: f.scA, supplierId: f.supplierId, totalAmount: '40.40', settleStatus: 0 })
    // The supplier's agreed payment date, as the receive-sheet page asks for it.
    const agreed = await ok<{ paymentDate: string }>('GET', '/purchase/receive/sheet/paymentdate', undefined, { supplierId: f.supplierId })
    expect(agreed.paymentDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(sheet.paymentDate).toBe(agreed.paymentDate)
    // Over-receipt is refused with the remainder.
    const over = await call('POST', '/purchase/receive/sheet', {
      purchaseOrderId: orderId,
      products: [{ productId: f.p1, orderNum: 7, purchaseOrderDetailId: l1.id }],
    })
    expect(over.body.msg).toBe('（FP1）F商品P1剩余收货数量为6个，本次收货数量不允许大于6个！')
    // An unlinked line must be a gift.
    const notGift = await call('POST', '/purchase/receive/sheet', { purchaseOrderId: orderId, products: [{ productId: f.p2, orderNum: 1, taxPrice: '3' }] })
    expect(notGift.body.msg).toBe('第1行商品必须为“赠品”！')

    await ok('PATCH', '/purchase/receive/sheet/approve/pass', { id: first })
    expect((await get('/purchase/order', orderId)).status).toBe(9)
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 4, taxPrice: '10.100000', taxAmount: '40.40' })

    const second = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', {
      purchaseOrderId: orderId,
      products: [
        { productId: f.p1, orderNum: 6, purchaseOrderDetailId: l1.id },
        { productId: f.p2, orderNum: 3, purchaseOrderDetailId: l2.id },
      ],
    })
    expect((await get('/purchase/receive/sheet', second)).status).toBe(3)
    expect((await get('/purchase/order', orderId)).status).toBe(12)
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 10, taxPrice: '10.100000', taxAmount: '101.00' })
    // Gifts come in at 0 and lower the average: 2 units of P3 at 0.
    expect(await stock(f.p3, f.scA)).toMatchObject({ stockNum: 2, taxPrice: '0.000000', taxAmount: '0.00' })
  })

  it('returns goods at the purchase price against a receipt', async () => {
    const orderId = await ok<string>('POST', '/purchase/order/approve/pass/direct', order({
      products: [{ productId: f.p2, orderNum: 10, taxPrice: '20.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: '200.00' }],
    }))
    const line = (await get('/purchase/order', orderId)).details[0] as { id: string }
    const receiveId = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', {
      purchaseOrderId: orderId,
      products: [{ productId: f.p2, orderNum: 10, purchaseOrderDetailId: line.id }],
    })
    // P2 in scA: 3 at 0.10 then 10 at 20.00 → 200.30 / 13.
    expect(await stock(f.p2, f.scA)).toMatchObject({ stockNum: 13, taxPrice: '15.407692', taxAmount: '200.30' })
    const rline = (await get('/purchase/receive/sheet', receiveId)).details[0] as { id: string }
    const loader = await ok<Doc>('GET', '/purchase/receive/sheet/return', undefined, { id: receiveId })
    expect(loader.details).toHaveLength(1)
    const retId = await ok<string>('POST', '/purchase/return/approve/pass/direct', {
      receiveSheetId: receiveId,
      products: [{ productId: f.p2, orderNum: 4, receiveSheetDetailId: rline.id }],
    })
    expect(await get('/purchase/return', retId)).toMatchObject({ status: 3, totalAmount: '80.00', scId: f.scA })
    // Out at the purchase price 4 × 20.00: 200.30 − 80.00 = 120.30 over 9.
    expect(await stock(f.p2, f.scA)).toMatchObject({ stockNum: 9, taxPrice: '13.366667', taxAmount: '120.30' })
    const over = await call('POST', '/purchase/return', { receiveSheetId: receiveId, products: [{ productId: f.p2, orderNum: 7, receiveSheetDetailId: rline.id }] })
    expect(over.body.msg).toBe('（FP2）F商品P2剩余退货数量为6个，本次退货数量不允许大于6个！')
  })

  it('keeps purchase configuration and follows it', async () => {
    const cfg = await ok<Record<string, boolean>>('GET', '/purchase/config')
    expect(cfg).toMatchObject({ receiveRequirePurchase: true, receiveMultipleRelatePurchase: true })
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
    const id = await ok<string>('POST', '/purchase/receive/sheet', {
      scId: f.scB, supplierId: f.codSupplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '8.00' }],
    })
    const sheet = await get('/purchase/receive/sheet', id)
    expect(sheet).toMatchObject({ purchaseOrderId: null, totalAmount: '8.00' })
    // 货到付款: payment date is today and cannot be changed.
    const terms = await ok<{ allowModify: boolean; paymentDate: string }>('GET', '/purchase/receive/sheet/paymentdate', undefined, { supplierId: f.codSupplierId })
    expect(terms).toEqual({ allowModify: false, paymentDate: dayjs().format('YYYY-MM-DD') })
    expect(sheet.paymentDate).toBe(terms.paymentDate)
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: true })
  })
})
