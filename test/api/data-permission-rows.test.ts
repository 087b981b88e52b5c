import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PURCHASE_ORDER_STATUS as STATUS } from '../../src/shared/generated/enum-codes.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

/**
 * A data permission narrows every row-level call, not only the lists (issue 11): a restricted user
 * who names an out-of-scope product or document by id gets the not-found answer of a missing row, and
 * nothing changes (read back as admin); a batch holding one such id changes nothing at all. Rows in
 * scope still work. Control characters in a saved value are refused and never widen a predicate.
 */
describe('data permission under every row-level call', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let roleId: string
  let f: TradeFixtures
  const p: Record<string, string> = {}
  const o: Record<string, string> = {}

  const created = async (url: string, body: unknown, token = admin) => {
    const r = await t.call<string>('POST', url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const tree = (children: unknown[]) => JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children }])
  const save = (permissionType: number, children: unknown[]) =>
    t.call('POST', '/system/data/permission/data/saveData', { token: admin, body: { bizIds: [roleId], bizType: 0, permissionType, permission: tree(children) } })
  const product = (code: string) =>
    created('/basedata/product', { code, name: `商品${code}`, skuCode: `SKU${code}`, categoryId: f.categoryId, brandId: f.brandId, productType: 1, taxRate: 17, saleTaxRate: 17 })
  const order = (url = '/purchase/order') =>
    created(url, { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }], payTypes: [{ id: f.payTypeId, payAmount: '20.00' }] })
  const asAdmin = async <T = Record<string, unknown>>(url: string, id: string) => t.call<T>('GET', url, { token: admin, query: { id } })

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    // Fixture products are MAPP1, MAPP2, MAPP3 and the bundle MAPK1: all inside "code starts with MAP".
    f = await createTradeFixtures(t, admin, 'MAP')
    for (const code of ['MAHIDE', 'MAHIDE2', 'MAHIDEOFF', 'MAPDEL', 'MAPDEL2', 'MAPOFF']) p[code] = await product(code)
    await t.call('PATCH', '/basedata/product/unable/batch', { token: admin, body: [p.MAHIDEOFF, p.MAPOFF] })

    // Orders made before the cut are outside the clerk's scope, those after it inside.
    o.out = await order()
    o.outApproved = await order('/purchase/order/approve/pass/direct')
    o.outBatch = await order()
    o.saleOut = await created('/sale/order', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }], payTypes: [{ id: f.payTypeId, payAmount: '10.00' }] })
    // The cut is the creation time of the last document made before it (the sale order): an earlier one
    // could fall a second before a later "outside" document, which would then count as inside.
    const cut = String((await asAdmin<{ createTime: string }>('/sale/order', o.saleOut)).body.data.createTime)
    // Creation times have whole seconds: anything made over a second later is strictly after the cut.
    await new Promise((r) => setTimeout(r, 1100))
    o.in = await order()
    o.inBatch = await order()
    o.inApproved = await order('/purchase/order/approve/pass/direct')
    o.inRefuse = await order()

    const userId = await created('/system/user', { code: 'dpr01', name: '行级限权', username: 'dpr01user', password: 'secret123', gender: 0, available: true })
    roleId = await created('/system/role', { code: 'DPR', name: '限MAP商品', available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const wanted = [
      'base-data:product:info:query', 'base-data:product:info:modify', 'base-data:product:info:delete', 'base-data:product:info:import',
      'purchase:order:query', 'purchase:order:modify', 'purchase:order:delete', 'purchase:order:approve',
      'purchase:order:cancel-approve', 'purchase:order:export', 'purchase:order:end-early',
      'sale:order:query', 'sale:order:add', 'sale:order:modify', 'sale:order:delete', 'sale:order:approve',
    ]
    const menuIds = menus.body.data.filter((m) => wanted.includes(m.permission ?? '')).map((m) => m.id)
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds } })
    clerk = await t.login('dpr01user', 'secret123')
    // detail 1 = product code, condition 9 = starts with; detail 17 = order creation time, condition 1 = after.
    expect((await save(1, [{ nodeType: 2, detailId: 1, conditionType: 9, value: 'MAP' }])).body.code).toBe(200)
    expect((await save(2, [{ nodeType: 2, detailId: 17, conditionType: 1, value: cut }])).body.code).toBe(200)
  })
  afterAll(async () => t?.close())

  describe('products', () => {
    const MISSING = '商品不存在！'
    const expectMissing = (r: { status: number; body: { msg: string } }) => {
      expect(r.status).toBe(404)
      expect(r.body.msg).toBe(MISSING)
    }
    const stored = async (id: string) => (await asAdmin<{ name: string; available: boolean }>('/basedata/product', id)).body.data

    it('answers 商品不存在！ to get, modify, delete, enable and disable of a product outside the scope, and changes nothing', async () => {
      expectMissing(await t.call('GET', '/basedata/product', { token: clerk, query: { id: p.MAHIDE } }))
      expectMissing(await t.call('PUT', '/basedata/product', { token: clerk, body: { id: p.MAHIDE, name: '改过了' } }))
      expectMissing(await t.call('DELETE', '/basedata/product', { token: clerk, body: { id: p.MAHIDE } }))
      expectMissing(await t.call('DELETE', '/basedata/product', { token: clerk, body: [p.MAHIDE] }))
      expectMissing(await t.call('PATCH', '/basedata/product/unable/batch', { token: clerk, body: [p.MAHIDE] }))
      expectMissing(await t.call('PATCH', '/basedata/product/enable/batch', { token: clerk, body: [p.MAHIDEOFF] }))
      expect(await stored(p.MAHIDE)).toMatchObject({ name: '商品MAHIDE', available: true })
      expect(await stored(p.MAHIDEOFF)).toMatchObject({ available: false })
    })

    it('is all-or-nothing: a batch with one id outside the scope changes none of the others', async () => {
      expectMissing(await t.call('DELETE', '/basedata/product', { token: clerk, body: [p.MAPDEL, p.MAHIDE2] }))
      expectMissing(await t.call('PATCH', '/basedata/product/unable/batch', { token: clerk, body: [p.MAPDEL, p.MAHIDE2] }))
      expectMissing(await t.call('PATCH', '/basedata/product/enable/batch', { token: clerk, body: [p.MAPOFF, p.MAHIDEOFF] }))
      expect(await stored(p.MAPDEL)).toMatchObject({ available: true })
      expect(await stored(p.MAHIDE2)).toMatchObject({ available: true })
      expect(await stored(p.MAPOFF)).toMatchObject({ available: false })
      expect(await stored(p.MAHIDEOFF)).toMatchObject({ available: false })
    })

    it('loads through the picker only the products in scope, as if the others did not exist', async () => {
      const loaded = await t.call<{ code: string }[]>('POST', '/selector/product/load', { token: clerk, body: [f.p1, p.MAHIDE, 'no-such-id'] })
      expect(loaded.status, loaded.raw).toBe(200)
      expect(loaded.body.data.map((r) => r.code)).toEqual(['MAPP1'])
      const all = await t.call<{ code: string }[]>('POST', '/selector/product/load', { token: admin, body: [f.p1, p.MAHIDE] })
      expect(all.body.data.map((r) => r.code).sort()).toEqual(['MAHIDE', 'MAPP1'])
    })

    // Master-data import rows are independent (issue 14): the out-of-scope row fails, the in-scope row is written.
    it('imports over a product outside the scope as over a missing one: that row fails and writes nothing', async () => {
      const HEADER = ['*编号', '*名称', '*SKU', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）']
      const importRows = async (rows: (string | number)[][]) => {
        const book = new ExcelJS.Workbook()
        const sheet = book.addWorksheet('数据')
        for (const row of [HEADER, ...rows]) sheet.addRow(row)
        const boundary = '----rows-test'
        const payload = Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
          Buffer.from(await book.xlsx.writeBuffer()),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ])
        const started = await t.app.inject({
          method: 'POST',
          url: '/cloud-api/basedata/product/import',
          headers: { 'x-auth-token': clerk, 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload,
        })
        expect(started.statusCode, started.body).toBe(200)
        const taskId = (JSON.parse(started.body) as { data: string }).data
        type Task = { finished: boolean; tipMsgs: string[]; data: { modified: number } | null }
        for (let i = 0; i < 400; i++) {
          const task = (await t.call<Task>('GET', '/component/import/task', { token: clerk, query: { id: taskId } })).body.data
          if (task.finished) return task
          await new Promise((r) => setTimeout(r, 25))
        }
        throw new Error('import task did not finish')
      }
      const failed = await importRows([
        ['MAHIDE', '导入改名', 'SKUMAHIDE', 'MAPC1', 'MAPB1', 17, 17],
        ['MAPP3', '导入改名', 'MAPSKUP3', 'MAPC1', 'MAPB1', 17, 17],
      ])
      expect(failed.tipMsgs).toEqual(['第2行：商品不存在！'])
      expect(await stored(p.MAHIDE)).toMatchObject({ name: '商品MAHIDE' })
      expect(await stored(f.p3)).toMatchObject({ name: '导入改名' })
      const done = await importRows([['MAPP3', '导入改名', 'MAPSKUP3', 'MAPC1', 'MAPB1', 17, 17]])
      expect(done).toMatchObject({ tipMsgs: [], data: { modified: 1 } })
      expect(await stored(f.p3)).toMatchObject({ name: '导入改名' })
    })

    it('still serves every call on products in scope', async () => {
      expect((await t.call('GET', '/basedata/product', { token: clerk, query: { id: p.MAPDEL } })).status).toBe(200)
      const put = await t.call('PUT', '/basedata/product', { token: clerk, body: { id: p.MAPDEL, name: '改名商品' } })
      expect(put.status, put.raw).toBe(200)
      expect(await stored(p.MAPDEL)).toMatchObject({ name: '改名商品' })
      expect((await t.call('PATCH', '/basedata/product/unable/batch', { token: clerk, body: [p.MAPDEL, p.MAPDEL2] })).status).toBe(200)
      expect(await stored(p.MAPDEL2)).toMatchObject({ available: false })
      expect((await t.call('PATCH', '/basedata/product/enable/batch', { token: clerk, body: [p.MAPDEL2] })).status).toBe(200)
      expect(await stored(p.MAPDEL2)).toMatchObject({ available: true })
      const del = await t.call('DELETE', '/basedata/product', { token: clerk, body: [p.MAPDEL, p.MAPDEL2] })
      expect(del.status, del.raw).toBe(200)
      expect((await asAdmin('/basedata/product', p.MAPDEL)).status).toBe(404)
    })
  })

  describe('documents (purchase orders, creation-time permission)', () => {
    const MISSING = '采购订单不存在！'
    const expectMissing = (r: { status: number; body: { msg: string } }) => {
      expect(r.status).toBe(404)
      expect(r.body.msg).toBe(MISSING)
    }
    const status = async (id: string) => {
      const r = await asAdmin<{ status: number; description: string | null }>('/purchase/order', id)
      expect(r.status, r.raw).toBe(200)
      return r.body.data.status
    }
    const modifyBody = (id: string) => ({
      id, scId: f.scA, supplierId: f.supplierId, description: '改过了',
      products: [{ productId: f.p2, orderNum: 3, taxPrice: '20.00' }], payTypes: [{ id: f.payTypeId, payAmount: '60.00' }],
    })

    it('answers 采购订单不存在！ to get, print, modify, delete, approve, refuse, cancel and end early of an order outside the scope', async () => {
      expectMissing(await t.call('GET', '/purchase/order', { token: clerk, query: { id: o.out } }))
      expectMissing(await t.call('GET', '/purchase/order/print', { token: clerk, query: { id: o.out } }))
      expectMissing(await t.call('PUT', '/purchase/order', { token: clerk, body: modifyBody(o.out) }))
      expectMissing(await t.call('DELETE', '/purchase/order', { token: clerk, body: { id: o.out } }))
      expectMissing(await t.call('PATCH', '/purchase/order/approve/pass', { token: clerk, body: { id: o.out } }))
      expectMissing(await t.call('PATCH', '/purchase/order/approve/refuse', { token: clerk, body: { id: o.out, refuseReason: '不行' } }))
      expectMissing(await t.call('PATCH', '/purchase/order/approve/cancel', { token: clerk, body: { id: o.outApproved } }))
      expectMissing(await t.call('GET', '/purchase/order/approveJudge', { token: clerk, query: { id: o.out } }))
      expectMissing(await t.call('GET', '/purchase/order/endEarly', { token: clerk, query: { id: o.outApproved } }))
      expect(await status(o.out)).toBe(STATUS.CREATED)
      expect(await status(o.outApproved)).toBe(STATUS.APPROVE_PASS)
      const admin0 = await asAdmin<{ details: { productId: string }[] }>('/purchase/order', o.out)
      expect(admin0.body.data.details.map((d) => d.productId)).toEqual([f.p1])
    })

    it('is all-or-nothing in batches: one order outside the scope and the ones inside stay as they were', async () => {
      for (const [url, body, method] of [
        ['/purchase/order/batch', [o.inBatch, o.outBatch], 'DELETE'],
        ['/purchase/order/approve/pass/batch', { ids: [o.inBatch, o.outBatch] }, 'PATCH'],
        ['/purchase/order/approve/refuse/batch', { ids: [o.inBatch, o.outBatch], refuseReason: '不行' }, 'PATCH'],
      ] as const) {
        const r = await t.call(method, url, { token: clerk, body })
        expect(r.status, url).toBe(400)
        expect(r.body.msg).toContain(MISSING)
      }
      expect(await status(o.inBatch)).toBe(STATUS.CREATED)
      expect(await status(o.outBatch)).toBe(STATUS.CREATED)
    })

    it('exports only the orders in scope', async () => {
      const codeOf = async (id: string) => String((await asAdmin<{ code: string }>('/purchase/order', id)).body.data.code)
      const every = await Promise.all([o.out, o.outApproved, o.outBatch, o.in, o.inBatch, o.inApproved, o.inRefuse].map(codeOf))
      const inside = every.slice(3)
      const exported = async (token: string) => {
        const r = await t.call('POST', '/purchase/order/export', { token, body: {} })
        expect(r.status, r.raw).toBe(200)
        const book = new ExcelJS.Workbook()
        await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
        const cells = new Set<string>()
        book.worksheets[0].eachRow((row) => (row.values as unknown[]).forEach((v) => cells.add(String(v))))
        return every.filter((code) => cells.has(code)).sort()
      }
      expect(await exported(clerk)).toEqual([...inside].sort())
      expect(await exported(admin)).toEqual([...every].sort())
    })

    it('still serves every action on orders in scope', async () => {
      expect((await t.call('GET', '/purchase/order', { token: clerk, query: { id: o.in } })).status).toBe(200)
      expect((await t.call('GET', '/purchase/order/print', { token: clerk, query: { id: o.in } })).status).toBe(200)
      const put = await t.call('PUT', '/purchase/order', { token: clerk, body: modifyBody(o.in) })
      expect(put.status, put.raw).toBe(200)
      const pass = await t.call('PATCH', '/purchase/order/approve/pass', { token: clerk, body: { id: o.in } })
      expect(pass.status, pass.raw).toBe(200)
      expect(await status(o.in)).toBe(STATUS.APPROVE_PASS)
      const cancel = await t.call('PATCH', '/purchase/order/approve/cancel', { token: clerk, body: { id: o.in } })
      expect(cancel.status, cancel.raw).toBe(200)
      expect(await status(o.in)).toBe(STATUS.CREATED)
      const refuse = await t.call('PATCH', '/purchase/order/approve/refuse', { token: clerk, body: { id: o.inRefuse, refuseReason: '价格不对' } })
      expect(refuse.status, refuse.raw).toBe(200)
      expect(await status(o.inRefuse)).toBe(STATUS.APPROVE_REFUSE)
      const del = await t.call('DELETE', '/purchase/order', { token: clerk, body: { id: o.in } })
      expect(del.status, del.raw).toBe(200)
      expect((await asAdmin('/purchase/order', o.in)).status).toBe(404)
    })
  })

  it('narrows every document kind the same way (a sale order), and the customer\'s last order offered', async () => {
    const missing = (r: { status: number; body: { msg: string } }) => {
      expect(r.status).toBe(404)
      expect(r.body.msg).toBe('销售订单不存在！')
    }
    missing(await t.call('GET', '/sale/order', { token: clerk, query: { id: o.saleOut } }))
    missing(await t.call('PATCH', '/sale/order/approve/pass', { token: clerk, body: { id: o.saleOut } }))
    missing(await t.call('PATCH', '/sale/order/approve/refuse', { token: clerk, body: { id: o.saleOut, refuseReason: '不行' } }))
    missing(await t.call('DELETE', '/sale/order', { token: clerk, body: { id: o.saleOut } }))
    const last = async (token: string) =>
      (await t.call<{ id: string } | null>('GET', '/sale/order/getCustomerLast', { token, query: { customerId: f.customerId } })).body.data
    expect(await last(clerk)).toBeNull()
    expect((await last(admin))?.id).toBe(o.saleOut)
    expect((await asAdmin<{ status: number }>('/sale/order', o.saleOut)).body.data.status).toBe(0)
  })

  describe('control characters in data-permission values', () => {
    const productCodes = async () =>
      (await t.call<{ datas: { code: string }[] }>('GET', '/basedata/product/query', { token: clerk, query: { pageSize: 100 } })).body.data.datas.map((d) => d.code)

    it('refuses NUL and other control characters when a permission is saved or previewed', async () => {
      for (const value of ['\u0000', 'MAP\u0000', 'MA\u0001P', '\u007f']) {
        // condition 8 = ends with: `%\u0000` was the pattern SQLite read as `%`.
        const r = await save(1, [{ nodeType: 2, detailId: 1, conditionType: 8, value }])
        expect(r.status, JSON.stringify(value)).toBe(400)
        expect(r.body.msg).toBe('节点：【编号】值不能包含控制字符')
      }
      const listed = await save(1, [{ nodeType: 2, detailId: 1, conditionType: 6, values: ['MAPP1', 'x\u0000'] }])
      expect(listed.status).toBe(400)
      const preview = await t.call('POST', '/system/data/permission/model/detail/preview', {
        token: admin,
        body: { modelId: 1, permission: tree([{ nodeType: 2, detailId: 1, conditionType: 8, value: '\u0000' }]) },
      })
      expect(preview.status).toBe(400)
      // The saved "starts with MAP" is untouched by the refused saves.
      expect((await productCodes()).every((c) => c.startsWith('MAP'))).toBe(true)
    })

    it('never widens: a stored value with NUL (saved before the check) matches no rows', async () => {
      const db = t.app.services.databases.tenant(OPERATOR_TENANT_ID)
      const stored = await db.selectFrom('sys_data_permission_data').select(['id']).where('biz_id', '=', roleId).where('permission_type', '=', 1).executeTakeFirstOrThrow()
      const nul = JSON.stringify([{ nodeType: 1, calcType: 1, children: [{ nodeType: 2, detailId: 1, conditionType: 8, value: 'x' }] }]).replace('"x"', '"\\u0000"')
      await db.updateTable('sys_data_permission_data').set({ permission: nul }).where('id', '=', stored.id).execute()
      // A change by hand reaches the process's kept data permissions through the table's trigger (PostgreSQL): a
      // notification, a few ms after the commit.
      const deadline = Date.now() + 5_000
      let codes = await productCodes()
      while (codes.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20))
        codes = await productCodes()
      }
      expect(codes).toEqual([])
      expect((await t.call('GET', '/basedata/product', { token: clerk, query: { id: f.p1 } })).status).toBe(404)
    })
  })
})
