import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers, type Doc } from '../support/sale-helpers.js'

type Row = Record<string, unknown> & { id: string }

/**
 * Document entry from the product master (issue 17): what a new line takes from its product arrives in
 * the picker and product-search answers, the picker reports the warehouse's available stock, price,
 * original price and discount rate must agree (create, modify, approve), tax rates 13 and 9 exist, and
 * every stock document that cannot take a bundle refuses one at save, naming the line.
 */
describe('document entry', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  let vat: string
  const { call, ok, get, db, stockIn } = saleHelpers(() => t, () => token)

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'D')
    // Today's rates: 13% on purchase (进项), 9% on sale (销项).
    vat = await ok<string>('POST', '/basedata/product', {
      code: 'DVAT', name: 'D九税商品', skuCode: 'DSKUVAT', categoryId: f.categoryId, brandId: f.brandId, productType: 1,
      taxRate: 13, saleTaxRate: 9, purchasePrice: '8.40', salePrice: '12.60', retailPrice: '13.90',
    })
    // P1: 15 in 一号仓, P2: 4 → the bundle (2 × P1 + 1 × P2) has min(⌊15/2⌋, ⌊4/1⌋) = 4 there.
    await stockIn(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: 15, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 4, taxPrice: '20.00' },
      { productId: vat, orderNum: 3, taxPrice: '8.40' },
    ])
  })
  afterAll(async () => t?.close())

  it('answers prices, tax rates and the warehouse stock in the product picker', async () => {
    const page = await ok<{ datas: Row[] }>('GET', '/selector/product', undefined, { code: 'D', scId: f.scA, pageIndex: '1', pageSize: '50' })
    const byCode = new Map(page.datas.map((r) => [r.code, r]))
    expect(byCode.get('DVAT')).toMatchObject({ purchasePrice: '8.40', salePrice: '12.60', retailPrice: '13.90', taxRate: 13, saleTaxRate: 9, stockNum: 3 })
    expect(byCode.get('DP1')).toMatchObject({ purchasePrice: '10.00', salePrice: '15.00', stockNum: 15 })
    expect(byCode.get('DP3')).toMatchObject({ stockNum: 0 })
    expect(byCode.get('DK1')).toMatchObject({ productType: 2, stockNum: 4 })
    // Another warehouse has nothing; without a warehouse no stock is claimed.
    const other = await ok<{ datas: Row[] }>('GET', '/selector/product', undefined, { code: 'DP1', scId: f.scB })
    expect(other.datas.map((r) => [r.code, r.stockNum])).toEqual([['DP1', 0]])
    const plain = await ok<{ datas: Row[] }>('GET', '/selector/product', undefined, { code: 'DP1' })
    expect(plain.datas[0]).not.toHaveProperty('stockNum')
  })

  it('answers prices and tax rates in the quick product search and on loaded lines', async () => {
    const found = await ok<Row[]>('GET', '/retail/out/sheet/product/search', undefined, { scId: f.scA, condition: 'DVAT' })
    expect(found).toEqual([expect.objectContaining({ productCode: 'DVAT', salePrice: '12.60', retailPrice: '13.90', purchasePrice: '8.40', taxRate: 13, saleTaxRate: 9, stockNum: 3 })])
    const id = await ok<string>('POST', '/sale/order', {
      scId: f.scA, customerId: f.customerId,
      products: [{ productId: vat, orderNum: 2, oriPrice: '12.60', taxPrice: '12.60', discountRate: '100', taxRate: 9 }],
      payTypes: [{ id: f.payTypeId, payAmount: '25.20' }],
    })
    const order = await get('/sale/order', id)
    // The line keeps its own tax rate; the product's prices come with it for the page.
    expect(order.details.map((d) => [d.productCode, d.taxRate, d.taxPrice, d.salePrice, d.retailPrice])).toEqual([['DVAT', 9, '12.60', '12.60', '13.90']])
  })

  it('accepts the tax rates 13 and 9 on lines and refuses a rate that is not one', async () => {
    const id = await ok<string>('POST', '/purchase/order', {
      scId: f.scA, supplierId: f.supplierId,
      products: [{ productId: vat, orderNum: 1, taxPrice: '8.40', taxRate: 13 }, { productId: f.p1, orderNum: 1, taxPrice: '10.00', taxRate: 9 }],
      payTypes: [{ id: f.payTypeId, payAmount: '18.40' }],
    })
    expect((await get('/purchase/order', id)).details.map((d) => d.taxRate)).toEqual([13, 9])
    const wrong = await call('POST', '/purchase/order', {
      scId: f.scA, supplierId: f.supplierId, products: [{ productId: vat, orderNum: 1, taxPrice: '8.40', taxRate: 10 }],
    })
    expect([wrong.status, wrong.body.msg]).toEqual([400, '第1行商品税率（%）取值不正确'])
  })

  it('keeps price, original price and discount rate consistent on create', async () => {
    const body = (line: Record<string, unknown>) => ({ scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxRate: 17, ...line }] })
    // 价格 28.50 typed with 折扣率 left at 100: refused, naming the line, the product and what agrees.
    const wrong = await call('POST', '/sale/out/sheet', body({ oriPrice: '30.00', taxPrice: '28.50', discountRate: '100' }))
    expect([wrong.status, wrong.body.msg]).toEqual([
      400,
      '第1行商品（DP1）D商品P1的价格与原价、折扣率不一致：原价30.00、折扣率100.00%时价格应为30.00，价格28.50时折扣率应为95.00%！',
    ])
    const second = await call('POST', '/retail/out/sheet', {
      scId: f.scA,
      products: [
        { productId: f.p1, orderNum: 1, oriPrice: '15.00', taxPrice: '15.00', discountRate: '100' },
        { productId: f.p2, orderNum: 1, oriPrice: '30.00', taxPrice: '27.00', discountRate: '80' },
      ],
    })
    expect(second.body.msg).toBe('第2行商品（DP2）D商品P2的价格与原价、折扣率不一致：原价30.00、折扣率80.00%时价格应为24.00，价格27.00时折扣率应为90.00%！')
    const noOriginal = await call('POST', '/sale/out/sheet', body({ oriPrice: '0', taxPrice: '5.00', discountRate: '100' }))
    expect(noOriginal.body.msg).toBe('第1行商品（DP1）D商品P1的原价为0，价格只能为0（赠品）！')
    // Either relation, rounded half-up to 2 places, is consistent: the price typed (rate derived) or the rate typed (price derived).
    const typedPrice = await ok<string>('POST', '/sale/out/sheet', body({ oriPrice: '1000.00', taxPrice: '333.33', discountRate: '33.33' }))
    const typedRate = await ok<string>('POST', '/sale/out/sheet', body({ oriPrice: '3.00', taxPrice: '1.00', discountRate: '33.33' }))
    // A rate left out is derived from the two prices; a gift agrees with any rate.
    const derived = await ok<string>('POST', '/sale/out/sheet', body({ oriPrice: '30.00', taxPrice: '28.50' }))
    const gift = await ok<string>('POST', '/sale/out/sheet', body({ oriPrice: '30.00', taxPrice: '0', discountRate: '100' }))
    const lineOf = async (id: string) => ((await get('/sale/out/sheet', id)).details as Doc[]).map((d) => [d.oriPrice, d.taxPrice, d.discountRate, d.isGift])[0]
    expect(await lineOf(typedPrice)).toEqual(['1000.00', '333.33', '33.33', false])
    expect(await lineOf(typedRate)).toEqual(['3.00', '1.00', '33.33', false])
    expect(await lineOf(derived)).toEqual(['30.00', '28.50', '95.00', false])
    expect(await lineOf(gift)).toEqual(['30.00', '0.00', '100.00', true])
  })

  it('refuses inconsistent lines on modify and on approval, writing nothing', async () => {
    const id = await ok<string>('POST', '/sale/order', {
      scId: f.scA, customerId: f.customerId,
      products: [{ productId: f.p1, orderNum: 2, oriPrice: '15.00', taxPrice: '13.50', discountRate: '90', taxRate: 13 }],
      payTypes: [{ id: f.payTypeId, payAmount: '27.00' }],
    })
    const modify = await call('PUT', '/sale/order', {
      id, scId: f.scA, customerId: f.customerId,
      products: [{ productId: f.p1, orderNum: 2, oriPrice: '15.00', taxPrice: '13.50', discountRate: '85', taxRate: 13 }],
      payTypes: [{ id: f.payTypeId, payAmount: '27.00' }],
    })
    expect(modify.body.msg).toBe('第1行商品（DP1）D商品P1的价格与原价、折扣率不一致：原价15.00、折扣率85.00%时价格应为12.75，价格13.50时折扣率应为90.00%！')
    expect((await get('/sale/order', id)).details.map((d) => d.discountRate)).toEqual(['90.00'])
    // A document stored before the rule (the line's rate never followed its price) cannot be approved.
    await db().updateTable('tbl_sale_order_detail').set({ discount_rate: '100.00' }).where('order_id', '=', id).execute()
    const approve = await call('PATCH', '/sale/order/approve/pass', { id })
    expect(approve.body.msg).toBe('第1行商品（DP1）D商品P1的价格与原价、折扣率不一致：原价15.00、折扣率100.00%时价格应为15.00，价格13.50时折扣率应为90.00%！')
    expect((await get('/sale/order', id)).status).toBe(0)
    await db().updateTable('tbl_sale_order_detail').set({ discount_rate: '90.00' }).where('order_id', '=', id).execute()
    await ok('PATCH', '/sale/order/approve/pass', { id })
    expect((await get('/sale/order', id)).status).toBe(3)
  })

  describe('bundles on stock documents', () => {
    const bundleMessage = (subject: string) => `第2行商品（DK1）D商品K1是组合商品，${subject}不能包含组合商品，请选择单品！`
    let planId: string
    let reasonId: string

    beforeAll(async () => {
      await ok('PUT', '/purchase/config', { receiveRequirePurchase: false, purchaseReturnRequireReceive: false })
      await ok('PUT', '/sale/config', { saleReturnRequireOutStock: false })
      await ok('PUT', '/retail/config', { retailReturnRequireOutStock: false })
      reasonId = await ok<string>('POST', '/stock/adjust/reason', { code: 'DR1', name: 'D损溢' })
      planId = await ok<string>('POST', '/stock/take/plan', { scId: f.scB, takeType: 0 })
    })

    const cases: [string, string, () => Record<string, unknown>][] = [
      ['采购订单', '/purchase/order', () => ({ scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '0' }, { productId: f.bundle, orderNum: 1, taxPrice: '0' }] })],
      ['采购收货单', '/purchase/receive/sheet', () => ({ scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '1' }, { productId: f.bundle, orderNum: 1, taxPrice: '1' }] })],
      ['采购退货单', '/purchase/return', () => ({ scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '1' }, { productId: f.bundle, orderNum: 1, taxPrice: '1' }] })],
      ['销售退货单', '/sale/return', () => ({ scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }, { productId: f.bundle, orderNum: 1, taxPrice: '60' }] })],
      ['零售退货单', '/retail/return', () => ({ scId: f.scA, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }, { productId: f.bundle, orderNum: 1, taxPrice: '60' }] })],
      ['库存调整单', '/stock/adjust', () => ({ scId: f.scA, bizType: 0, reasonId, products: [{ productId: f.p1, stockNum: 1 }, { productId: f.bundle, stockNum: 1 }] })],
      ['库存成本调整单', '/stock/adjust/cost', () => ({ scId: f.scA, products: [{ productId: f.p1, price: '10.00' }, { productId: f.bundle, price: '1.00' }] })],
      ['库存盘点单', '/stock/take/sheet', () => ({ planId, products: [{ productId: f.p1, takeNum: 1 }, { productId: f.bundle, takeNum: 1 }] })],
      ['预先盘点单', '/stock/take/pre', () => ({ scId: f.scB, takeStatus: 0, products: [{ productId: f.p1, firstNum: 1 }, { productId: f.bundle, firstNum: 1 }] })],
      ['仓库调拨单', '/stock/transfer/sc', () => ({ sourceScId: f.scA, targetScId: f.scB, products: [{ productId: f.p1, transferNum: 1 }, { productId: f.bundle, transferNum: 1 }] })],
    ]

    it.each(cases)('%s refuses a bundle at save, naming the line', async (subject, base, body) => {
      const entity = t.app.services.registry.all().find((e) => e.file.api?.base === base)!
      expect(entity.file.document?.subject).toBe(subject)
      const count = async () => Number((await db().selectFrom(entity.table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n)
      const before = await count()
      const created = await call('POST', base, body())
      expect([created.status, created.body.msg]).toEqual([400, bundleMessage(subject)])
      // Direct approval saves first (a pre-take sheet has no approval).
      if (entity.file.document?.approval !== false) expect((await call('POST', `${base}/approve/pass/direct`, body())).body.msg).toBe(bundleMessage(subject))
      expect(await count()).toBe(before)
    })

    it('refuses a bundle on modify too, and keeps bundles where the document breaks them down', async () => {
      const id = await ok<string>('POST', '/stock/adjust/cost', { scId: f.scA, products: [{ productId: f.p1, price: '10.00' }] })
      const modify = await call('PUT', '/stock/adjust/cost', { id, scId: f.scA, products: [{ productId: f.p1, price: '10.00' }, { productId: f.bundle, price: '1.00' }] })
      expect(modify.body.msg).toBe(bundleMessage('库存成本调整单'))
      // Sale orders, sale out and retail out sheets take bundles (broken down into components).
      await ok('POST', '/sale/order', {
        scId: f.scA, customerId: f.customerId, products: [{ productId: f.bundle, orderNum: 1, oriPrice: '60.00', taxPrice: '60.00', discountRate: '100' }],
        payTypes: [{ id: f.payTypeId, payAmount: '60.00' }],
      })
      const out = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', {
        scId: f.scA, customerId: f.customerId, products: [{ productId: f.bundle, orderNum: 1, oriPrice: '60.00', taxPrice: '54.00', discountRate: '90' }],
      })
      expect((await get('/sale/out/sheet', out)).status).toBe(3)
      await ok('POST', '/retail/out/sheet', { scId: f.scA, products: [{ productId: f.bundle, orderNum: 1, taxPrice: '60.00' }] })
    })
  })
})
