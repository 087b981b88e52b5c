import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { buildLowcodeFixture } from '../support/lowcode-fixtures.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

/**
 * Promises of the specification that held without a test asserting them (issue 30, "Tests for what
 * already works"), server side: the purchase order's end-early and approve-judge checks, and the
 * filters of the product, purchase-order and receive-sheet pickers (000 §7 Pickers), and a custom
 * list's export without the browser's selection columns (001 §2).
 */
type Query = Record<string, string | number | boolean | undefined>

describe('spec promises kept (API)', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  let me: string
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, query?: Query) => {
    const r = await t.call<T>(method, url, { token, body, query })
    expect(r.body.code, `${method} ${url}: ${r.body.msg}`).toBe(200)
    return r.body.data
  }
  const codes = async (url: string, query: Query) =>
    (await ok<{ datas: { code: string }[] }>('GET', url, undefined, { pageSize: 100, ...query })).datas.map((r) => r.code).sort()

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'K')
    me = (await ok<{ id: string }>('GET', '/center/info')).id
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
  })
  afterAll(async () => t?.close())

  const order = (extra: Record<string, unknown> = {}) => ({
    scId: f.scA,
    supplierId: f.supplierId,
    products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }],
    payTypes: [{ id: f.payTypeId, payAmount: '20.00' }],
    ...extra,
  })
  const status = async (id: string) => (await ok<{ status: number }>('GET', '/purchase/order', undefined, { id })).status

  describe('purchase order end-early and approve-judge (000 §4, 001 §7)', () => {
    it('ends an approved order early: status 10 (terminated) with a timeline entry; nothing else may end', async () => {
      const approved = await ok<string>('POST', '/purchase/order/approve/pass/direct', order())
      await ok('GET', '/purchase/order/endEarly', undefined, { id: approved })
      expect(await status(approved)).toBe(10)
      const timeline = await ok<{ content: string }[]>('GET', '/component/timeline/order', undefined, { orderId: approved })
      expect(timeline.map((e) => e.content)).toContain('提前结束')

      const created = await ok<string>('POST', '/purchase/order', order())
      for (const id of [created, approved]) {
        const before = await status(id)
        const r = await t.call('GET', '/purchase/order/endEarly', { token, query: { id } })
        expect(r.status).toBe(400)
        expect(r.body.msg).toBe('只有审核通过或部分收货的采购订单才允许提前结束！')
        expect(await status(id)).toBe(before)
      }
    })

    it('a pending order with matching agreed payments passes the approve judge; an approved one does not', async () => {
      const created = await ok<string>('POST', '/purchase/order', order())
      expect(await ok<boolean>('GET', '/purchase/order/approveJudge', undefined, { id: created })).toBe(true)
      expect(await status(created)).toBe(0)
      await ok('PATCH', '/purchase/order/approve/pass', { id: created })
      const r = await t.call('GET', '/purchase/order/approveJudge', { token, query: { id: created } })
      expect(r.body.msg).toBe('采购订单已审核通过，不允许继续执行审核！')
    })
  })

  describe('picker filters (000 §7 Pickers)', () => {
    it('the product picker filters by short name, SKU code, category, brand, created-date range and product type', async () => {
      const category = await ok<string>('POST', '/basedata/product/category', { code: 'KXC', name: 'K筛选类目' })
      const brand = await ok<string>('POST', '/basedata/product/brand', { code: 'KXB', name: 'K筛选品牌' })
      await ok('POST', '/basedata/product', {
        code: 'KX1', name: 'K筛选商品', shortName: 'K短名', skuCode: 'KXSKU1', categoryId: category, brandId: brand, productType: 1,
        taxRate: 13, saleTaxRate: 13, purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00',
      })
      const all = await codes('/selector/product', { code: 'K' })
      expect(all).toEqual(expect.arrayContaining(['KP1', 'KK1', 'KX1']))
      expect(await codes('/selector/product', { shortName: 'K短' })).toEqual(['KX1'])
      expect(await codes('/selector/product', { skuCode: 'KXSKU' })).toEqual(['KX1'])
      expect(await codes('/selector/product', { categoryId: category })).toEqual(['KX1'])
      expect(await codes('/selector/product', { brandId: brand })).toEqual(['KX1'])
      expect(await codes('/selector/product', { code: 'K', productType: 2 })).toEqual(['KK1'])
      expect(await codes('/selector/product', { code: 'K', createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2000-12-31 23:59:59' })).toEqual([])
      expect(await codes('/selector/product', { code: 'K', createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2999-12-31 23:59:59' })).toEqual(all)
    })

    it.each([
      ['/selector/purchaseorder', '/purchase/order'],
      ['/selector/receivesheet', '/purchase/receive/sheet'],
    ])('%s filters by warehouse, supplier, operator, operation date range and status', async (picker, base) => {
      const lines = [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }]
      const body = (extra: Record<string, unknown>) => (base === '/purchase/order' ? order(extra) : { scId: f.scA, supplierId: f.supplierId, products: lines, ...extra })
      const code = async (id: string) => (await ok<{ code: string }>('GET', base, undefined, { id })).code
      const mine = await code(await ok<string>('POST', `${base}/approve/pass/direct`, body({ purchaserId: me })))
      // Both approved: a picker over a document that others follow offers only approved ones with something left.
      const otherPlace = await code(await ok<string>('POST', `${base}/approve/pass/direct`, body({ scId: f.scB, supplierId: f.codSupplierId })))
      const ours = [mine, otherPlace].sort()
      const within = (q: Query) => codes(picker, q).then((got) => got.filter((c) => ours.includes(c)))

      expect(await within({})).toEqual(ours)
      expect(await within({ scId: f.scB })).toEqual([otherPlace])
      expect(await within({ supplierId: f.supplierId })).toEqual([mine])
      expect(await within({ purchaserId: me, scId: f.scA })).toEqual([mine])
      expect(await within({ status: 3 })).toEqual(ours)
      expect(await within({ status: 0 })).toEqual([])
      expect(await within({ createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2000-12-31 23:59:59' })).toEqual([])
      expect(await within({ createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2999-12-31 23:59:59' })).toEqual(ours)
    })
  })

  describe('custom list export (001 §2)', () => {
    let fx: Awaited<ReturnType<typeof buildLowcodeFixture>>
    beforeAll(async () => {
      fx = await buildLowcodeFixture(t, token)
    })

    it.each([
      [0, 'sequence'],
      [1, 'single choice (radio)'],
      [2, 'multiple choice (checkbox)'],
    ])('list type %i (%s): the export has the list fields only, no 序号 or choice column', async (listType) => {
      const listId = await fx.created('/gen/custom/list', { ...fx.listBody, name: `导出${listType}`, listType })
      const file = await t.call('POST', '/gen/api/custom/list/query/list/export', { token, query: { id: listId }, body: { conditions: [] } })
      expect(file.status).toBe(200)
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(file.rawPayload as never)
      const sheet = book.worksheets[0]
      expect(sheet.getRow(1).values).toEqual([undefined, '编号', '商品名称', '零售价', '状态', '类目', '双倍零售价'])
      expect(sheet.getRow(2).cellCount).toBe(6)
    })
  })
})
