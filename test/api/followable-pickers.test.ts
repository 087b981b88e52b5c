import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

type Doc = { id: string; status: number; details: { id: string; productId: string }[] }
type Page = { datas: { id: string; code: string }[]; totalCount: number }

/**
 * The picker of a document other documents follow (receive sheet ← 采购订单, sale out ← 销售订单,
 * returns ← out sheets) offers only sources something can still be taken from: in a status the
 * follower accepts and with a line not yet fully received / shipped / returned. Loading a chosen id
 * (labels of saved values) still answers any row.
 */
describe('pickers of followed documents offer only open sources', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const call = <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) =>
    t.call<T>(method, url, { token, body, query })
  const ok = async <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await call<T>(method, url, body, query)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const get = (url: string, id: string) => ok<Doc>('GET', url, undefined, { id })
  const offered = async (kind: string) => (await ok<Page>('GET', `/selector/${kind}`, undefined, { pageIndex: '1', pageSize: '100' })).datas.map((r) => r.id)
  const purchaseOrder = (num: number, approve = true) =>
    ok<string>('POST', approve ? '/purchase/order/approve/pass/direct' : '/purchase/order', {
      scId: f.scA,
      supplierId: f.supplierId,
      products: [{ productId: f.p1, orderNum: num, taxPrice: '10.00' }, { productId: f.p2, orderNum: num, taxPrice: '20.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: String(num * 30) + '.00' }],
    })
  const receive = async (orderId: string, take: (orderNum: number) => number) => {
    const lines = (await get('/purchase/order', orderId)).details as { id: string; productId: string; orderNum: number }[]
    return ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', {
      purchaseOrderId: orderId,
      products: lines.map((l) => ({ productId: l.productId, orderNum: take(l.orderNum), purchaseOrderDetailId: l.id })),
    })
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'FP')
  })
  afterAll(async () => t?.close())

  it('the receive sheet’s 采购订单 picker: approved or partly received orders, not pending, refused or fully received ones', async () => {
    const untouched = await purchaseOrder(2)
    const partly = await purchaseOrder(3)
    const full = await purchaseOrder(4)
    const pending = await purchaseOrder(5, false)
    await receive(partly, () => 1)
    await receive(full, (n) => n)
    expect((await get('/purchase/order', full)).status).not.toBe(3)
    const ids = await offered('purchaseorder')
    expect(ids).toContain(untouched)
    expect(ids).toContain(partly)
    expect(ids).not.toContain(full)
    expect(ids).not.toContain(pending)
    // A saved receipt still shows its (now fully received) order's label.
    const loaded = await ok<{ id: string }[]>('POST', '/selector/purchaseorder/load', [full])
    expect(loaded.map((r) => r.id)).toEqual([full])
  })

  it('the purchase return’s 采购收货单 picker leaves out receipts returned in full', async () => {
    const orderId = await purchaseOrder(2)
    const kept = await receive(orderId, () => 1)
    const returned = await receive(orderId, () => 1)
    const lines = (await get('/purchase/receive/sheet', returned)).details
    expect(await offered('receivesheet')).toEqual(expect.arrayContaining([kept, returned]))
    await ok('POST', '/purchase/return/approve/pass/direct', {
      receiveSheetId: returned,
      products: lines.map((l) => ({ productId: l.productId, orderNum: 1, receiveSheetDetailId: l.id })),
    })
    const ids = await offered('receivesheet')
    expect(ids).toContain(kept)
    expect(ids).not.toContain(returned)
  })

  it('the sale out sheet’s 销售订单 picker leaves out orders shipped in full (their status stays 审核通过)', async () => {
    await receive(await purchaseOrder(10), (n) => n)
    await ok('PUT', '/sale/config', { outStockRequireSale: true, outStockMultipleRelateSale: true })
    const order = () =>
      ok<string>('POST', '/sale/order/approve/pass/direct', {
        scId: f.scA,
        customerId: f.customerId,
        products: [{ productId: f.p1, orderNum: 2, taxPrice: '15.00' }],
        payTypes: [{ id: f.payTypeId, payAmount: '30.00' }],
      })
    const open = await order()
    const shipped = await order()
    const line = (await get('/sale/order', shipped)).details[0]
    const outId = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', {
      saleOrderId: shipped,
      products: [{ productId: f.p1, orderNum: 2, saleOrderDetailId: line.id }],
    })
    expect((await get('/sale/order', shipped)).status).toBe(3)
    const ids = await offered('saleorder')
    expect(ids).toContain(open)
    expect(ids).not.toContain(shipped)

    // And the sale return's out-sheet picker: offered until everything came back.
    expect(await offered('saleout')).toContain(outId)
    await ok('PUT', '/sale/config', { saleReturnRequireOutStock: true, saleReturnMultipleRelateOutStock: true })
    const outLine = (await get('/sale/out/sheet', outId)).details[0]
    await ok('POST', '/sale/return/approve/pass/direct', { outSheetId: outId, products: [{ productId: f.p1, orderNum: 2, outSheetDetailId: outLine.id }] })
    expect(await offered('saleout')).not.toContain(outId)
  })
})
