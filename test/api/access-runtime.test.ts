import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { buildLowcodeFixture } from '../support/lowcode-fixtures.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { userWithMenus } from '../support/access-helpers.js'

type Page = { totalCount: number; datas: Record<string, unknown>[] }

/**
 * Who may call what (security issue 11): the low-code run time answers only to menus that open the
 * object, form handlers check the keys of what they write, pickers follow keys derived from schemas/,
 * the timeline, chart and notice content follow their documents, and a configuration GET never writes.
 */
describe('who may call the low-code run time, pickers, timeline and configurations', () => {
  let t: TestApp
  let admin: string
  let nobody: string
  let fx: Awaited<ReturnType<typeof buildLowcodeFixture>>
  let trade: TradeFixtures
  let userListId: string
  let noticeFormId: string
  let orderId: string

  const tenantDb = async () => t.app.services.databases.tenant((await t.app.services.tenantIds())[0])
  const count = async (table: string) => Number((await (await tenantDb()).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const menu = (code: string, componentType: number, component: string) =>
    fx.created('/system/menu', { code, title: `菜单${code}`, display: 1, componentType, component, path: `/acc/${code.toLowerCase()}`, available: true })

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    fx = await buildLowcodeFixture(t, admin)
    trade = await createTradeFixtures(t, admin)
    // The finding: a custom list over sys_user answers usernames and e-mails.
    const userEntity = await fx.created('/gen/data/entity/sync/table', { tableName: 'sys_user', name: '用户' })
    const userObj = await fx.created('/gen/data/obj', { name: '用户', mainTableId: userEntity, mainTableAlias: 'u' })
    userListId = await fx.created('/gen/custom/list', {
      name: '用户列表', dataObjId: userObj, listType: 2, labelWidth: 100, hasPage: true, treeData: false, allowExport: false, idColumn: 'u_id',
      fields: [{ relaId: 'u_username' }, { relaId: 'u_email' }], queryParams: [{ relaId: 'u_username', queryType: 10 }],
    })
    noticeFormId = await fx.created('/gen/custom/form', { name: '发布通知', formConfig: JSON.stringify({ type: 'object', properties: { title: { type: 'string' } } }), handleBean: 'createNotice' })
    orderId = await fx.created('/purchase/order', { scId: trade.scA, supplierId: trade.supplierId, products: [{ productId: trade.p1, orderNum: 2, taxPrice: '10.00' }], payTypes: [{ id: trade.payTypeId, payAmount: '20.00' }] })
    nobody = await userWithMenus(t, admin, 'nobody01', [])
  }, 120_000)
  afterAll(async () => t?.close())

  it('refuses a user with no role the custom form handle and the custom list query over sys_user, and writes nothing', async () => {
    const asAdmin = await t.call<Page>('POST', '/gen/api/custom/list/query', { token: admin, query: { id: userListId }, body: {} })
    expect(asAdmin.body.data.datas.map((d) => d.u_username)).toContain('admin')

    const notices = await count('sys_notice')
    const handle = await t.call('POST', '/gen/api/custom/form/handle', { token: nobody, query: { id: noticeFormId }, body: { title: '越权通知', content: '<p>x</p>' } })
    expect(handle.status).toBe(403)
    expect(handle.body).toMatchObject({ code: 403, msg: '无权限' })
    expect(await count('sys_notice')).toBe(notices)

    const remark = await t.call('POST', '/gen/api/custom/form/handle', { token: nobody, query: { id: fx.formId }, body: { id: fx.drinks, description: '被改了' } })
    expect(remark.status).toBe(403)
    const category = await t.call<{ description?: string }>('GET', '/basedata/product/category', { token: admin, query: { id: fx.drinks } })
    expect(category.body.data.description ?? '').not.toBe('被改了')

    for (const [method, url, id] of [
      ['POST', '/gen/api/custom/list/query', userListId],
      ['POST', '/gen/api/custom/list/query/list', userListId],
      ['GET', '/gen/api/custom/list/config', userListId],
      ['GET', '/gen/api/custom/form/config', noticeFormId],
      ['POST', '/gen/api/custom/form/get', fx.formId],
    ] as const) {
      const r = await t.call(method, url, { token: nobody, query: { id }, body: {} })
      expect(r.status, url).toBe(403)
      expect(JSON.stringify(r.body)).not.toContain('admin')
    }
  })

  it('lets a user granted only the menu of a custom list run it and what it opens, but not another list', async () => {
    const listMenu = await menu('ACCL1', 1, fx.listId)
    const clerk = await userWithMenus(t, admin, 'listclerk', [], [listMenu])
    const own = await t.call<Page>('POST', '/gen/api/custom/list/query', { token: clerk, query: { id: fx.listId }, body: {} })
    expect(own.status, own.raw).toBe(200)
    expect(own.body.data.datas.map((d) => d.p_code)).toContain('P001')
    expect((await t.call('GET', '/gen/api/custom/list/config', { token: clerk, query: { id: fx.listId } })).status).toBe(200)
    // Another list (over sys_user): no menu opens it for this user.
    const other = await t.call('POST', '/gen/api/custom/list/query', { token: clerk, query: { id: userListId }, body: {} })
    expect(other.status).toBe(403)
    // The list's row button opens the remark form: its config answers, but the handler writes a product
    // category, which needs the category's modify key.
    expect((await t.call('GET', '/gen/api/custom/form/config', { token: clerk, query: { id: fx.formId } })).status).toBe(200)
    expect((await t.call('GET', '/gen/api/custom/form/config', { token: clerk, query: { id: noticeFormId } })).status).toBe(403)
    const denied = await t.call('POST', '/gen/api/custom/form/handle', { token: clerk, query: { id: fx.formId }, body: { id: fx.drinks, description: '无类目权限' } })
    expect(denied.status).toBe(403)
    expect((await t.call('POST', '/gen/api/custom/form/get', { token: clerk, query: { id: fx.formId }, body: { id: fx.drinks } })).status).toBe(403)

    const editor = await userWithMenus(t, admin, 'listeditor', ['base-data:product:category:modify'], [listMenu])
    const changed = await t.call('POST', '/gen/api/custom/form/handle', { token: editor, query: { id: fx.formId }, body: { id: fx.drinks, description: '有类目权限' } })
    expect(changed.status, changed.raw).toBe(200)
    const category = await t.call<{ description?: string }>('GET', '/basedata/product/category', { token: admin, query: { id: fx.drinks } })
    expect(category.body.data.description).toBe('有类目权限')
  })

  it('checks the key of what a form handler writes even when its menu is granted', async () => {
    const formMenu = await menu('ACCF1', 2, noticeFormId)
    const writer = await userWithMenus(t, admin, 'formonly', [], [formMenu])
    expect((await t.call('GET', '/gen/api/custom/form/config', { token: writer, query: { id: noticeFormId } })).status).toBe(200)
    const notices = await count('sys_notice')
    const denied = await t.call('POST', '/gen/api/custom/form/handle', { token: writer, query: { id: noticeFormId }, body: { title: '无发布权限', content: '<p>x</p>' } })
    expect(denied.status).toBe(403)
    expect(await count('sys_notice')).toBe(notices)
    const publisher = await userWithMenus(t, admin, 'formpublisher', ['system:notice:add'], [formMenu])
    const ok = await t.call('POST', '/gen/api/custom/form/handle', { token: publisher, query: { id: noticeFormId }, body: { title: '有发布权限', content: '<p>x</p>' } })
    expect(ok.status, ok.raw).toBe(200)
    expect(await count('sys_notice')).toBe(notices + 1)
  })

  it('opens the lists a custom page names to the page menu, and any list to a designer', async () => {
    const pageId = await fx.created('/gen/custom/page', { name: '概览页', componentConfig: `return { rows: [{ cols: [{ blocks: [{ kind: 'list', listId: '${fx.listId}' }] }] }] }`, available: true })
    const viewer = await userWithMenus(t, admin, 'pageviewer', [], [await menu('ACCP1', 3, pageId)])
    expect((await t.call('GET', '/gen/api/custom/page/config', { token: viewer, query: { id: pageId } })).status).toBe(200)
    expect((await t.call('POST', '/gen/api/custom/list/query', { token: viewer, query: { id: fx.listId }, body: {} })).status).toBe(200)
    expect((await t.call('POST', '/gen/api/custom/list/query', { token: viewer, query: { id: userListId }, body: {} })).status).toBe(403)
    const designer = await userWithMenus(t, admin, 'listdesigner', ['development:custom-list:query'])
    expect((await t.call('POST', '/gen/api/custom/list/query', { token: designer, query: { id: userListId }, body: {} })).status).toBe(200)
    expect((await t.call('GET', '/gen/api/custom/page/config', { token: designer, query: { id: pageId } })).status).toBe(403)
  })

  it('answers a picker to the picked entity query key and to the screens whose form uses it', async () => {
    const receiver = await userWithMenus(t, admin, 'receiver01', ['purchase:receive:add'])
    for (const kind of ['supplier', 'product', 'sc', 'purchaseorder']) {
      const r = await t.call<Page>('GET', `/selector/${kind}`, { token: receiver })
      expect(r.status, `${kind}: ${r.raw.slice(0, 200)}`).toBe(200)
    }
    expect((await t.call('POST', '/selector/supplier/load', { token: receiver, body: [trade.supplierId] })).status).toBe(200)
    for (const kind of ['customer', 'role', 'tenant', 'menu', 'member']) {
      const r = await t.call('GET', `/selector/${kind}`, { token: receiver })
      expect(r.status, kind).toBe(403)
    }
    expect((await t.call('POST', '/selector/customer/load', { token: receiver, body: [trade.customerId] })).status).toBe(403)
    const customerReader = await userWithMenus(t, admin, 'custreader', ['base-data:customer:query'])
    expect((await t.call('GET', '/selector/customer', { token: customerReader })).status).toBe(200)
    expect((await t.call('GET', '/selector/supplier', { token: customerReader })).status).toBe(403)
    expect((await t.call('GET', '/selector/supplier', { token: nobody })).status).toBe(403)
  })

  it('follows the document on the timeline and the queried kinds on the order chart', async () => {
    const orders = await userWithMenus(t, admin, 'poreader', ['purchase:order:query'])
    const timeline = await t.call<unknown[]>('GET', '/component/timeline/order', { token: orders, query: { orderId } })
    expect(timeline.status, timeline.raw).toBe(200)
    expect(timeline.body.data.length).toBeGreaterThan(0)
    const sales = await userWithMenus(t, admin, 'soreader', ['sale:order:query'])
    expect((await t.call('GET', '/component/timeline/order', { token: sales, query: { orderId } })).status).toBe(403)
    expect((await t.call('GET', '/component/timeline/order', { token: nobody, query: { orderId } })).status).toBe(403)

    await t.call('POST', '/purchase/order/approve/pass/direct', {
      token: admin,
      body: { scId: trade.scA, supplierId: trade.supplierId, products: [{ productId: trade.p1, orderNum: 3, taxPrice: '10.00' }], payTypes: [{ id: trade.payTypeId, payAmount: '30.00' }] },
    })
    const all = await t.call<{ bizType: number }[]>('GET', '/chart/order', { token: admin })
    expect(all.body.data.length).toBeGreaterThan(0)
    const saleChart = await t.call<{ bizType: number }[]>('GET', '/chart/order', { token: sales })
    expect(saleChart.status).toBe(200)
    expect(saleChart.body.data).toEqual([])
    const poChart = await t.call<{ bizType: number }[]>('GET', '/chart/order', { token: orders })
    expect(poChart.body.data).toEqual(all.body.data)
    expect((await t.call('GET', '/chart/order', { token: nobody })).status).toBe(403)
  })

  it('reads the notice content to its readers only', async () => {
    const id = await fx.created('/system/notice', { title: '公告', content: '<p>正文</p>', published: true })
    expect((await t.call('GET', '/system/notice/content', { token: nobody, query: { id } })).status).toBe(403)
    const reader = await userWithMenus(t, admin, 'noticereader', ['system:notice:query'])
    expect((await t.call('GET', '/system/notice/content', { token: reader, query: { id } })).body.data).toMatchObject({ title: '公告', readed: true })
  })

  it('never writes on a configuration GET: the tenant has its defaults from provisioning', async () => {
    const db = await tenantDb()
    for (const table of ['tbl_purchase_config', 'tbl_sale_config', 'tbl_retail_config']) expect(await count(table), table).toBe(1)
    await db.deleteFrom('tbl_sale_config').execute()
    const read = await t.call<Record<string, unknown>>('GET', '/sale/config', { token: admin })
    expect(read.status, read.raw).toBe(200)
    expect(read.body.data).toMatchObject({ id: '1' })
    expect(await count('tbl_sale_config')).toBe(0)
    // Whoever follows the configuration reads it too (the sale out sheet follows the sale configuration).
    const outClerk = await userWithMenus(t, admin, 'outclerk', ['sale:out:add'])
    expect((await t.call('GET', '/sale/config', { token: outClerk })).status).toBe(200)
    expect((await t.call('GET', '/sale/config', { token: nobody })).status).toBe(403)
    expect(await count('tbl_sale_config')).toBe(0)
    // A write stores the row it changes.
    const saved = await t.call('PUT', '/sale/config', { token: admin, body: { ...read.body.data } })
    expect(saved.status, saved.raw).toBe(200)
    expect(await count('tbl_sale_config')).toBe(1)
  })
})

describe('a new tenant gets its configuration rows when it is created', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
  })
  afterAll(async () => t?.close())

  it('stores the defaults of every configuration at creation, so its first GET writes nothing', async () => {
    const operator = await t.login('admin')
    const created = await t.call<string>('POST', '/system/tenant', { token: operator, body: { id: '2000', name: '第二租户', available: true } })
    expect(created.status, created.raw).toBe(200)
    const db = t.app.services.databases.tenant('2000')
    const singletons = t.app.services.registry.all().filter((e) => e.file.singleton === true)
    expect(singletons.map((e) => e.name).sort()).toEqual(['crmSeaConfig', 'purchaseConfig', 'retailConfig', 'saleConfig', 'takeStockConfig'])
    const counts = async () => Promise.all(singletons.map(async (e) => Number((await db.selectFrom(e.table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)))
    expect(await counts()).toEqual(singletons.map(() => 1))
    const admin = await t.login('2000@admin')
    const purchase = await t.call<Record<string, unknown>>('GET', '/purchase/config', { token: admin })
    expect(purchase.body.data).toMatchObject({ id: '1', receiveRequirePurchase: true })
    expect(await counts()).toEqual(singletons.map(() => 1))
  })
})
