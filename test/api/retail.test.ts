import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers, type Doc } from '../support/sale-helpers.js'

describe('retail documents', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const { call, ok, get, stock, log, stockIn, db } = saleHelpers(() => t, () => token)
  let withMember: string
  const today = dayjs().format('YYYY-MM-DD')

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'R')
    // P1: 10 at 10.00 and 2 at 13.00 → 12 worth 126.00 (10.500000); P2: 5 at 20.00.
    await stockIn(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: 10, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 5, taxPrice: '20.00' },
    ])
    await stockIn(f.scA, f.supplierId, [{ productId: f.p1, orderNum: 2, taxPrice: '13.00' }])
  })
  afterAll(async () => t?.close())

  it('keeps the retail configuration with its seed values', async () => {
    expect(await ok('GET', '/retail/config')).toMatchObject({
      retailOutSheetRequireMember: false, retailReturnRequireOutStock: false, retailReturnMultipleRelateOutStock: true,
      retailReturnRequireMember: false, retailOutSheetRequireLogistics: false,
    })
  })

  it('sells to a member at average cost, paymentDate today by default', async () => {
    withMember = await ok<string>('POST', '/retail/out/sheet', {
      scId: f.scA, memberId: f.memberId,
      products: [{ productId: f.p1, orderNum: 3, oriPrice: '15.00', discountRate: '80', taxPrice: '12.00' }, { productId: f.p3, orderNum: 1, taxPrice: '0' }],
    })
    const doc = await get('/retail/out/sheet', withMember)
    expect(doc).toMatchObject({ memberId: f.memberId, memberName: 'R会员', paymentDate: today, settleStatus: 0, totalNum: 3, totalGiftNum: 1, totalAmount: '36.00' })
    // P3 has no stock: the gift line cannot leave either.
    expect((await call('PATCH', '/retail/out/sheet/approve/pass', { id: withMember })).body.msg).toBe('商品（RP3）R商品P3当前库存为0，无法出库！')
    await ok('PUT', '/retail/out/sheet', { id: withMember, scId: f.scA, memberId: f.memberId, paymentDate: '2026-12-31', products: [{ productId: f.p1, orderNum: 3, oriPrice: '15.00', discountRate: '80', taxPrice: '12.00' }] })
    await ok('PATCH', '/retail/out/sheet/approve/pass', { id: withMember })
    const passed = await get('/retail/out/sheet', withMember)
    expect(passed).toMatchObject({ status: 3, paymentDate: '2026-12-31', totalAmount: '36.00' })
    // 3 × 10.500000 = 31.50.
    expect(passed.details.map((d) => [d.productCode, d.costTaxAmount])).toEqual([['RP1', '31.50']])
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 9, taxPrice: '10.500000', taxAmount: '94.50' })
    expect((await log(withMember)).map((r) => [Number(r.stock_num), String(r.tax_amount), Number(r.biz_type)])).toEqual([[-3, '-31.50', 5]])
    const printed = await ok<Doc>('GET', '/retail/out/sheet/print', undefined, { id: withMember })
    expect(printed.code).toBe(passed.code)
  })

  it('sells without a member unless the configuration requires one', async () => {
    const id = await ok<string>('POST', '/retail/out/sheet/approve/pass/direct', { scId: f.scA, products: [{ productId: f.p2, orderNum: 1, taxPrice: '30' }] })
    expect(await get('/retail/out/sheet', id)).toMatchObject({ status: 3, memberId: null, totalAmount: '30.00' })
    await ok('PUT', '/retail/config', { retailOutSheetRequireMember: true })
    const r = await call('POST', '/retail/out/sheet', { scId: f.scA, products: [{ productId: f.p2, orderNum: 1, taxPrice: '30' }] })
    expect(r.body.msg).toBe('会员不能为空')
    await ok('PUT', '/retail/config', { retailOutSheetRequireMember: false, retailOutSheetRequireLogistics: true })
    const held = await ok<string>('POST', '/retail/out/sheet', { scId: f.scA, products: [{ productId: f.p2, orderNum: 1, taxPrice: '30' }] })
    expect((await call('PATCH', '/retail/out/sheet/approve/pass', { id: held })).body.msg).toBe('零售出库单尚未发货，无法审核通过！')
    await ok('PUT', '/retail/config', { retailOutSheetRequireLogistics: false })
    await ok('DELETE', '/retail/out/sheet', { id: held })
  })

  it('explodes bundles by retail price weights', async () => {
    // Weights P1 15.00 × 2, P2 30.00 × 1 at 45.00: P1 22.50 (11.25 each), P2 22.50.
    const id = await ok<string>('POST', '/retail/out/sheet/approve/pass/direct', { scId: f.scA, products: [{ productId: f.bundle, orderNum: 1, taxPrice: '45' }] })
    const doc = await get('/retail/out/sheet', id)
    expect(doc).toMatchObject({ totalNum: 3, totalAmount: '45.00' })
    expect(doc.details.map((d) => [d.productCode, d.orderNum, d.taxPrice, d.costTaxAmount])).toEqual([
      ['RP1', 2, '11.25', '21.00'],
      ['RP2', 1, '22.50', '20.00'],
    ])
    const rows = await db().selectFrom('tbl_retail_out_sheet_detail_bundle').select(['product_id', 'product_detail_id']).where('sheet_id', '=', id).orderBy('id').execute()
    expect(rows.map((r) => r.product_detail_id)).toEqual(doc.details.map((d) => d.id))
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 7, taxAmount: '73.50' })
    expect(await stock(f.p2, f.scA)).toMatchObject({ stockNum: 3, taxAmount: '60.00' })
  })

  it('takes returns back at average cost against the out sheet, per the configuration', async () => {
    await ok('PUT', '/retail/config', { retailReturnRequireOutStock: true })
    const loader = await ok<Doc>('GET', '/retail/out/sheet/return', undefined, { id: withMember })
    expect(loader.details.map((d) => [d.productCode, d.remainNum])).toEqual([['RP1', 3]])
    const line = loader.details[0] as { id: string }
    const id = await ok<string>('POST', '/retail/return', { outSheetId: withMember, products: [{ productId: f.p1, orderNum: 2, taxPrice: '99', outSheetDetailId: line.id }] })
    expect(await get('/retail/return', id)).toMatchObject({ memberId: f.memberId, scId: f.scA, totalAmount: '24.00', paymentDate: today })
    const over = await call('POST', '/retail/return', { outSheetId: withMember, products: [{ productId: f.p1, orderNum: 2, outSheetDetailId: line.id }] })
    expect(over.body.msg).toBe('（RP1）R商品P1剩余退货数量为1个，本次退货数量不允许大于1个！')
    await ok('PATCH', '/retail/return/approve/pass', { id })
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 9, taxPrice: '10.500000', taxAmount: '94.50' })
    expect((await log(id)).map((r) => [Number(r.stock_num), String(r.tax_amount), Number(r.biz_type)])).toEqual([[2, '21.00', 6]])
    // Only one return per out sheet when the configuration says so.
    await ok('PUT', '/retail/config', { retailReturnMultipleRelateOutStock: false })
    const second = await call('POST', '/retail/return', { outSheetId: withMember, products: [{ productId: f.p1, orderNum: 1, outSheetDetailId: line.id }] })
    expect(second.body.msg).toBe(`零售出库单号：${(await get('/retail/out/sheet', withMember)).code}，已关联其他零售退货单，不允许关联多个零售退货单！`)
    await ok('PUT', '/retail/config', { retailReturnRequireOutStock: false, retailReturnMultipleRelateOutStock: true, retailReturnRequireMember: true })
    expect((await call('POST', '/retail/return', { scId: f.scA, products: [{ productId: f.p1, orderNum: 1, taxPrice: '1' }] })).body.msg).toBe('会员不能为空')
    await ok('PUT', '/retail/config', { retailReturnRequireMember: false })
  })

  it('answers the line-table helpers', async () => {
    expect(await ok('GET', '/retail/out/sheet/paymentdate', undefined, { memberId: f.memberId })).toEqual({ allowModify: true, paymentDate: today })
    const found = await ok<{ productId: string; stockNum: number }[]>('GET', '/retail/out/sheet/product/search', undefined, { scId: f.scA, condition: 'RP1', isReturn: 'false' })
    expect(found).toEqual([expect.objectContaining({ productId: f.p1, stockNum: 9 })])
    const page = await ok<{ totalCount: number }>('GET', '/retail/out/sheet/product/list', undefined, { scId: f.scA })
    expect(page.totalCount).toBeGreaterThanOrEqual(4)
  })

  it('batch approval is all-or-nothing', async () => {
    const a = await ok<string>('POST', '/retail/out/sheet', { scId: f.scA, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }] })
    const b = await ok<string>('POST', '/retail/out/sheet', { scId: f.scA, products: [{ productId: f.p2, orderNum: 4, taxPrice: '30' }] })
    const r = await call('PATCH', '/retail/out/sheet/approve/pass/batch', { ids: [a, b] })
    expect(r.body.msg).toBe('第2个零售出库单审核通过失败，失败原因：商品（RP2）R商品P2当前库存为3，库存不足，无法出库！')
    expect((await get('/retail/out/sheet', a)).status).toBe(0)
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 9, taxAmount: '94.50' })
  })

  it('charts retail outs and returns: how many documents were approved today, and their amount', async () => {
    const rows = await ok<{ date: string; bizType: number; totalNum: number; totalAmount: string }[]>('GET', '/chart/order')
    expect(rows.filter((r) => r.date === today)).toEqual([
      { date: today, bizType: 4, totalNum: 3, totalAmount: '111.00' },
      { date: today, bizType: 5, totalNum: 1, totalAmount: '24.00' },
    ])
  })
})
