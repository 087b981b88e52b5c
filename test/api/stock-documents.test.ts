import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { money, stockClient } from '../support/stock-helpers.js'

type Doc = { id: string; code: string; status: number; description: string; details: Record<string, unknown>[]; [k: string]: unknown }

describe('stock documents: adjust, cost adjust, warehouse transfer', () => {
  let t: TestApp
  let f: TradeFixtures
  let c: ReturnType<typeof stockClient>
  let reasonId: string
  const stockOf = async (productId: string, scId: string) => {
    const s = await c.stock(productId, scId)
    return s && { stockNum: s.stockNum, taxPrice: money(s.taxPrice, 6), taxAmount: money(s.taxAmount) }
  }

  beforeAll(async () => {
    t = await startTestApp()
    const token = await t.login()
    f = await createTradeFixtures(t, token)
    c = stockClient(t, token)
    reasonId = await c.ok<string>('POST', '/stock/adjust/reason', { code: 'R01', name: '损溢' })
    // scA: P1 10 at 10.00, P2 5 at 20.00.
    await c.receive(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: 10, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 5, taxPrice: '20.00' },
    ])
  })
  afterAll(async () => t?.close())

  const adjust = (bizType: number, products: { productId: string; stockNum: number }[], scId = f.scA) => ({ scId, bizType, reasonId, description: '草稿', products })

  it('adjusts stock in at the average (purchase price for a new row) and overwrites the remark on approval', async () => {
    const id = await c.ok<string>('POST', '/stock/adjust', adjust(0, [{ productId: f.p1, stockNum: 5 }]))
    const draft = await c.ok<Doc>('GET', '/stock/adjust', undefined, { id })
    expect(draft).toMatchObject({ status: 0, bizType: 0, reasonId, reasonName: '损溢', description: '草稿' })
    await c.ok('PATCH', '/stock/adjust/approve/pass', { id, description: '盘盈入库' })
    expect(await c.ok<Doc>('GET', '/stock/adjust', undefined, { id })).toMatchObject({ status: 3, description: '盘盈入库' })
    expect(await stockOf(f.p1, f.scA)).toEqual({ stockNum: 15, taxPrice: '10.000000', taxAmount: '150.00' })
    // No remark: the description becomes ''. P3 has no row in scB: it comes in at its purchase price 0.10.
    const second = await c.ok<string>('POST', '/stock/adjust', adjust(0, [{ productId: f.p3, stockNum: 4 }], f.scB))
    await c.ok('PATCH', '/stock/adjust/approve/pass', { id: second })
    expect((await c.ok<Doc>('GET', '/stock/adjust', undefined, { id: second })).description).toBe('')
    expect(await stockOf(f.p3, f.scB)).toEqual({ stockNum: 4, taxPrice: '0.100000', taxAmount: '0.40' })
    const logs = await c.db().selectFrom('tbl_product_stock_log').select(['biz_type', 'stock_num']).where('biz_id', '=', id).execute()
    expect(logs.map((l) => [Number(l.biz_type), Number(l.stock_num)])).toEqual([[10, 5]])
  })

  it('adjusts stock out at the average and refuses going below zero without writing anything', async () => {
    await c.ok('POST', '/stock/adjust/approve/pass/direct', adjust(2, [{ productId: f.p1, stockNum: 3 }]))
    expect(await stockOf(f.p1, f.scA)).toEqual({ stockNum: 12, taxPrice: '10.000000', taxAmount: '120.00' })

    const before = (await c.ok<{ totalCount: number }>('GET', '/stock/adjust/query')).totalCount
    const r = await c.call('POST', '/stock/adjust/approve/pass/direct', adjust(2, [{ productId: f.p2, stockNum: 1 }, { productId: f.p1, stockNum: 13 }]))
    expect(r.body.msg).toBe('商品（FP1）F商品P1当前库存为12，库存不足，无法出库！')
    expect((await c.ok<{ totalCount: number }>('GET', '/stock/adjust/query')).totalCount).toBe(before)
    expect(await stockOf(f.p2, f.scA)).toEqual({ stockNum: 5, taxPrice: '20.000000', taxAmount: '100.00' })

    const pending = await c.ok<string>('POST', '/stock/adjust', adjust(2, [{ productId: f.p3, stockNum: 1 }]))
    expect((await c.call('PATCH', '/stock/adjust/approve/pass', { id: pending })).body.msg).toBe('商品（FP3）F商品P3当前库存为0，无法出库！')
    expect((await c.ok<Doc>('GET', '/stock/adjust', undefined, { id: pending })).status).toBe(0)
    expect((await c.call('POST', '/stock/adjust', adjust(1, [{ productId: f.p1, stockNum: 1 }]))).status).toBe(400)
    expect((await c.call('POST', '/stock/adjust', adjust(0, [{ productId: f.p1, stockNum: 1 }, { productId: f.p1, stockNum: 2 }]))).body.msg).toBe('第2行商品重复，请检查！')
  })

  it('adjusts the unit cost: figures at save, exact value at approval, rows without stock skipped', async () => {
    const id = await c.ok<string>('POST', '/stock/adjust/cost', {
      scId: f.scA,
      description: '调价',
      products: [{ productId: f.p1, price: '12.50' }, { productId: f.p3, price: '1.00' }],
    })
    const sheet = await c.ok<Doc>('GET', '/stock/adjust/cost/detail', undefined, { id })
    expect(sheet).toMatchObject({ status: 0, productNum: 2, diffAmount: '30.00' })
    expect(sheet.details.map((d) => [d.productCode, d.stockNum, money(d.oriPrice, 6), d.purchasePrice, d.price, d.diffAmount])).toEqual([
      ['FP1', 12, '10.000000', '10.00', '12.50', '30.00'],
      ['FP3', 0, '0.000000', '0.10', '1.00', '0.00'],
    ])
    await c.ok('PATCH', '/stock/adjust/cost/approve/pass', { id })
    expect(await stockOf(f.p1, f.scA)).toEqual({ stockNum: 12, taxPrice: '12.500000', taxAmount: '150.00' })
    expect(await c.stock(f.p3, f.scA)).toBeUndefined()
    expect(await c.ok<Doc>('GET', '/stock/adjust/cost', undefined, { id })).toMatchObject({ status: 3, description: '', diffAmount: '30.00' })
    const logs = await c.db().selectFrom('tbl_product_stock_log').select(['biz_type', 'stock_num', 'tax_amount']).where('biz_id', '=', id).execute()
    expect(logs.map((l) => [Number(l.biz_type), Number(l.stock_num), money(l.tax_amount)])).toEqual([[9, 0, '30.00']])
    const search = await c.ok<{ productId: string; stockNum: number }[]>('GET', '/stock/adjust/cost/product/search', undefined, { scId: f.scA, condition: 'FP1' })
    expect(search).toEqual([expect.objectContaining({ productId: f.p1, stockNum: 12 })])
  })

  it('transfers: out of the source at cost on approval, partial then full receipt into the target at that cost', async () => {
    const same = await c.call('POST', '/stock/transfer/sc', { sourceScId: f.scA, targetScId: f.scA, products: [{ productId: f.p1, transferNum: 1 }] })
    expect(same.body.msg).toBe('转出仓库和转入仓库不允许相同！')
    const id = await c.ok<string>('POST', '/stock/transfer/sc', {
      sourceScId: f.scA,
      targetScId: f.scB,
      products: [{ productId: f.p1, transferNum: 6 }, { productId: f.p2, transferNum: 2 }],
    })
    expect((await c.call('PATCH', '/stock/transfer/sc/receive', { id, products: [{ productId: f.p1, receiveNum: 1 }] })).body.msg).toBe(
      '仓库调拨单未审核通过或已收货完成，不允许收货！',
    )
    await c.ok('PATCH', '/stock/transfer/sc/approve/pass', { id })
    const approved = await c.ok<Doc>('GET', '/stock/transfer/sc', undefined, { id })
    expect(approved).toMatchObject({ status: 3, totalNum: 8, totalAmount: '115.00' })
    expect(approved.details.map((d) => [d.productCode, d.transferNum, d.taxPrice, d.receiveNum])).toEqual([
      ['FP1', 6, '12.50', 0],
      ['FP2', 2, '20.00', 0],
    ])
    expect(await stockOf(f.p1, f.scA)).toEqual({ stockNum: 6, taxPrice: '12.500000', taxAmount: '75.00' })
    expect(await stockOf(f.p2, f.scA)).toEqual({ stockNum: 3, taxPrice: '20.000000', taxAmount: '60.00' })

    await c.ok('PATCH', '/stock/transfer/sc/receive', { id, products: [{ productId: f.p1, receiveNum: 4 }] })
    expect((await c.ok<Doc>('GET', '/stock/transfer/sc', undefined, { id })).status).toBe(9)
    expect(await stockOf(f.p1, f.scB)).toEqual({ stockNum: 4, taxPrice: '12.500000', taxAmount: '50.00' })

    const over = await c.call('PATCH', '/stock/transfer/sc/receive', { id, products: [{ productId: f.p2, receiveNum: 2 }, { productId: f.p1, receiveNum: 3 }] })
    expect(over.body.msg).toBe('（FP1）F商品P1待收货数量不足，请检查！')
    expect(await c.stock(f.p2, f.scB)).toBeUndefined()
    expect(await c.ok<unknown[]>('GET', '/stock/transfer/sc/receive/detail', undefined, { id })).toHaveLength(1)

    await c.ok('PATCH', '/stock/transfer/sc/receive', { id, products: [{ productId: f.p1, receiveNum: 2 }, { productId: f.p2, receiveNum: 2 }] })
    const done = await c.ok<Doc>('GET', '/stock/transfer/sc', undefined, { id })
    expect(done.status).toBe(12)
    expect(done.details.map((d) => d.receiveNum)).toEqual([6, 2])
    expect(await stockOf(f.p1, f.scB)).toEqual({ stockNum: 6, taxPrice: '12.500000', taxAmount: '75.00' })
    expect(await stockOf(f.p2, f.scB)).toEqual({ stockNum: 2, taxPrice: '20.000000', taxAmount: '40.00' })
    const receipts = await c.ok<{ productCode: string; receiveNum: number }[]>('GET', '/stock/transfer/sc/receive/detail', undefined, { id })
    expect(receipts.map((r) => r.receiveNum).sort()).toEqual([2, 2, 4])
    const timeline = await c.ok<{ bizType: number }[]>('GET', '/component/timeline/order', undefined, { orderId: id })
    expect(timeline.filter((e) => e.bizType === 7)).toHaveLength(2)
    expect((await c.call('PATCH', '/stock/transfer/sc/receive', { id, products: [{ productId: f.p1, receiveNum: 1 }] })).body.msg).toBe(
      '仓库调拨单未审核通过或已收货完成，不允许收货！',
    )
  })
})
