import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers, type Doc } from '../support/sale-helpers.js'

describe('sale documents', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const { call, ok, get, stock, log, stockIn, db } = saleHelpers(() => t, () => token)
  let orderId: string
  let firstOut: string

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
    // P1: 10 at 10.00 then 5 at 11.00 → 15 worth 155.00; P2: 10 at 20.00.
    await stockIn(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: 10, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 10, taxPrice: '20.00' },
    ])
    await stockIn(f.scA, f.supplierId, [{ productId: f.p1, orderNum: 5, taxPrice: '11.00' }])
  })
  afterAll(async () => t?.close())

  it('keeps the sale configuration, all off at first', async () => {
    expect(await ok('GET', '/sale/config')).toMatchObject({
      outStockRequireSale: false, outStockMultipleRelateSale: false, saleReturnRequireOutStock: false,
      saleReturnMultipleRelateOutStock: false, outStockRequireLogistics: false,
    })
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 15, taxAmount: '155.00' })
  })

  it('creates a sale order with original price, discount, gifts and agreed payments', async () => {
    orderId = await ok<string>('POST', '/sale/order', {
      scId: f.scA,
      customerId: f.customerId,
      products: [
        { productId: f.p1, orderNum: 6, oriPrice: '15.00', discountRate: '90', taxPrice: '13.50', taxRate: 17 },
        { productId: f.p2, orderNum: 2, taxPrice: '30' },
        { productId: f.p3, orderNum: 1, taxPrice: '0' },
      ],
      payTypes: [{ id: f.payTypeId, payAmount: '141.00' }],
    })
    const order = await get('/sale/order', orderId)
    expect(order).toMatchObject({ status: 0, totalNum: 8, totalGiftNum: 1, totalAmount: '141.00', customerName: 'F客户' })
    expect(order.details.map((d) => [d.productCode, d.orderNum, d.oriPrice, d.discountRate, d.taxPrice, d.isGift, d.outNum])).toEqual([
      ['FP1', 6, '15.00', '90.00', '13.50', false, 0],
      ['FP2', 2, '30.00', '100.00', '30.00', false, 0],
      ['FP3', 1, '0.00', '100.00', '0.00', true, 0],
    ])
    expect(order.payTypes).toEqual([expect.objectContaining({ id: f.payTypeId, payAmount: '141.00' })])
    const wrong = await call('POST', '/sale/order', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '2' }], payTypes: [{ id: f.payTypeId, payAmount: '1' }] })
    expect(wrong.body.msg).toBe('所有支付方式的支付金额不等于含税总金额，请检查！')
    await ok('PATCH', '/sale/order/approve/pass', { id: orderId })
    expect((await get('/sale/order', orderId)).status).toBe(3)
    const last = await ok<Doc>('GET', '/sale/order/getCustomerLast', undefined, { customerId: f.customerId })
    expect(last.id).toBe(orderId)
  })

  it('ships against the order at the order prices, reserves outNum and refuses over-shipping', async () => {
    await ok('PUT', '/sale/config', { outStockRequireSale: true, outStockMultipleRelateSale: true })
    const [l1, l2, l3] = (await get('/sale/order', orderId)).details as { id: string }[]
    firstOut = await ok<string>('POST', '/sale/out/sheet', {
      saleOrderId: orderId,
      scId: f.scB,
      products: [
        { productId: f.p1, orderNum: 4, taxPrice: '99', saleOrderDetailId: l1.id },
        { productId: f.p2, orderNum: 2, saleOrderDetailId: l2.id },
      ],
    })
    const out = await get('/sale/out/sheet', firstOut)
    // Warehouse, customer and prices come from the order; customers are always settled (0).
    expect(out).toMatchObject({ scId: f.scA, customerId: f.customerId, totalNum: 6, totalAmount: '114.00', settleStatus: 0, status: 0 })
    expect(out.paymentDate).toBe(dayjs().add(1, 'month').format('YYYY-MM-DD'))
    expect(out.details.map((d) => [d.productCode, d.orderNum, d.oriPrice, d.discountRate, d.taxPrice])).toEqual([
      ['FP1', 4, '15.00', '90.00', '13.50'],
      ['FP2', 2, '30.00', '100.00', '30.00'],
    ])
    const over = await call('POST', '/sale/out/sheet', { saleOrderId: orderId, products: [{ productId: f.p1, orderNum: 3, saleOrderDetailId: l1.id }] })
    expect(over.body.msg).toBe('（FP1）F商品P1剩余出库数量为2个，本次出库数量不允许大于2个！')
    const notGift = await call('POST', '/sale/out/sheet', { saleOrderId: orderId, products: [{ productId: f.p2, orderNum: 1, taxPrice: '3' }] })
    expect(notGift.body.msg).toBe('第1行商品必须为“赠品”！')
    // The loader shows what is left to ship.
    const loader = await ok<Doc>('GET', '/sale/order/out', undefined, { id: orderId })
    expect(loader.details.map((d) => [d.productCode, d.remainNum])).toEqual([['FP1', 2], ['FP3', 1]])
    expect(l3.id).toBeTruthy()

    await ok('PATCH', '/sale/out/sheet/approve/pass', { id: firstOut })
    const approved = await get('/sale/out/sheet', firstOut)
    expect(approved.status).toBe(3)
    // Out at average cost: P1 155.00/15 = 10.333333 → 4 × = 41.33; P2 2 × 20.00.
    expect(approved.details.map((d) => [d.productCode, d.costTaxAmount])).toEqual([['FP1', '41.33'], ['FP2', '40.00']])
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 11, taxPrice: '10.333333', taxAmount: '113.67' })
    expect(await stock(f.p2, f.scA)).toMatchObject({ stockNum: 8, taxPrice: '20.000000', taxAmount: '160.00' })
    expect((await log(firstOut)).map((r) => [Number(r.stock_num), Number(r.biz_type)])).toEqual(
      [f.p1, f.p2].sort().map((p) => [p === f.p1 ? -4 : -2, 3]),
    )
    const invoice = await ok<{ datas: { id: string }[] }>('GET', '/sale/out/sheet/query/invoice')
    expect(invoice.datas.map((d) => d.id)).toEqual([firstOut])
    await ok('PUT', '/sale/config', { outStockRequireSale: false, outStockMultipleRelateSale: false })
  })

  it('explodes a bundle into its components at approval and posts stock per component', async () => {
    // Weights P1 15.00 × 2 and P2 30.00 × 1: 50.01 → P1 25.01 (12.51 each), P2 the tail 25.00.
    const id = await ok<string>('POST', '/sale/out/sheet', {
      scId: f.scA, customerId: f.customerId, products: [{ productId: f.bundle, orderNum: 2, taxPrice: '50.01' }],
    })
    const before = await get('/sale/out/sheet', id)
    expect(before).toMatchObject({ totalNum: 2, totalAmount: '100.02' })
    const bundleLineId = String(before.details[0].id)
    const breakdown = () => db().selectFrom('tbl_sale_out_sheet_detail_bundle').selectAll().where('sheet_id', '=', id).orderBy('id').execute()
    expect((await breakdown()).map((r) => [r.detail_id, r.product_id, Number(r.product_order_num), String(r.product_tax_price), r.product_detail_id])).toEqual([
      [bundleLineId, f.p1, 4, '12.51', null],
      [bundleLineId, f.p2, 2, '25.00', null],
    ])
    await ok('PATCH', '/sale/out/sheet/approve/pass', { id })
    const after = await get('/sale/out/sheet', id)
    expect(after).toMatchObject({ status: 3, totalNum: 6, totalGiftNum: 0, totalAmount: '100.02' })
    expect(after.details.map((d) => [d.productCode, d.orderNum, d.taxPrice, d.oriBundleDetailId, d.costTaxAmount])).toEqual([
      ['FP1', 4, '12.51', bundleLineId, '41.33'],
      ['FP2', 2, '25.00', bundleLineId, '40.00'],
    ])
    expect((await breakdown()).map((r) => r.product_detail_id)).toEqual(after.details.map((d) => d.id))
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 7, taxAmount: '72.34' })
    expect(await stock(f.p2, f.scA)).toMatchObject({ stockNum: 6, taxAmount: '120.00' })
    expect(await stock(f.bundle, f.scA)).toBeUndefined()
  })

  it('refuses short stock with the ledger message and writes nothing', async () => {
    const id = await ok<string>('POST', '/sale/out/sheet', {
      scId: f.scA, customerId: f.customerId, products: [{ productId: f.p2, orderNum: 1, taxPrice: '30' }, { productId: f.bundle, orderNum: 10, taxPrice: '60' }],
    })
    const r = await call('PATCH', '/sale/out/sheet/approve/pass', { id })
    expect(r.status).toBe(400)
    // Components are posted in product order: P1 (20 needed, 7 left) fails first.
    expect(r.body.msg).toBe('商品（FP1）F商品P1当前库存为7，库存不足，无法出库！')
    const doc = await get('/sale/out/sheet', id)
    expect(doc).toMatchObject({ status: 0, totalNum: 11 })
    expect(doc.details.map((d) => d.productId)).toEqual([f.p2, f.bundle])
    expect(await log(id)).toEqual([])
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 7, taxAmount: '72.34' })
    expect(await stock(f.p2, f.scA)).toMatchObject({ stockNum: 6, taxAmount: '120.00' })
    const rows = await db().selectFrom('tbl_sale_out_sheet_detail_bundle').select('product_detail_id').where('sheet_id', '=', id).execute()
    expect(rows.map((x) => x.product_detail_id)).toEqual([null, null])
    await ok('DELETE', '/sale/out/sheet', { id })
    expect(await db().selectFrom('tbl_sale_out_sheet_detail_bundle').select('id').where('sheet_id', '=', id).execute()).toEqual([])
  })

  it('takes returns back at the current average cost against the out sheet', async () => {
    await ok('PUT', '/sale/config', { saleReturnRequireOutStock: true, saleReturnMultipleRelateOutStock: true })
    const outLines = (await get('/sale/out/sheet', firstOut)).details as { id: string; productId: string }[]
    const p1Line = outLines.find((l) => l.productId === f.p1)!
    const id = await ok<string>('POST', '/sale/return', { outSheetId: firstOut, products: [{ productId: f.p1, orderNum: 3, outSheetDetailId: p1Line.id }] })
    expect(await get('/sale/return', id)).toMatchObject({ scId: f.scA, customerId: f.customerId, totalAmount: '40.50', settleStatus: 0 })
    const over = await call('POST', '/sale/return', { outSheetId: firstOut, products: [{ productId: f.p1, orderNum: 2, outSheetDetailId: p1Line.id }] })
    expect(over.body.msg).toBe('（FP1）F商品P1剩余退货数量为1个，本次退货数量不允许大于1个！')
    await ok('PATCH', '/sale/return/approve/pass', { id })
    // In at the current average unit cost, which outs at average left at 10.333333: 3 × → 31.00.
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 10, taxPrice: '10.333333', taxAmount: '103.34' })
    expect((await log(id)).map((r) => [Number(r.stock_num), String(r.tax_amount), Number(r.biz_type)])).toEqual([[3, '31.00', 4]])
    expect((await get('/sale/out/sheet', firstOut)).details.find((d) => d.productId === f.p1)).toMatchObject({ returnNum: 3 })
    // The return's loader offers only what can still come back.
    const open = await ok<{ details: { productId: string; remainNum: number }[] }>('GET', '/sale/out/sheet/return', undefined, { id: firstOut })
    expect(open.details.find((d) => d.productId === f.p1)).toMatchObject({ remainNum: 1 })
    await ok('PUT', '/sale/config', { saleReturnMultipleRelateOutStock: false })
    const second = await call('POST', '/sale/return', { outSheetId: firstOut, products: [{ productId: f.p1, orderNum: 1, outSheetDetailId: p1Line.id }] })
    expect(second.body.msg).toBe(`销售出库单号：${(await get('/sale/out/sheet', firstOut)).code}，已关联其他销售退货单，不允许关联多个销售退货单！`)
    await ok('PUT', '/sale/config', { saleReturnRequireOutStock: false })
  })

  it('follows the configuration switches', async () => {
    await ok('PUT', '/sale/config', { outStockRequireLogistics: true })
    const id = await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }] })
    expect((await call('PATCH', '/sale/out/sheet/approve/pass', { id })).body.msg).toBe('销售出库单尚未发货，无法审核通过！')
    await ok('PUT', '/sale/config', { outStockRequireLogistics: false })
    await ok('DELETE', '/sale/out/sheet', { id })

    await ok('PUT', '/sale/config', { outStockRequireSale: true, outStockMultipleRelateSale: false })
    const [l1] = (await get('/sale/order', orderId)).details as { id: string }[]
    const again = await call('POST', '/sale/out/sheet', { saleOrderId: orderId, products: [{ productId: f.p1, orderNum: 1, saleOrderDetailId: l1.id }] })
    expect(again.body.msg).toBe(`销售订单号：${(await get('/sale/order', orderId)).code}，已关联其他销售出库单，不允许关联多个销售出库单！`)
    const pending = await ok<string>('POST', '/sale/order', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '0' }] })
    expect((await call('POST', '/sale/out/sheet', { saleOrderId: pending, products: [{ productId: f.p1, orderNum: 1 }] })).body.msg).toBe('销售订单尚未审核通过，不允许出库！')
    await ok('PUT', '/sale/config', { outStockRequireSale: false, outStockMultipleRelateSale: false })
  })

  it('batch approval is all-or-nothing', async () => {
    const a = await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }] })
    const b = await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p2, orderNum: 1000, taxPrice: '30' }] })
    const r = await call('PATCH', '/sale/out/sheet/approve/pass/batch', { ids: [a, b] })
    expect(r.body.msg).toBe('第2个销售出库单审核通过失败，失败原因：商品（FP2）F商品P2当前库存为6，库存不足，无法出库！')
    expect((await get('/sale/out/sheet', a)).status).toBe(0)
    expect(await log(a)).toEqual([])
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 10, taxAmount: '103.34' })
  })

  it('lists the customer addresses', async () => {
    const addressId = await ok<string>('POST', '/basedata/address', {
      entityType: 2, entityId: f.customerId, addressType: 2, name: '张三', telephone: '13800000000', cityId: '330106', address: '文三路1号', isDefault: true,
    })
    const list = await ok<{ id: string; address: string }[]>('GET', '/sale/order/getAddressList', undefined, { customerId: f.customerId })
    expect(list.map((a) => [a.id, a.address])).toEqual([[addressId, '文三路1号']])
    expect((await call('GET', '/sale/order/getAddressList')).body.msg).toBe('请选择客户')
  })

  it('charts the approved documents of today by kind: how many documents (not goods) and their amount', async () => {
    const rows = await ok<{ date: string; bizType: number; totalNum: number; totalAmount: string }[]>('GET', '/chart/order')
    const today = dayjs().format('YYYY-MM-DD')
    expect(rows.filter((r) => r.date === today)).toEqual([
      { date: today, bizType: 2, totalNum: 1, totalAmount: '141.00' },
      { date: today, bizType: 3, totalNum: 1, totalAmount: '40.50' },
    ])
  })
})
