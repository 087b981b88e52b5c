import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { multipart, workbook, type Cell, type ImportProgress } from '../support/import-files.js'
import { created, crmCustomer, salesperson } from '../support/crm-fixtures.js'

/**
 * Data permission narrows writes as it narrows reads (issue 27): a write whose result lies outside the
 * caller's scope, or that names a row outside it (an entity's reference, a document line, the source a
 * document follows, an import's code), is refused as if that row were missing, and nothing changes.
 * The clerk sees the products named `W…` (商品 model: 名称 starts with W) and the documents of the
 * parties coded `W…` (单据 model: 往来单位编号 starts with W); the `X…` rows exist but lie outside.
 */
describe('data permission under every write', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let f: TradeFixtures
  let xProduct: string
  let xSupplier: string
  let xCustomer: string

  const ORDER_HEADER = ['*仓库编号', '*供应商编号', '采购员编号', '预计到货日期', '*商品编号', '采购价', '*采购数量', '*是否赠品', '单据明细备注', '单据备注']
  const PRODUCT_HEADER = ['*编号', '*名称', '*SKU', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）']

  const db = () => t.app.services.databases.tenant(OPERATOR_TENANT_ID)
  /** Rows of every table a refused write could have touched: "nothing changed" is these counts and the rows read back. */
  const counts = async () => {
    const out: Record<string, number> = {}
    for (const table of ['base_data_product', 'tbl_purchase_order', 'tbl_purchase_order_detail', 'tbl_sale_order', 'tbl_receive_sheet', 'tbl_receive_sheet_detail']) {
      const r = await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
      out[table] = Number(r.n)
    }
    return out
  }
  const post = async (url: string, body: unknown, token = admin) => {
    const r = await t.call<string>('POST', url, { token, body })
    expect(r.body.code, `${url}: ${r.raw}`).toBe(200)
    return r.body.data
  }
  const refused = async (method: 'POST' | 'PUT', url: string, body: unknown, status: number, msg: string) => {
    const before = await counts()
    const r = await t.call(method, url, { token: clerk, body })
    expect(r.status, r.raw).toBe(status)
    expect(r.body.msg).toBe(msg)
    expect(await counts()).toEqual(before)
  }
  const productBody = (code: string, name: string) => ({ code, name, skuCode: `SKU${code}`, categoryId: f.categoryId, brandId: f.brandId, productType: 1, taxRate: 17, saleTaxRate: 17 })
  const orderBody = (extra: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
    scId: f.scA,
    supplierId: f.supplierId,
    products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00', ...line }],
    payTypes: [{ id: f.payTypeId, payAmount: '20.00' }],
    ...extra,
  })
  const saleBody = (extra: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
    scId: f.scA,
    customerId: f.customerId,
    products: [{ productId: f.p1, orderNum: 1, oriPrice: '15.00', taxPrice: '15.00', discountRate: '100', ...line }],
    payTypes: [{ id: f.payTypeId, payAmount: '15.00' }],
    ...extra,
  })
  const importAs = async (url: string, header: string[], rows: Cell[][]): Promise<ImportProgress> => {
    const { payload, contentType } = multipart('导入.xlsx', await workbook(header, rows))
    const started = await t.app.inject({ method: 'POST', url: `/cloud-api${url}`, headers: { 'x-auth-token': clerk, 'content-type': contentType }, payload })
    expect(started.statusCode, started.body).toBe(200)
    const id = (JSON.parse(started.body) as { data: string }).data
    for (let i = 0; i < 400; i++) {
      const task = (await t.call<ImportProgress>('GET', '/component/import/task', { token: clerk, query: { id } })).body.data
      if (task.finished) return task
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error('import task did not finish')
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin, 'W')
    xProduct = await post('/basedata/product', productBody('XP1', 'X外部商品'))
    xSupplier = await post('/basedata/supplier', { code: 'XS1', name: 'X外部供应商', mnemonicCode: 'XGYS', settleType: 1, manageType: 1 })
    xCustomer = await post('/basedata/customer', { code: 'XK1', name: 'X外部客户', mnemonicCode: 'XKH', settleType: 1 })

    const userId = await post('/system/user', { code: 'dpw01', name: '写入限权', username: 'dpw01user', password: 'secret123', gender: 0, available: true })
    const roleId = await post('/system/role', { code: 'DPW', name: '限W', available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const wanted = [
      'base-data:product:info:query', 'base-data:product:info:add', 'base-data:product:info:modify', 'base-data:product:info:import',
      'purchase:order:query', 'purchase:order:add', 'purchase:order:modify', 'purchase:order:import',
      'purchase:receive:query', 'purchase:receive:add',
      'sale:order:query', 'sale:order:add',
    ]
    const menuIds = menus.body.data.filter((m) => wanted.includes(m.permission ?? '')).map((m) => m.id)
    expect(menuIds.length).toBe(wanted.length)
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds } })
    clerk = await t.login('dpw01user', 'secret123')
    const tree = (children: unknown[]) => JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children }])
    const save = (permissionType: number, children: unknown[]) =>
      t.call('POST', '/system/data/permission/data/saveData', { token: admin, body: { bizIds: [roleId], bizType: 0, permissionType, permission: tree(children) } })
    // detail 2 = product name, detail 18 = party code; condition 9 = starts with.
    expect((await save(1, [{ nodeType: 2, detailId: 2, conditionType: 9, value: 'W' }])).body.code).toBe(200)
    expect((await save(2, [{ nodeType: 2, detailId: 18, conditionType: 9, value: 'W' }])).body.code).toBe(200)
  })
  afterAll(async () => t?.close())

  describe('the written row itself', () => {
    it('refuses to create a product outside the scope with 商品不存在！, and creates one inside', async () => {
      await refused('POST', '/basedata/product', productBody('WX2', 'X新商品'), 404, '商品不存在！')
      expect(await db().selectFrom('base_data_product').select('id').where('code', '=', 'WX2').execute()).toEqual([])
      const id = await post('/basedata/product', productBody('WN1', 'W新商品'), clerk)
      expect((await t.call('GET', '/basedata/product', { token: clerk, query: { id } })).status).toBe(200)
    })

    it('refuses to rename a product out of the scope, and keeps its name; a rename within it works', async () => {
      await refused('PUT', '/basedata/product', { id: f.p3, name: 'X改名' }, 404, '商品不存在！')
      expect((await t.call<{ name: string }>('GET', '/basedata/product', { token: admin, query: { id: f.p3 } })).body.data.name).toBe('W商品P3')
      const put = await t.call('PUT', '/basedata/product', { token: clerk, body: { id: f.p3, name: 'W改名' } })
      expect(put.status, put.raw).toBe(200)
      expect((await t.call<{ name: string }>('GET', '/basedata/product', { token: admin, query: { id: f.p3 } })).body.data.name).toBe('W改名')
    })

    it('refuses a document whose party lies outside the scope (supplier, customer), on create and on modify', async () => {
      await refused('POST', '/purchase/order', orderBody({ supplierId: xSupplier }), 404, '采购订单不存在！')
      await refused('POST', '/sale/order', saleBody({ customerId: xCustomer }), 404, '销售订单不存在！')
      const mine = await post('/purchase/order', orderBody(), clerk)
      await refused('PUT', '/purchase/order', { ...orderBody({ supplierId: xSupplier }), id: mine }, 404, '采购订单不存在！')
      const stored = await t.call<{ supplierId: string; details: { productId: string }[] }>('GET', '/purchase/order', { token: admin, query: { id: mine } })
      expect(stored.body.data.supplierId).toBe(f.supplierId)
      expect(stored.body.data.details.map((d) => d.productId)).toEqual([f.p1])
      expect((await t.call('POST', '/sale/order', { token: clerk, body: saleBody() })).status).toBe(200)
    })
  })

  it('refuses to disable a product out of a scope of enabled products (状态 = 启用), and keeps it enabled', async () => {
    const userId = await post('/system/user', { code: 'dpw02', name: '只看启用', username: 'dpw02user', password: 'secret123', gender: 0, available: true })
    const roleId = await post('/system/role', { code: 'DPW2', name: '限启用商品', available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const menuIds = menus.body.data.filter((m) => ['base-data:product:info:query', 'base-data:product:info:modify'].includes(m.permission ?? '')).map((m) => m.id)
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds } })
    const tree = JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 12, conditionType: 0, value: 'true' }] }])
    const saved = await t.call('POST', '/system/data/permission/data/saveData', { token: admin, body: { bizIds: [roleId], bizType: 0, permissionType: 1, permission: tree } })
    expect(saved.body.code, saved.raw).toBe(200)
    const enabledOnly = await t.login('dpw02user', 'secret123')
    const r = await t.call('PATCH', '/basedata/product/unable/batch', { token: enabledOnly, body: [f.p2] })
    expect(r.status, r.raw).toBe(404)
    expect(r.body.msg).toBe('商品不存在！')
    expect((await t.call<{ available: boolean }>('GET', '/basedata/product', { token: admin, query: { id: f.p2 } })).body.data.available).toBe(true)
    const renamed = await t.call('PUT', '/basedata/product', { token: enabledOnly, body: { id: f.p2, name: 'W商品P2改' } })
    expect(renamed.status, renamed.raw).toBe(200)
  })

  describe('the rows a write names', () => {
    it('refuses a document line with a product outside the scope exactly as one with a missing product', async () => {
      const missing = await t.call('POST', '/purchase/order', { token: clerk, body: orderBody({}, { productId: 'no-such-product' }) })
      expect(missing.status).toBe(400)
      expect(missing.body.msg).toBe('商品不存在')
      await refused('POST', '/purchase/order', orderBody({}, { productId: xProduct }), 400, '商品不存在')
      await refused('POST', '/sale/order', saleBody({}, { productId: xProduct }), 400, '商品不存在')
      const mine = await post('/purchase/order', orderBody(), clerk)
      await refused('PUT', '/purchase/order', { ...orderBody({}, { productId: xProduct }), id: mine }, 400, '商品不存在')
      const stored = await t.call<{ details: { productId: string }[] }>('GET', '/purchase/order', { token: admin, query: { id: mine } })
      expect(stored.body.data.details.map((d) => d.productId)).toEqual([f.p1])
    })

    it('refuses a bundle made of a product outside the scope exactly as one of a missing product', async () => {
      const bundle = (productId: string) => ({
        ...productBody('WK9', 'W组合'),
        productType: 2,
        salePrice: '1.00',
        retailPrice: '1.00',
        productBundles: [{ productId, bundleNum: 1, salePrice: '1.00', retailPrice: '1.00' }],
      })
      const missing = await t.call('POST', '/basedata/product', { token: clerk, body: bundle('no-such-product') })
      expect(missing.status).toBe(400)
      expect(missing.body.msg).toBe('第1行单品：单品不存在！')
      await refused('POST', '/basedata/product', bundle(xProduct), 400, '第1行单品：单品不存在！')
      expect(await db().selectFrom('base_data_product').select('id').where('code', '=', 'WK9').execute()).toEqual([])
      expect((await t.call('POST', '/basedata/product', { token: clerk, body: bundle(f.p1) })).status).toBe(200)
    })

    it('refuses to follow a source document outside the scope exactly as a missing one; one inside is followed', async () => {
      const outside = await post('/purchase/order/approve/pass/direct', orderBody({ supplierId: xSupplier }))
      const inside = await post('/purchase/order/approve/pass/direct', orderBody())
      const lineOf = async (id: string) => (await t.call<{ details: { id: string }[] }>('GET', '/purchase/order', { token: admin, query: { id } })).body.data.details[0].id
      const receive = (orderId: string, lineId: string) => ({ purchaseOrderId: orderId, products: [{ productId: f.p1, orderNum: 1, purchaseOrderDetailId: lineId }] })
      const missing = await t.call('POST', '/purchase/receive/sheet', { token: clerk, body: receive('no-such-order', 'no-such-line') })
      expect(missing.status).toBe(400)
      expect(missing.body.msg).toBe('采购订单不存在')
      await refused('POST', '/purchase/receive/sheet', receive(outside, await lineOf(outside)), 400, '采购订单不存在')
      // Its loader answers as for a missing order too.
      const loaded = await t.call('GET', '/purchase/order/receive', { token: clerk, query: { id: outside } })
      expect(loaded.status).toBe(404)
      expect(loaded.body.msg).toBe('采购订单不存在！')
      const id = await post('/purchase/receive/sheet', receive(inside, await lineOf(inside)), clerk)
      expect((await t.call('GET', '/purchase/receive/sheet', { token: clerk, query: { id } })).status).toBe(200)
    })

    it('imports: a code outside the scope is the row\'s reason, as a missing code; a created row outside is refused; rows inside are written', async () => {
      const before = await counts()
      const orders = await importAs('/purchase/order/import', ORDER_HEADER, [
        ['WSCA', 'WS1', '', '', 'XP1', '10', 2, '否', '', ''],
        ['WSCB', 'WS1', '', '', 'NOSUCH', '10', 2, '否', '', ''],
      ])
      expect(orders.tipMsgs).toEqual(['第2行：商品编号“XP1”不存在', '第3行：商品编号“NOSUCH”不存在'])
      const party = await importAs('/purchase/order/import', ORDER_HEADER, [['WSCA', 'XS1', '', '', 'WP1', '10', 2, '否', '', '']])
      expect(party.tipMsgs).toEqual(['第2行：采购订单不存在！'])
      const products = await importAs('/basedata/product/import', PRODUCT_HEADER, [['WX3', 'X导入商品', 'SKUWX3', 'WC1', 'WB1', 17, 17]])
      expect(products.tipMsgs).toEqual(['第2行：商品不存在！'])
      expect(await counts()).toEqual(before)
      const fine = await importAs('/purchase/order/import', ORDER_HEADER, [['WSCA', 'WS1', '', '', 'WP1', '10', 2, '否', '', '']])
      expect(fine).toMatchObject({ hasError: false, tipMsgs: [] })
      const written = await importAs('/basedata/product/import', PRODUCT_HEADER, [['WX4', 'W导入商品', 'SKUWX4', 'WC1', 'WB1', 17, 17]])
      expect(written).toMatchObject({ hasError: false, tipMsgs: [] })
      expect(await counts()).toMatchObject({ tbl_purchase_order: before.tbl_purchase_order + 1, base_data_product: before.base_data_product + 1 })
    })
  })

  describe('contacts follow their customer', () => {
    it('salesperson B neither lists, opens, changes nor adds contacts of A\'s customer; A does', async () => {
      const keys = ['crm:customer:query', 'crm:customer:add', 'crm:contact:query', 'crm:contact:add', 'crm:contact:modify']
      const a = await salesperson(t, admin, 'dpwsalesa', [], keys)
      const b = await salesperson(t, admin, 'dpwsalesb', [], keys)
      const customerA = await crmCustomer(t, a.token, 'A的客户')
      const customerB = await crmCustomer(t, b.token, 'B的客户')
      const contactA = await created(t, a.token, '/crm/contact/createContact', { name: '甲联系人', customerId: customerA })
      const contactB = await created(t, b.token, '/crm/contact/createContact', { name: '乙联系人', customerId: customerB })
      const listed = async (token: string, query: Record<string, string> = {}) =>
        (await t.call<{ datas: { id: string }[] }>('GET', '/crm/contact/query', { token, query })).body.data.datas.map((d) => d.id)
      expect(await listed(b.token)).toEqual([contactB])
      expect(await listed(b.token, { customerId: customerA })).toEqual([])
      expect(await listed(a.token)).toEqual([contactA])
      const ofCustomer = await t.call<{ datas: unknown[] }>('GET', '/crm/contact/queryPageResult', { token: b.token, query: { customerId: customerA } })
      expect(ofCustomer.body.data.datas).toEqual([])
      const contacts = async () => (await db().selectFrom('crm_contact').select(['id', 'name', 'customer_id']).orderBy('id').execute())
      const before = await contacts()
      // A's contact is missing to B; A's customer too, when B names it in a contact.
      for (const [method, url, body, query, status, msg] of [
        ['GET', '/crm/contact/getContactDetail', undefined, { id: contactA }, 404, '联系人不存在！'],
        ['POST', '/crm/contact/upateContact', { id: contactA, name: '改了' }, undefined, 404, '联系人不存在！'],
        ['POST', '/crm/contact/createContact', { name: '混进来', customerId: customerA }, undefined, 400, '客户不存在'],
        ['POST', '/crm/contact/upateContact', { id: contactB, customerId: customerA }, undefined, 400, '客户不存在'],
      ] as const) {
        const r = await t.call(method, url, { token: b.token, body, query })
        expect(r.status, `${url}: ${r.raw}`).toBe(status)
        expect(r.body.msg).toBe(msg)
      }
      expect(await contacts()).toEqual(before)
      expect((await t.call('GET', '/crm/contact/getContactDetail', { token: a.token, query: { id: contactA } })).status).toBe(200)
      const all = await t.call<{ totalCount: number }>('GET', '/crm/contact/query', { token: admin })
      expect(all.body.data.totalCount).toBe(2)
    })
  })
})
