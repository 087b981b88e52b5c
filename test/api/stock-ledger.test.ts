import Decimal from 'decimal.js'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/db/dialect.js'
import { inTransaction } from '../../src/server/platform/db-tx.js'
import type { RequestContext } from '../../src/server/platform/request-context.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { STOCK_BIZ_TYPE as BIZ } from '../../src/shared/generated/enum-codes.js'
import { addStock, adjustCost, currentStock, onStockMoved, subStock } from '../../src/server/domain/stock/stock-ledger.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

interface Page<T> {
  totalCount: number
  datas: T[]
}
interface StockRow {
  productCode: string
  productName: string
  skuCode: string
  unit: string
  spec: string
  categoryName: string
  brandName: string
  scCode: string
  scName: string
  stockNum: number
  taxPrice: string
  taxAmount: string
}
interface LogRow {
  productCode: string
  bizType: number
  bizTypeName: string
  bizCode: string
  oriStockNum: number
  curStockNum: number
  stockNum: number
  oriTaxPrice: string
  curTaxPrice: string
  taxAmount: string
}

describe('stock ledger: moving average, never negative, one log row per move, safe in parallel', () => {
  let t: TestApp
  let token: string
  let db: Db
  let ctx: RequestContext
  const ids: Record<string, string> = {}
  const moved: { productId: string; num: number; direction: string }[] = []
  let stopListening: () => void

  const created = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const biz = (code: string, bizType: number = BIZ.PURCHASE) => ({ bizType, bizId: `id-${code}`, bizCode: code })
  const tx = <T>(work: (trx: Db) => Promise<T>) => inTransaction(db, work)
  const logRows = (productId: string, scId = ids.sc1) =>
    db
      .selectFrom('tbl_product_stock_log')
      .selectAll()
      .where('product_id', '=', productId)
      .where('sc_id', '=', scId)
      .orderBy('id')
      .execute()
  const failure = async (work: Promise<unknown>) => {
    try {
      await work
    } catch (error) {
      return (error as Error).message
    }
    throw new Error('expected a failure')
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    db = t.app.services.databases.tenant(OPERATOR_TENANT_ID)
    const admin = await db.selectFrom('sys_user').select(['id', 'name']).where('username', '=', 'admin').executeTakeFirstOrThrow()
    ctx = {
      token,
      tenantId: OPERATOR_TENANT_ID,
      userId: String(admin.id),
      username: 'admin',
      name: String(admin.name),
      db,
      isAdmin: true,
      permissions: new Set(),
      ip: '127.0.0.1',
    }
    ids.category = await created('/basedata/product/category', { code: 'C01', name: '饮料' })
    ids.category2 = await created('/basedata/product/category', { code: 'C02', name: '零食' })
    ids.brand = await created('/basedata/product/brand', { code: 'B01', name: '星云' })
    ids.brand2 = await created('/basedata/product/brand', { code: 'B02', name: '晨光' })
    ids.sc1 = await created('/basedata/storecenter', { code: 'SC01', name: '一号仓' })
    ids.sc2 = await created('/basedata/storecenter', { code: 'SC02', name: '二号仓' })
    const product = (code: string, name: string, extra: Record<string, unknown> = {}) =>
      created('/basedata/product', {
        code,
        name,
        skuCode: `SKU-${code}`,
        categoryId: ids.category,
        brandId: ids.brand,
        productType: 1,
        taxRate: 17,
        saleTaxRate: 17,
        unit: '瓶',
        spec: '500ml',
        salePrice: '10.00',
        retailPrice: '12.00',
        ...extra,
      })
    ids.a = await product('A001', '矿泉水', { purchasePrice: '12.00' })
    ids.b = await product('A002', '苏打水', { purchasePrice: '8.00' })
    ids.c = await product('B001', '薯片', { categoryId: ids.category2, brandId: ids.brand2, purchasePrice: '3.50' })
    ids.p = await product('P001', '并发商品', { purchasePrice: '1.00' })
    ids.bundle = await product('K001', '饮料组合', {
      productType: 2,
      salePrice: '30.00',
      retailPrice: '36.00',
      productBundles: [
        { productId: ids.a, bundleNum: 2, salePrice: '10.00', retailPrice: '12.00' },
        { productId: ids.b, bundleNum: 1, salePrice: '10.00', retailPrice: '12.00' },
      ],
    })
    stopListening = onStockMoved(async (_trx, _ctx, moves) => {
      for (const e of moves) moved.push({ productId: e.productId, num: e.num, direction: e.direction })
    })
  })
  afterAll(async () => {
    stopListening?.()
    await t?.close()
  })

  it('two receipts at two prices give the exact moving average', async () => {
    const first = await tx((trx) => addStock(trx, ctx, { ...biz('CG001'), productId: ids.a, scId: ids.sc1, num: 10, taxPrice: '12.50' }))
    expect(first).toEqual({ taxPrice: '12.500000', taxAmount: '125.00', stockNum: 10 })
    const second = await tx((trx) => addStock(trx, ctx, { ...biz('CG002'), productId: ids.a, scId: ids.sc1, num: 5, taxPrice: '13.99' }))
    // (125.00 + 69.95) / 15 = 12.99666…
    expect(second).toEqual({ taxPrice: '12.996667', taxAmount: '69.95', stockNum: 15 })
    expect(await currentStock(db, ids.a, ids.sc1)).toEqual({ stockNum: 15, taxPrice: '12.996667', taxAmount: '194.95' })
  })

  it('goes out at the average cost, then to zero keeping the unit cost', async () => {
    const out = await tx((trx) => subStock(trx, ctx, { ...biz('XS001', BIZ.SALE), productId: ids.a, scId: ids.sc1, num: 4 }))
    expect(out).toEqual({ taxPrice: '12.996667', taxAmount: '51.99', stockNum: 11 })
    const rest = await tx((trx) => subStock(trx, ctx, { ...biz('XS002', BIZ.SALE), productId: ids.a, scId: ids.sc1, num: 11 }))
    expect(rest).toEqual({ taxPrice: '12.996667', taxAmount: '142.96', stockNum: 0 })
    expect(await currentStock(db, ids.a, ids.sc1)).toEqual({ stockNum: 0, taxPrice: '12.996667', taxAmount: '0.00' })
  })

  it('refuses to go negative with the exact messages, and the whole transaction rolls back', async () => {
    const logsBefore = (await logRows(ids.a)).length
    expect(await failure(tx((trx) => subStock(trx, ctx, { ...biz('XS003', BIZ.SALE), productId: ids.a, scId: ids.sc1, num: 1 })))).toBe(
      '商品（A001）矿泉水当前库存为0，库存不足，无法出库！',
    )
    expect(await failure(tx((trx) => subStock(trx, ctx, { ...biz('XS004', BIZ.SALE), productId: ids.a, scId: ids.sc2, num: 1 })))).toBe(
      '商品（A001）矿泉水当前库存为0，无法出库！',
    )
    // a receipt and a short issue in one approval: neither stays
    const message = await failure(
      tx(async (trx) => {
        await addStock(trx, ctx, { ...biz('CG003'), productId: ids.a, scId: ids.sc1, num: 5, taxPrice: '20.00' })
        await subStock(trx, ctx, { ...biz('XS005', BIZ.SALE), productId: ids.a, scId: ids.sc1, num: 6 })
      }),
    )
    expect(message).toBe('商品（A001）矿泉水当前库存为5，库存不足，无法出库！')
    expect(await currentStock(db, ids.a, ids.sc1)).toEqual({ stockNum: 0, taxPrice: '12.996667', taxAmount: '0.00' })
    expect((await logRows(ids.a)).length).toBe(logsBefore)
    expect(await db.selectFrom('tbl_product_stock').select('id').where('product_id', '=', ids.a).where('sc_id', '=', ids.sc2).execute()).toEqual([])
  })

  it('writes one log row per move with the values before and after; the log adds up to the stock row', async () => {
    const rows = await logRows(ids.a)
    expect(
      rows.map((r) => [
        r.biz_code,
        Number(r.biz_type),
        Number(r.ori_stock_num),
        Number(r.stock_num),
        Number(r.cur_stock_num),
        String(r.ori_tax_price).replace(/0+$/, ''),
        String(r.cur_tax_price).replace(/0+$/, ''),
        Number(r.tax_amount),
      ]),
    ).toEqual([
      ['CG001', BIZ.PURCHASE, 0, 10, 10, '0.', '12.5', 125],
      ['CG002', BIZ.PURCHASE, 10, 5, 15, '12.5', '12.996667', 69.95],
      ['XS001', BIZ.SALE, 15, -4, 11, '12.996667', '12.996667', -51.99],
      ['XS002', BIZ.SALE, 11, -11, 0, '12.996667', '12.996667', -142.96],
    ])
    expect(rows.every((r) => r.biz_id === `id-${r.biz_code}` && r.create_by_id === ctx.userId && String(r.create_time).length === 19)).toBe(true)
    const sum = rows.reduce((n, r) => n + Number(r.stock_num), 0)
    expect(sum).toBe((await currentStock(db, ids.a, ids.sc1))?.stockNum)
  })

  it('a new row without a price starts at the given default, else at the product purchase price; later receipts at the average', async () => {
    const fromProduct = await tx((trx) => addStock(trx, ctx, { ...biz('PD001', BIZ.TAKE_STOCK_IN), productId: ids.b, scId: ids.sc1, num: 3 }))
    expect(fromProduct).toEqual({ taxPrice: '8.000000', taxAmount: '24.00', stockNum: 3 })
    const fromDefault = await tx((trx) =>
      addStock(trx, ctx, { ...biz('TZ001', BIZ.STOCK_ADJUST), productId: ids.b, scId: ids.sc2, num: 2, defaultTaxPrice: '7.50' }),
    )
    expect(fromDefault).toEqual({ taxPrice: '7.500000', taxAmount: '15.00', stockNum: 2 })
    const atAverage = await tx((trx) =>
      addStock(trx, ctx, { ...biz('XT001', BIZ.SALE_RETURN), productId: ids.b, scId: ids.sc1, num: 2, defaultTaxPrice: '99.00' }),
    )
    expect(atAverage).toEqual({ taxPrice: '8.000000', taxAmount: '16.00', stockNum: 5 })
  })

  it('a purchase return goes out at the given amount and recomputes the average', async () => {
    await tx((trx) => addStock(trx, ctx, { ...biz('CG010'), productId: ids.c, scId: ids.sc1, num: 10, taxPrice: '3.00' }))
    await tx((trx) => addStock(trx, ctx, { ...biz('CG011'), productId: ids.c, scId: ids.sc1, num: 10, taxPrice: '4.00' }))
    const back = await tx((trx) =>
      subStock(trx, ctx, { ...biz('TH001', BIZ.PURCHASE_RETURN), productId: ids.c, scId: ids.sc1, num: 5, taxAmount: '20.00' }),
    )
    expect(back).toEqual({ taxPrice: '3.333333', taxAmount: '20.00', stockNum: 15 })
    expect(await currentStock(db, ids.c, ids.sc1)).toEqual({ stockNum: 15, taxPrice: '3.333333', taxAmount: '50.00' })
  })

  it('cost adjust sets the unit cost of an existing row and skips a missing one', async () => {
    const adjusted = await tx((trx) =>
      adjustCost(trx, ctx, { ...biz('CBTZ001', BIZ.STOCK_COST_ADJUST), productId: ids.c, scId: ids.sc1, taxPrice: '3.1234567' }),
    )
    expect(adjusted).toEqual({ oriTaxPrice: '3.333333', taxPrice: '3.123457', taxAmount: '-3.15', stockNum: 15 })
    expect(await currentStock(db, ids.c, ids.sc1)).toEqual({ stockNum: 15, taxPrice: '3.123457', taxAmount: '46.85' })
    const skipped = await tx((trx) =>
      adjustCost(trx, ctx, { ...biz('CBTZ001', BIZ.STOCK_COST_ADJUST), productId: ids.c, scId: ids.sc2, taxPrice: '5' }),
    )
    expect(skipped).toBeUndefined()
    const log = (await logRows(ids.c)).at(-1)!
    expect([Number(log.biz_type), Number(log.stock_num), Number(log.ori_stock_num), Number(log.cur_stock_num)]).toEqual([9, 0, 15, 15])
  })

  it('refuses bundles, bad quantities and calls outside a transaction', async () => {
    expect(await failure(tx((trx) => addStock(trx, ctx, { ...biz('X1'), productId: ids.bundle, scId: ids.sc1, num: 1, taxPrice: '1' })))).toBe(
      '商品（K001）饮料组合是组合商品，组合商品不单独管理库存，请按单品出入库！',
    )
    expect(await failure(tx((trx) => addStock(trx, ctx, { ...biz('X2'), productId: ids.a, scId: ids.sc1, num: 1.5 })))).toBe(
      '库存变动数量必须为正整数！',
    )
    expect(await failure(tx((trx) => addStock(trx, ctx, { ...biz('X3'), productId: ids.a, scId: ids.sc1, num: 1, taxPrice: '-1' })))).toBe(
      '含税价格必须是不小于0的数字！',
    )
    expect(await failure(tx((trx) => addStock(trx, ctx, { ...biz('X4'), bizType: 12, productId: ids.a, scId: ids.sc1, num: 1 })))).toBe(
      '库存变动业务类型不正确！',
    )
    expect(await failure(tx((trx) => addStock(trx, ctx, { ...biz('X5'), productId: ids.a, scId: 'nope', num: 1 })))).toBe('仓库不存在！')
    expect(await failure(addStock(db, ctx, { ...biz('X6'), productId: ids.a, scId: ids.sc1, num: 1 }))).toMatch(/inside the caller transaction/)
  })

  it('tells listeners about every posted move, inside the transaction', async () => {
    expect(moved.filter((m) => m.productId === ids.a)).toEqual([
      { productId: ids.a, num: 10, direction: 'in' },
      { productId: ids.a, num: 5, direction: 'in' },
      { productId: ids.a, num: 4, direction: 'out' },
      { productId: ids.a, num: 11, direction: 'out' },
      // the rolled-back receipt of CG003 was announced inside its transaction too
      { productId: ids.a, num: 5, direction: 'in' },
    ])
  })

  it('200 parallel issues of 1 against 150 in stock: exactly 150 succeed, none goes negative', async () => {
    await tx((trx) => addStock(trx, ctx, { ...biz('CG100'), productId: ids.p, scId: ids.sc1, num: 150, taxPrice: '1.00' }))
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        tx((trx) => subStock(trx, ctx, { ...biz(`XS${1000 + i}`, BIZ.SALE), productId: ids.p, scId: ids.sc1, num: 1 })),
      ),
    )
    const ok = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(ok.length).toBe(150)
    expect(refused.length).toBe(50)
    expect(new Set(refused.map((r) => (r.reason as Error).message))).toEqual(new Set(['商品（P001）并发商品当前库存为0，库存不足，无法出库！']))
    expect(await currentStock(db, ids.p, ids.sc1)).toEqual({ stockNum: 0, taxPrice: '1.000000', taxAmount: '0.00' })
    const log = await logRows(ids.p)
    expect(log.length).toBe(151)
    expect(log.reduce((n, r) => n + Number(r.stock_num), 0)).toBe(0)
    expect(new Set(log.map((r) => Number(r.cur_stock_num))).size).toBe(151) // every quantity from 150 down to 0 exactly once
  })

  describe('stock screens', () => {
    beforeAll(async () => {
      await tx((trx) => addStock(trx, ctx, { ...biz('CG200'), productId: ids.a, scId: ids.sc1, num: 7, taxPrice: '11.00' }))
      await tx((trx) => addStock(trx, ctx, { ...biz('CG201'), productId: ids.a, scId: ids.sc2, num: 4, taxPrice: '10.00' }))
    })
    const page = async <T>(url: string, query: Record<string, string> = {}) => {
      const r = await t.call<Page<T>>('GET', url, { token, query: { pageSize: '100', ...query } })
      expect(r.body.code, r.raw).toBe(200)
      return r.body.data
    }

    it('lists stock by product and warehouse with product details and filters', async () => {
      const all = await page<StockRow>('/stock/product/query')
      expect(all.totalCount).toBe(6)
      const a1 = all.datas.find((d) => d.productCode === 'A001' && d.scCode === 'SC01')!
      expect(a1).toMatchObject({
        productName: '矿泉水',
        skuCode: 'SKU-A001',
        unit: '瓶',
        spec: '500ml',
        categoryName: '饮料',
        brandName: '星云',
        scName: '一号仓',
        stockNum: 7,
        taxPrice: '11.000000',
        taxAmount: '77.00',
      })
      expect((await page<StockRow>('/stock/product/query', { scId: ids.sc2 })).datas.map((d) => d.productCode)).toEqual(['A001', 'A002'])
      expect((await page<StockRow>('/stock/product/query', { productCode: 'a00', scId: ids.sc1 })).totalCount).toBe(2)
      expect((await page<StockRow>('/stock/product/query', { productName: '薯' })).datas.map((d) => d.productCode)).toEqual(['B001'])
      expect((await page<StockRow>('/stock/product/query', { categoryId: ids.category2 })).totalCount).toBe(1)
      expect((await page<StockRow>('/stock/product/query', { brandId: `${ids.brand},${ids.brand2}` })).totalCount).toBe(6)
      const paged = await page<StockRow>('/stock/product/query', { pageSize: '2', pageIndex: '3' })
      expect([paged.totalCount, paged.datas.length]).toEqual([6, 2])
      expect((await page<StockRow>('/stock/product/query', { productCode: "x' or '1'='1" })).totalCount).toBe(0)
    })

    it('exports the stock list as a spreadsheet', async () => {
      for (const method of ['GET', 'POST'] as const) {
        const r = await t.call(method, '/stock/product/export', { token, query: { scId: ids.sc1 } })
        expect(r.status).toBe(200)
        expect(String(r.headers['content-type'])).toContain('spreadsheetml')
        const book = new ExcelJS.Workbook()
        await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
        const sheet = book.worksheets[0]
        expect(sheet.getRow(1).values).toContain('含税成本价')
        expect(sheet.rowCount).toBe(1 + 4)
      }
    })

    it('lists and exports the stock log and the lots (inbound moves)', async () => {
      const log = await page<LogRow>('/stock/product/log/query', { productCode: 'A001', scId: ids.sc1 })
      expect(log.totalCount).toBe(5)
      expect(log.datas[0]).toMatchObject({ bizCode: 'CG200', bizTypeName: '采购入库', oriStockNum: 0, stockNum: 7, curStockNum: 7, taxAmount: '77.00' })
      expect((await page<LogRow>('/stock/product/log/query', { bizType: String(BIZ.SALE), productCode: 'A001' })).totalCount).toBe(2)
      const lots = await page<{ lotCode: string; stockNum: number; taxPrice: string; taxAmount: string }>('/stock/lot/query', { productCode: 'A001' })
      expect(lots.datas.map((l) => [l.lotCode, l.stockNum, l.taxPrice, l.taxAmount]).sort()).toEqual([
        ['CG001', 10, '12.500000', '125.00'],
        ['CG002', 5, '13.990000', '69.95'],
        ['CG200', 7, '11.000000', '77.00'],
        ['CG201', 4, '10.000000', '40.00'],
      ])
      expect((await page('/stock/lot/query', { lotCode: 'CG20' })).totalCount).toBe(2)
      for (const url of ['/stock/product/log/export', '/stock/lot/export']) {
        const r = await t.call('POST', url, { token, body: { productCode: 'A001' } })
        expect([r.status, String(r.headers['content-type']).includes('spreadsheetml')]).toEqual([200, true])
      }
    })

    it('answers a product stock in every warehouse, and a bundle as min(component stock / bundleNum)', async () => {
      const details = async (query: Record<string, string>) =>
        (await t.call<{ stockNum: number; stocks: { scCode: string; stockNum: number; taxPrice?: string }[]; bundles?: unknown[] }>(
          'GET',
          '/stock/product/stockProductDetails',
          { token, query },
        )).body
      const a = await details({ productId: ids.a })
      expect(a.data.stockNum).toBe(11)
      expect(a.data.stocks.map((s) => [s.scCode, s.stockNum, s.taxPrice])).toEqual([
        ['SC01', 7, '11.000000'],
        ['SC02', 4, '10.000000'],
      ])
      // SC01: A 7/2 = 3, B 5/1 = 5 → 3; SC02: A 4/2 = 2, B 2/1 = 2 → 2
      const k = await details({ productId: ids.bundle })
      expect(k.data.stocks.map((s) => [s.scCode, s.stockNum])).toEqual([
        ['SC01', 3],
        ['SC02', 2],
      ])
      expect(k.data.stockNum).toBe(5)
      expect(k.data.bundles).toHaveLength(2)
      expect((await details({ productId: ids.bundle, scId: ids.sc2 })).data.stockNum).toBe(2)
      expect((await details({})).msg).toBe('请选择商品！')
    })

    it('keeps serial numbers per product and warehouse, unique, with Chinese messages', async () => {
      const save = (body: Record<string, unknown>) => t.call<string>('POST', '/stock/product/saveOrUpdateSerialize', { token, body })
      const first = await save({ productId: ids.a, scId: ids.sc1, serialNo: 'SN-0001' })
      expect(first.body.code).toBe(200)
      expect((await save({ productId: ids.a, scId: ids.sc1, serialNo: 'SN-0002' })).body.code).toBe(200)
      expect((await save({ productId: ids.a, scId: ids.sc2, serialNo: 'SN-0001' })).body.msg).toBe('序列号已存在，请重新输入！')
      expect((await save({ productId: ids.a, scId: ids.sc1 })).body.msg).toBe('请输入序列号！')
      expect((await save({ scId: ids.sc1, serialNo: 'SN-9' })).body.msg).toBe('请选择商品！')
      expect((await save({ productId: ids.a, scId: ids.sc1, serialNo: 'S'.repeat(65) })).body.msg).toBe('序列号长度不能超过64个字符！')
      expect((await save({ productId: ids.bundle, scId: ids.sc1, serialNo: 'SN-K' })).body.msg).toBe(
        '商品（K001）饮料组合是组合商品，不能维护序列号！',
      )
      expect((await save({ id: first.body.data, productId: ids.a, scId: ids.sc1, serialNo: 'SN-0001A' })).body.code).toBe(200)
      const list = await page<{ serialNo: string; productName: string; scName: string }>('/stock/product/querySerialize', { productId: ids.a })
      expect(list.datas.map((d) => [d.serialNo, d.productName, d.scName])).toEqual([
        ['SN-0001A', '矿泉水', '一号仓'],
        ['SN-0002', '矿泉水', '一号仓'],
      ])
      const del = await t.call('DELETE', '/stock/product/delSerialize', { token, body: { ids: [first.body.data] } })
      expect(del.body.code).toBe(200)
      expect((await page('/stock/product/querySerialize', { productId: ids.a })).totalCount).toBe(1)
    })

    it('answers 4xx, never 5xx, to malformed calls', async () => {
      const calls: [string, string][] = [
        ['GET', '/stock/product/query'],
        ['GET', '/stock/product/export'],
        ['POST', '/stock/product/export'],
        ['GET', '/stock/product/log/query'],
        ['POST', '/stock/product/log/export'],
        ['GET', '/stock/lot/query'],
        ['GET', '/stock/lot/export'],
        ['GET', '/stock/product/querySerialize'],
        ['POST', '/stock/product/saveOrUpdateSerialize'],
        ['DELETE', '/stock/product/delSerialize'],
        ['GET', '/stock/product/stockProductDetails'],
      ]
      const payloads = ['{"id": ', '{"id": {"$gt": 1}, "ids": "x", "serialNo": [1], "productId": {"a": 1}}', '[null, 1, {}]']
      const queries = ['pageIndex=x&id=', 'createTimeStart=nope&productId=1&productId=2', 'categoryId=none&brandId=,,&bizType=abc']
      for (const [method, url] of calls)
        for (const payload of payloads)
          for (const query of queries) {
            const r = await t.app.inject({
              method: method as 'GET',
              url: `/cloud-api${url}?${query}`,
              headers: { 'x-auth-token': token, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
              payload: method === 'GET' ? undefined : payload,
            })
            expect(r.statusCode, `${method} ${url}?${query} ${payload}: ${r.body.slice(0, 200)}`).toBeLessThan(500)
          }
    })

    it('applies permission keys and the products data permission', async () => {
      const userId = await created('/system/user', { code: 'st01', name: '仓管', username: 'st01user', password: 'secret123', gender: 0, available: true })
      const roleId = await created('/system/role', { code: 'ST', name: '仓管A', available: true })
      await t.call('POST', '/system/user/role/setting', { token, body: { userIds: [userId], roleIds: [roleId] } })
      const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token, query: { roleId } })
      const menu = menus.body.data.find((m) => m.permission === 'stock:product:query')!
      await t.call('POST', '/system/role/menu/setting', { token, body: { roleIds: [roleId], menuIds: [menu.id] } })
      const clerk = await t.login('st01user', 'secret123')
      const codes = async () =>
        (await t.call<Page<StockRow>>('GET', '/stock/product/query', { token: clerk })).body.data.datas.map((d) => d.productCode)
      expect(await codes()).toHaveLength(6)
      // detail 8 = brand code; condition 0 = equals
      const tree = [{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 8, conditionType: 0, value: 'B02' }] }]
      const saved = await t.call('POST', '/system/data/permission/data/saveData', {
        token,
        body: { bizIds: [roleId], bizType: 0, permissionType: 1, permission: JSON.stringify(tree) },
      })
      expect(saved.body.code).toBe(200)
      expect(await codes()).toEqual(['B001'])
      expect((await t.call('GET', '/stock/product/export', { token: clerk })).status).toBe(403)
      expect((await t.call('GET', '/stock/product/log/query', { token: clerk })).status).toBe(403)
    })
  })
  describe('ledger integrity: for every product and warehouse Σ log quantity = stock quantity and Σ log amount = stock amount', () => {
    /** Σ of the log against the stock row, exactly (decimal text, never floats). */
    const balance = async (productId: string, scId: string) => {
      const rows = await logRows(productId, scId)
      const held = await currentStock(db, productId, scId)
      return {
        logNum: rows.reduce((n, r) => n + Number(r.stock_num), 0),
        logAmount: rows.reduce((a, r) => a.plus(String(r.tax_amount)), new Decimal(0)).toFixed(2),
        stockNum: held?.stockNum ?? 0,
        stockAmount: held?.taxAmount ?? '0.00',
      }
    }
    const expectBalanced = async (productId: string, scId: string, note: string) => {
      const b = await balance(productId, scId)
      expect([b.logNum, b.logAmount], note).toEqual([b.stockNum, b.stockAmount])
    }
    let serial = 0
    let writeOffs = 0
    const newProduct = async () => {
      serial++
      return created('/basedata/product', {
        code: `R${String(serial).padStart(3, '0')}`,
        name: `随机商品${serial}`,
        skuCode: `SKU-R${serial}`,
        categoryId: ids.category,
        brandId: ids.brand,
        productType: 1,
        taxRate: 17,
        saleTaxRate: 17,
        unit: '个',
        salePrice: '10.00',
        retailPrice: '12.00',
        purchasePrice: '1.00',
      })
    }

    it('writes off the residue when the quantity reaches 0 (receive 3 at 1.00, return 2 at 1.40, return 1 at 0.10)', async () => {
      const id = await newProduct()
      await tx((trx) => addStock(trx, ctx, { ...biz('WO-CG1'), productId: id, scId: ids.sc1, num: 3, taxPrice: '1.00' }))
      await tx((trx) => subStock(trx, ctx, { ...biz('WO-TH1', BIZ.PURCHASE_RETURN), productId: id, scId: ids.sc1, num: 2, taxAmount: '2.80' }))
      await tx((trx) => subStock(trx, ctx, { ...biz('WO-TH2', BIZ.PURCHASE_RETURN), productId: id, scId: ids.sc1, num: 1, taxAmount: '0.10' }))
      const rows = await logRows(id)
      expect(rows.map((r) => [r.biz_code, Number(r.stock_num), new Decimal(String(r.tax_amount)).toFixed(2), r.remark ?? null])).toEqual([
        ['WO-CG1', 3, '3.00', null],
        ['WO-TH1', -2, '-2.80', null],
        ['WO-TH2', -1, '-0.10', null],
        ['WO-TH2', 0, '-0.10', '库存数量为0，核销剩余库存金额'],
      ])
      expect(await currentStock(db, id, ids.sc1)).toEqual({ stockNum: 0, taxPrice: '0.200000', taxAmount: '0.00' })
      await expectBalanced(id, ids.sc1, 'write-off')
      const screen = await t.call<Page<LogRow & { remark: string | null }>>('GET', '/stock/product/log/query', { token, query: { productId: id } })
      expect(screen.body.data.datas.map((d) => d.remark)).toContain('库存数量为0，核销剩余库存金额')
      const lots = await t.call<Page<{ lotCode: string }>>('GET', '/stock/lot/query', { token, query: { productId: id } })
      expect(lots.body.data.datas.map((d) => d.lotCode)).toEqual(['WO-CG1'])
    })

    it('a return credited above the book value leaves value 0 and logs the difference', async () => {
      const id = await newProduct()
      await tx((trx) => addStock(trx, ctx, { ...biz('OV-CG1'), productId: id, scId: ids.sc1, num: 2, taxPrice: '1.00' }))
      await tx((trx) => subStock(trx, ctx, { ...biz('OV-TH1', BIZ.PURCHASE_RETURN), productId: id, scId: ids.sc1, num: 1, taxAmount: '5.00' }))
      expect(await currentStock(db, id, ids.sc1)).toEqual({ stockNum: 1, taxPrice: '0.000000', taxAmount: '0.00' })
      const last = (await logRows(id)).filter((r) => r.biz_code === 'OV-TH1').map((r) => [Number(r.stock_num), new Decimal(String(r.tax_amount)).toFixed(2)])
      expect(last).toEqual([
        [-1, '-5.00'],
        [0, '3.00'],
      ])
      await expectBalanced(id, ids.sc1, 'over-credited return')
    })

    /** A small deterministic generator, so a failing sequence can be replayed from its seed. */
    const random = (seed: number) => () => {
      seed = (seed + 0x6d2b79f5) | 0
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296
    }

    it.each([11, 2024, 77777])('holds after every move of a random sequence (seed %i) over two warehouses', async (seed) => {
      const next = random(seed)
      const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
      const cents = (hi: number) => new Decimal(int(0, hi * 100)).dividedBy(100).toFixed(2)
      const id = await newProduct()
      const places = [ids.sc1, ids.sc2]
      for (let step = 0; step < 40; step++) {
        const scId = places[int(0, 1)]
        const held = (await currentStock(db, id, scId))?.stockNum ?? 0
        const kind = held === 0 ? int(0, 1) : int(0, 5)
        const code = `RS${seed}-${step}`
        const note = `seed ${seed} step ${step} kind ${kind}`
        await tx(async (trx) => {
          if (kind === 0) await addStock(trx, ctx, { ...biz(code), productId: id, scId, num: int(1, 5), taxPrice: cents(3) })
          else if (kind === 1) await addStock(trx, ctx, { ...biz(code, BIZ.SALE_RETURN), productId: id, scId, num: int(1, 3) })
          else if (kind === 2 || kind === 3) await subStock(trx, ctx, { ...biz(code, BIZ.SALE), productId: id, scId, num: int(1, held) })
          else if (kind === 4)
            await subStock(trx, ctx, { ...biz(code, BIZ.PURCHASE_RETURN), productId: id, scId, num: int(1, held), taxAmount: cents(4) })
          else await adjustCost(trx, ctx, { ...biz(code, BIZ.STOCK_COST_ADJUST), productId: id, scId, taxPrice: new Decimal(int(0, 3_000_000)).dividedBy(1_000_000).toFixed(6) })
        })
        await expectBalanced(id, scId, note)
      }
      for (const scId of places) {
        await expectBalanced(id, scId, `seed ${seed} end`)
        writeOffs += (await logRows(id, scId)).filter((r) => r.remark).length
      }
    })

    it('holds for every product and warehouse of this ledger', async () => {
      const stocks = await db.selectFrom('tbl_product_stock').select(['product_id', 'sc_id']).execute()
      expect(stocks.length).toBeGreaterThan(5)
      // the random sequences reached zero with a residue (or over-credited a return) at least once
      expect(writeOffs).toBeGreaterThan(0)
      for (const s of stocks) await expectBalanced(String(s.product_id), String(s.sc_id), `${s.product_id}/${s.sc_id}`)
    })
  })
})
