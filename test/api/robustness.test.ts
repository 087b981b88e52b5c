import http from 'node:http'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers } from '../support/sale-helpers.js'

/**
 * Nothing answers 5xx to a client's mistake (security issue 11, Robustness): body size, the decimal
 * grammar, line counts, quantities and amounts beyond their columns, page numbers, control characters in
 * conditions, and the short-stock message of a document with two lines of one product. Each refusal is a
 * 4xx with the exact Chinese message, and nothing is written.
 */
describe('robustness: a client mistake is a clear 4xx and changes nothing', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const { call, ok, stock, stockIn, db } = saleHelpers(() => t, () => token)
  const orders = async () => Number((await db().selectFrom('tbl_purchase_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n)
  const orderLines = async () =>
    Number((await db().selectFrom('tbl_purchase_order_detail').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n)
  const order = (products: Record<string, unknown>[]) => ({ scId: f.scA, supplierId: f.supplierId, products })
  const line = (extra: Record<string, unknown> = {}) => ({ productId: f.p1, orderNum: 1, taxPrice: '1.00', ...extra })

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'Z')
  })
  afterAll(async () => t?.close())

  describe('body size', () => {
    const tenMegabytes = () => JSON.stringify({ scId: 'x', supplierId: 'y', products: [line({ description: 'x'.repeat(10 * 1024 * 1024) })] })

    it('refuses a 10 MB JSON body with 413 in the envelope, and /healthz stays prompt meanwhile', async () => {
      const before = await orders()
      const big = tenMegabytes()
      const started = Date.now()
      const [refused, health] = await Promise.all([
        t.app.inject({ method: 'POST', url: '/cloud-api/purchase/order', headers: { 'x-auth-token': token, 'content-type': 'application/json' }, payload: big }),
        t.app.inject({ method: 'GET', url: '/healthz' }),
      ])
      expect(refused.statusCode).toBe(413)
      expect(refused.json()).toEqual({ code: 413, msg: '请求内容过大，不能超过1MB' })
      expect(health.statusCode).toBe(200)
      const after = await t.app.inject({ method: 'GET', url: '/healthz' })
      expect(after.json()).toMatchObject({ status: 'ok' })
      expect(Date.now() - started).toBeLessThan(3000)
      expect(await orders()).toBe(before)
    })

    it('over a real socket: a 10 MB upload is cut off with 413 and /healthz answers meanwhile', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = new URL(address)
      const big = Buffer.from(tenMegabytes())
      const refused = new Promise<{ status?: number; body: string }>((resolve) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'POST', path: '/cloud-api/purchase/order', headers: { 'x-auth-token': token, 'content-type': 'application/json', 'content-length': big.length } },
          (res) => {
            let body = ''
            res.on('data', (c) => (body += c))
            res.on('end', () => resolve({ status: res.statusCode, body }))
          },
        )
        // The server may close the socket before the client has written everything: that is the point.
        req.on('error', () => resolve({ body: '' }))
        req.end(big)
      })
      const started = Date.now()
      const health = await fetch(`${address}/healthz`)
      expect(health.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(2000)
      const answer = await refused
      if (answer.status !== undefined) {
        expect(answer.status).toBe(413)
        expect(JSON.parse(answer.body)).toEqual({ code: 413, msg: '请求内容过大，不能超过1MB' })
      }
      expect((await fetch(`${address}/healthz`)).status).toBe(200)
    })

    it('refuses a streamed body without a length once it passes 1 MB', async () => {
      const chunk = Buffer.alloc(64 * 1024, 'a')
      let sent = 0
      const stream = new Readable({
        read() {
          sent += chunk.length
          this.push(sent > 10 * 1024 * 1024 ? null : chunk)
        },
      })
      const r = await t.app.inject({
        method: 'POST',
        url: '/cloud-api/purchase/order',
        headers: { 'x-auth-token': token, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        payload: stream,
      })
      expect(r.statusCode).toBe(413)
      expect(r.json()).toEqual({ code: 413, msg: '请求内容过大，不能超过1MB' })
    })

    it('takes an upload larger than 1 MB (multipart routes keep their own file limits)', async () => {
      const boundary = '----robust-boundary'
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        Buffer.from('....ftypmp42'),
        Buffer.alloc(3 * 1024 * 1024, 1),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      const r = await t.app.inject({
        method: 'POST',
        url: '/cloud-api/component/upload/video',
        headers: { 'x-auth-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      })
      expect(r.statusCode).toBe(200)
      expect(r.json().data).toMatch(/\/component\/upload\/video\/1000\/video-[0-9a-f]{32}\.mp4$/)
    })

    it('still takes a body just under 1 MB', async () => {
      const r = await call('POST', '/purchase/order', { ...order([line()]), padding: 'x'.repeat(1000 * 1000) })
      expect(r.status).toBe(200)
      expect(r.body.msg).toBe('操作成功！')
    })
  })

  describe('one strict decimal grammar', () => {
    it.each([
      [' 1.00 ', '必须为数字'],
      ['0x10', '必须为数字'],
      ['1e2', '必须为数字'],
      ['1,00', '必须为数字'],
      ['.5', '必须为数字'],
      ['Infinity', '必须为数字'],
      [true, '必须为数字'],
      [[1], '必须为数字'],
      ['1.234', '最多允许2位小数！'],
      ['100000000000000.00', '超出允许范围'],
    ])('taxPrice %j is a 400 naming the field and the line', async (taxPrice, message) => {
      const before = [await orders(), await orderLines()]
      const r = await call('POST', '/purchase/order', order([line(), line({ taxPrice })]))
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ code: 400, msg: `第2行商品采购价${message}`, field: 'taxPrice' })
      expect([await orders(), await orderLines()]).toEqual(before)
    })

    it('takes signs, digits and at most the declared places, as text or as a JSON number', async () => {
      const id = await ok<string>('POST', '/purchase/order', order([line({ taxPrice: '12.5' }), line({ taxPrice: 3.25 }), line({ taxPrice: '7.500' })]))
      const doc = await ok<{ totalAmount: string; details: { taxPrice: string }[] }>('GET', '/purchase/order', undefined, { id })
      expect(doc.details.map((d) => d.taxPrice)).toEqual(['12.50', '3.25', '7.50'])
      expect(doc.totalAmount).toBe('23.25')
    })
  })

  describe('line count', () => {
    it('refuses more than the declared 1000 lines with a clear 400', async () => {
      const before = [await orders(), await orderLines()]
      const r = await call('POST', '/purchase/order', order(Array.from({ length: 1001 }, () => line())))
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ code: 400, msg: '采购订单的商品不能超过1000行！' })
      expect([await orders(), await orderLines()]).toEqual(before)
    })

    it('stores the maximum of 1000 lines, created and modified, in order', async () => {
      const lines = Array.from({ length: 1000 }, (_, i) => line({ orderNum: i + 1 }))
      const id = await ok<string>('POST', '/purchase/order', order(lines))
      const doc = await ok<{ totalNum: number; details: { orderNum: number }[] }>('GET', '/purchase/order', undefined, { id })
      expect(doc.details.map((d) => d.orderNum)).toEqual(lines.map((l) => l.orderNum))
      expect(doc.totalNum).toBe(500500)
      await ok('PUT', '/purchase/order', { id, ...order(lines.slice(0, 999)) })
      expect(await db().selectFrom('tbl_purchase_order_detail').select('id').where('order_id', '=', id).execute()).toHaveLength(999)
    })

    it('approves a receive sheet of 1000 lines into the ledger', async () => {
      const lines = Array.from({ length: 1000 }, (_, i) => ({ productId: i % 2 ? f.p1 : f.p3, orderNum: 1, taxPrice: '0.50' }))
      const before = [await stock(f.p1, f.scB), await stock(f.p3, f.scB)]
      expect(before).toEqual([undefined, undefined])
      const id = await stockIn(f.scB, f.supplierId, lines)
      expect(await stock(f.p1, f.scB)).toMatchObject({ stockNum: 500, taxAmount: '250.00' })
      expect(await stock(f.p3, f.scB)).toMatchObject({ stockNum: 500, taxAmount: '250.00' })
      expect(await db().selectFrom('tbl_product_stock_log').select('id').where('biz_id', '=', id).execute()).toHaveLength(1000)
    })
  })

  describe('quantities and amounts within their columns', () => {
    it.each([
      [1e20, '第1行商品采购数量超出允许范围'],
      ['9007199254740993', '第1行商品采购数量超出允许范围'],
      [9007199254740993, '第1行商品采购数量超出允许范围'],
      ['1e3', '第1行商品采购数量必须为整数'],
      [1.5, '第1行商品采购数量必须为整数'],
    ])('orderNum %j is refused', async (orderNum, message) => {
      const before = [await orders(), await orderLines()]
      const r = await call('POST', '/purchase/order', order([line({ orderNum })]))
      expect([r.status, r.body.msg]).toEqual([400, message])
      expect([await orders(), await orderLines()]).toEqual(before)
    })

    it('refuses a total beyond its column (2147483647 × 99999999999999.99) before writing', async () => {
      const before = [await orders(), await orderLines()]
      const r = await call('POST', '/purchase/order', order([line({ orderNum: 2147483647, taxPrice: '99999999999999.99' })]))
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ msg: '总金额超出允许范围', field: 'totalAmount' })
      const many = await call('POST', '/purchase/order', order(Array.from({ length: 2 }, () => line({ orderNum: Number.MAX_SAFE_INTEGER, taxPrice: '0' }))))
      expect([many.status, many.body.msg]).toEqual([400, '赠品数量超出允许范围'])
      expect([await orders(), await orderLines()]).toEqual(before)
    })

    it.each(['/purchase/order/query', '/basedata/supplier/query', '/stock/product/query', '/stock/product/log/query', '/system/notice/query'])(
      'pageIndex=99999999999999999999 on %s answers an empty page',
      async (url) => {
        const r = await t.call<{ datas: unknown[] }>('GET', url, { token, query: { pageIndex: '99999999999999999999', pageSize: '500' } })
        if (r.status === 404) throw new Error(`${url} is not a route`)
        expect([r.status, r.body.code]).toEqual([200, 200])
        expect(r.body.data.datas).toEqual([])
      },
    )
  })

  describe('control characters in conditions', () => {
    it('refuses a NUL byte anywhere in a request (it matched every row in a LIKE filter)', async () => {
      const all = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token })
      expect(all.body.data.totalCount).toBeGreaterThan(0)
      const nul = await t.call('GET', '/basedata/supplier/query', { token, query: { name: '\u0000' } })
      expect([nul.status, nul.body.msg]).toEqual([400, '请求参数不能包含空字符（\\0）'])
      const before = [await orders(), await orderLines()]
      const inBody = await call('POST', '/purchase/order', order([line({ description: 'a\u0000b' })]))
      expect([inBody.status, inBody.body.msg]).toEqual([400, '请求参数不能包含空字符（\\0）'])
      const inKey = await call('POST', '/purchase/order', { ...order([line()]), ['x\u0000']: 1 })
      expect([inKey.status, inKey.body.msg]).toEqual([400, '请求参数不能包含空字符（\\0）'])
      expect([await orders(), await orderLines()]).toEqual(before)
    })

    it.each(['\u0001', 'a\u001bb', '\n', '\u007f'])('refuses the control character %j in a text condition, naming the field', async (text) => {
      const r = await t.call('GET', '/basedata/supplier/query', { token, query: { name: text } })
      expect([r.status, r.body.msg, r.body.field]).toEqual([400, '名称不能包含控制字符', 'name'])
    })

    it('refuses nesting deeper than 128 levels without exhausting the stack', async () => {
      const deep = `{"products": ${'['.repeat(10000)}${']'.repeat(10000)}}`
      const r = await t.app.inject({
        method: 'POST',
        url: '/cloud-api/purchase/order',
        headers: { 'x-auth-token': token, 'content-type': 'application/json' },
        payload: deep,
      })
      expect(r.statusCode).toBe(400)
      expect(r.json()).toMatchObject({ code: 400, msg: '请求参数嵌套层级过深' })
      const nested = JSON.parse(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`)
      const shallowEnough = await call('POST', '/purchase/order', { ...order([line()]), nested })
      expect(shallowEnough.body.msg).toBe('操作成功！')
    })
  })

  describe('short stock of a document with two lines of one product', () => {
    it('names the stock before the document and the quantity the whole document needs', async () => {
      await stockIn(f.scA, f.supplierId, [{ productId: f.p2, orderNum: 100, taxPrice: '2.00' }])
      const before = await stock(f.p2, f.scA)
      expect(before?.stockNum).toBe(100)
      const id = await ok<string>('POST', '/retail/out/sheet', {
        scId: f.scA,
        products: [
          { productId: f.p2, orderNum: 100, taxPrice: '3.00' },
          { productId: f.p2, orderNum: 1, taxPrice: '3.00' },
        ],
      })
      const r = await call('PATCH', '/retail/out/sheet/approve/pass', { id })
      expect([r.status, r.body.msg]).toEqual([400, '商品（ZP2）Z商品P2当前库存为100，本单共需出库101，库存不足，无法出库！'])
      expect(await stock(f.p2, f.scA)).toEqual(before)
      expect(await db().selectFrom('tbl_product_stock_log').select('id').where('biz_id', '=', id).execute()).toEqual([])
      const sheet = await ok<{ status: number }>('GET', '/retail/out/sheet', undefined, { id })
      expect(sheet.status).toBe(0)
    })
  })
})
