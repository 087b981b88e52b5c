import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers, type Doc } from '../support/sale-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'

type Page<T = Record<string, unknown>> = { datas: T[]; totalCount: number }

/**
 * Logistics sheets (spec 001 §7 /logistics/sheet, schemas/documents/logistics-sheet.json): every call,
 * the refusals with their Chinese messages, weight and volume from the products (exact decimals),
 * delivery, the sale and retail "require logistics" settings, data permission and tenants.
 */
describe('logistics sheets', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const { call, ok, get, stockIn, db } = saleHelpers(() => t, () => token)
  let w1: string
  let w2: string
  let wk: string
  let nw: string
  let lc1: string
  let lc2: string
  let saleOut: Doc
  let retailOut: Doc
  let pendingOut: Doc
  let noWeightOut: Doc

  const address = {
    senderName: '张三', senderTelephone: '13800000001', senderDistrictId: '110101', senderAddress: '东直门大街1号',
    receiverName: '李四', receiverTelephone: '13800000002', receiverDistrictId: '440305', receiverAddress: '科技园2号',
  }
  const sheet = (bizIds: string[], extra: Record<string, unknown> = {}) => ({
    logisticsCompanyId: lc1, ...address, totalWeight: '8.65', totalVolume: '622.50', totalAmount: '12.00', description: '易碎',
    products: bizIds.map((bizId) => ({ bizId, bizType: 1 })), ...extra,
  })
  const biz = (query: Record<string, string> = {}) => ok<Page>('GET', '/logistics/sheet/biz', undefined, query)
  const bizCodes = async (query: Record<string, string> = {}) => (await biz({ pageSize: '100', ...query })).datas.map((d) => d.bizCode)

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'L')
    const product = async (code: string, extra: Record<string, unknown>) =>
      ok<string>('POST', '/basedata/product', {
        code, name: `商品${code}`, skuCode: `SKU${code}`, categoryId: f.categoryId, brandId: f.brandId, productType: 1,
        taxRate: 17, saleTaxRate: 17, purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00', ...extra,
      })
    w1 = await product('LW1', { weight: '1.25', volume: '100.50' })
    w2 = await product('LW2', { weight: '0.10', volume: '20.00' })
    nw = await product('LNW', {})
    wk = await product('LWK', {
      productType: 2, purchasePrice: '0', salePrice: '4.00', retailPrice: '4.00',
      productBundles: [
        { productId: w1, bundleNum: 2, salePrice: '1.00', retailPrice: '1.00' },
        { productId: w2, bundleNum: 1, salePrice: '2.00', retailPrice: '2.00' },
      ],
    })
    await stockIn(f.scA, f.supplierId, [
      { productId: w1, orderNum: 100, taxPrice: '1.00' },
      { productId: w2, orderNum: 100, taxPrice: '1.00' },
      { productId: nw, orderNum: 100, taxPrice: '1.00' },
    ])
    lc1 = await ok<string>('POST', '/basedata/logistics/company', { code: 'LC1', name: '顺丰', available: true })
    lc2 = await ok<string>('POST', '/basedata/logistics/company', { code: 'LC2', name: '中通', available: true })
    const outId = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', {
      scId: f.scA, customerId: f.customerId, products: [{ productId: w1, orderNum: 3, taxPrice: '2.00' }, { productId: wk, orderNum: 1, taxPrice: '4.00' }],
    })
    saleOut = await get('/sale/out/sheet', outId)
    retailOut = await get('/retail/out/sheet', await ok<string>('POST', '/retail/out/sheet/approve/pass/direct', { scId: f.scA, memberId: f.memberId, products: [{ productId: w2, orderNum: 3, taxPrice: '2.00' }] }))
    pendingOut = await get('/sale/out/sheet', await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: w1, orderNum: 1, taxPrice: '2.00' }] }))
    noWeightOut = await get('/sale/out/sheet', await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', { scId: f.scA, customerId: f.customerId, products: [{ productId: nw, orderNum: 1, taxPrice: '2.00' }] }))
  })
  afterAll(async () => t?.close())

  it('offers the approved sale and retail out sheets on no logistics sheet, paged and filtered', async () => {
    expect((await bizCodes()).sort()).toEqual([saleOut.code, retailOut.code, noWeightOut.code].sort())
    const page = await biz({ pageIndex: '1', pageSize: '2' })
    expect(page.totalCount).toBe(3)
    expect(page.datas).toHaveLength(2)
    expect(await bizCodes({ bizType: '2' })).toEqual([retailOut.code])
    expect(await bizCodes({ code: saleOut.code.slice(-4) })).toEqual([saleOut.code])
    // Wildcards are matched literally.
    expect(await bizCodes({ code: '%' })).toEqual([])
    expect(await bizCodes({ code: '_' })).toEqual([])
    const row = (await biz({ bizType: '2' })).datas[0]
    expect(row).toMatchObject({ bizId: retailOut.id, bizType: 2, bizStatus: 3, scName: 'L一号仓', receiverName: 'L会员', totalNum: 3, totalAmount: '6.00' })
    expect((await call('GET', '/logistics/sheet/biz', undefined, { bizType: '9' })).body.msg).toBe('业务类型不存在')
  })

  it('sums weight and volume from the products exactly, bundles by their components', async () => {
    // Sale: 3 × 1.25 + bundle (2 × 1.25 + 1 × 0.10) = 6.35; retail: 3 × 0.10 = 0.30 (0.1 × 3 is not 0.30 in binary floating point).
    expect(await ok('GET', '/logistics/sheet/calc/weight', undefined, { bizIds: `${saleOut.id},${retailOut.id}` })).toBe('6.65')
    expect(await ok('GET', '/logistics/sheet/calc/weight', undefined, { bizIds: retailOut.id })).toBe('0.30')
    // Sale: 3 × 100.50 + (2 × 100.50 + 20.00) = 522.50; retail 60.00.
    expect(await ok('GET', '/logistics/sheet/calc/volume', undefined, { bizIds: `${saleOut.id},${retailOut.id}` })).toBe('582.50')
    expect(await ok('POST', '/logistics/sheet/calc/volume', { bizOrders: [{ bizId: retailOut.id, bizType: 2 }] })).toBe('60.00')
    expect((await call('GET', '/logistics/sheet/calc/weight', undefined, { bizIds: noWeightOut.id })).body.msg).toBe('商品（LNW）商品LNW尚未设置重量，请检查！')
    expect((await call('GET', '/logistics/sheet/calc/volume', undefined, { bizIds: 'nope' })).body.msg).toBe('业务单据不存在！')
    expect((await call('GET', '/logistics/sheet/calc/volume')).status).toBe(400)
    const many = await call('POST', '/logistics/sheet/calc/weight', { bizOrders: Array.from({ length: 1001 }, (_, i) => ({ bizId: `x${i}`, bizType: 1 })) })
    expect(many.body.msg).toBe('业务单据不能超过1000个！')
  })

  let first: string
  it('creates a sheet: status 待发货, line types from the documents, province and city from the district', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [sheet([]), '物流单中的业务单据不能为空！'],
      [sheet([saleOut.id], { logisticsCompanyId: undefined }), '物流公司不能为空'],
      [sheet([saleOut.id], { senderDistrictId: '1101' }), '寄件人地区不存在，请选择省/市/区'],
      [sheet([saleOut.id], { receiverName: '' }), '收件人姓名不能为空'],
      [sheet([saleOut.id], { totalAmount: '-1' }), '物流费（元）不允许小于0'],
      [sheet([saleOut.id, saleOut.id]), '第2行业务单据与前面的业务单据重复，请检查！'],
      [sheet(['missing']), '第1行业务单据不存在！'],
      [sheet([pendingOut.id]), `销售出库单【${pendingOut.code}】尚未审核通过，无法发货！`],
    ]
    for (const [body, msg] of refusals) expect((await call('POST', '/logistics/sheet', body)).body.msg).toBe(msg)
    const before = await db().selectFrom('tbl_logistics_sheet').select('id').execute()
    expect(before).toHaveLength(0)
    first = await ok<string>('POST', '/logistics/sheet', sheet([saleOut.id, retailOut.id], { status: 3 }))
    const got = await get('/logistics/sheet', first)
    expect(got).toMatchObject({
      status: 0, logisticsCompanyId: lc1, logisticsCompanyName: '顺丰', senderProvinceId: '11', senderCityId: '1101', senderDistrictId: '110101',
      receiverProvinceId: '44', receiverCityId: '4403', receiverDistrictId: '440305', totalWeight: '8.65', totalVolume: '622.50', totalAmount: '12.00',
      deliveryBy: null, deliveryTime: null,
    })
    expect(got.code).toMatch(/^\d{18}$/)
    expect(got.details.map((d) => [d.bizCode, d.bizType, d.receiverName])).toEqual([[saleOut.code, 1, 'L客户'], [retailOut.code, 2, 'L会员']])
    // Both are now taken.
    expect(await bizCodes()).toEqual([noWeightOut.code])
    expect((await call('POST', '/logistics/sheet', sheet([retailOut.id]))).body.msg).toBe(`零售出库单【${retailOut.code}】已关联物流单，不允许再次关联物流单`)
  })

  it('lists with filters and exports', async () => {
    const second = await ok<string>('POST', '/logistics/sheet', sheet([noWeightOut.id], { logisticsCompanyId: lc2, logisticsNo: 'ZT-001' }))
    const ids = async (query: Record<string, string>) => (await ok<Page<{ id: string }>>('GET', '/logistics/sheet/query', undefined, query)).datas.map((d) => d.id)
    expect((await ids({})).sort()).toEqual([first, second].sort())
    expect(await ids({ logisticsCompanyId: lc2 })).toEqual([second])
    expect(await ids({ logisticsNo: 'ZT' })).toEqual([second])
    expect(await ids({ status: '3' })).toEqual([])
    const row = (await ok<Page>('GET', '/logistics/sheet/query', undefined, { logisticsCompanyId: lc2 })).datas[0]
    expect(row).toMatchObject({ logisticsCompanyName: '中通', status: 0, receiverName: '李四' })
    const exported = await call('POST', '/logistics/sheet/export', {})
    expect(exported.status).toBe(200)
    expect(String(exported.headers['content-type'])).toContain('spreadsheetml')
    expect(exported.rawPayload.subarray(0, 2).toString()).toBe('PK')
    // Delete gives the document back to the candidates.
    await ok('DELETE', '/logistics/sheet', { id: second })
    expect(await bizCodes()).toEqual([noWeightOut.code])
  })

  it('modifies a 待发货 sheet: a document taken off is offered again', async () => {
    await ok('PUT', '/logistics/sheet', { id: first, ...sheet([saleOut.id], { totalWeight: '6.35' }) })
    const got = await get('/logistics/sheet', first)
    expect(got.details.map((d) => d.bizCode)).toEqual([saleOut.code])
    expect(got.totalWeight).toBe('6.35')
    expect((await bizCodes()).sort()).toEqual([retailOut.code, noWeightOut.code].sort())
  })

  it('delivers with carrier and tracking number; a delivered sheet no longer changes', async () => {
    expect(await ok('GET', '/logistics/sheet/delivery', undefined, { id: first })).toMatchObject({ id: first, status: 0, logisticsCompanyName: '顺丰', logisticsNo: null, totalAmount: '12.00' })
    expect((await call('PUT', '/logistics/sheet/delivery', { id: first })).body.msg).toBe('物流单号不能为空')
    expect((await call('PUT', '/logistics/sheet/delivery', { id: first, logisticsNo: 'SF1', totalAmount: '1.234' })).status).toBe(400)
    expect((await call('PUT', '/logistics/sheet/delivery', { id: first, logisticsNo: 'SF1', logisticsCompanyId: 'nope' })).body.msg).toBe('物流公司不存在')
    expect((await call('PUT', '/logistics/sheet/delivery', { id: 'nope', logisticsNo: 'SF1' })).body.msg).toBe('物流单不存在！')
    // Form parameters, as the ancestor's page sends them.
    const done = await t.call('PUT', '/logistics/sheet/delivery', { token, form: { id: first, logisticsNo: 'SF123456', logisticsCompanyId: lc2, totalAmount: '15.50' } })
    expect(done.body.msg).toBe('操作成功！')
    const got = await get('/logistics/sheet', first)
    expect(got).toMatchObject({ status: 3, logisticsNo: 'SF123456', logisticsCompanyId: lc2, totalAmount: '15.50', deliveryBy: '系统管理员' })
    expect(got.deliveryTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect((await call('PUT', '/logistics/sheet/delivery', { id: first, logisticsNo: 'SF2' })).body.msg).toBe('物流单已发货，无法重复发货！')
    expect((await call('PUT', '/logistics/sheet', { id: first, ...sheet([saleOut.id]) })).body.msg).toBe('物流单已发货，无法修改！')
    expect((await call('DELETE', '/logistics/sheet', { id: first })).body.msg).toBe('已发货的物流单不允许执行删除操作！')
    const other = await ok<string>('POST', '/logistics/sheet', sheet([retailOut.id]))
    const batch = await call('DELETE', '/logistics/sheet/batch', [other, first])
    expect(batch.body.msg).toBe('第2个物流单删除失败，失败原因：已发货的物流单不允许执行删除操作！')
    expect((await get('/logistics/sheet', other)).id).toBe(other)
    await ok('DELETE', '/logistics/sheet/batch', [other])
    expect((await call('GET', '/logistics/sheet', undefined, { id: other })).status).toBe(404)
    expect((await ok<Page>('GET', '/logistics/sheet/query', undefined, { status: '3' })).datas.map((d) => d.id)).toEqual([first])
  })

  it('requires delivery before approving a sale or retail out sheet when the settings say so', async () => {
    await ok('PUT', '/sale/config', { outStockRequireLogistics: true })
    const out = await get('/sale/out/sheet', await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: w1, orderNum: 2, taxPrice: '2.00' }] }))
    expect((await call('PATCH', '/sale/out/sheet/approve/pass', { id: out.id })).body.msg).toBe('销售出库单尚未发货，无法审核通过！')
    // Awaiting approval, it may now ship (and so may the older pending one).
    expect(await bizCodes({ bizType: '1' })).toEqual(expect.arrayContaining([out.code, pendingOut.code]))
    const ship = await ok<string>('POST', '/logistics/sheet', sheet([out.id]))
    // Attached is not enough: the sheet must be delivered.
    expect((await call('PATCH', '/sale/out/sheet/approve/pass', { id: out.id })).body.msg).toBe('销售出库单尚未发货，无法审核通过！')
    expect((await call('DELETE', '/sale/out/sheet', { id: out.id })).body.msg).toMatch(/^销售出库单已关联物流单\d{18}，不允许删除！$/)
    await ok('PUT', '/logistics/sheet/delivery', { id: ship, logisticsNo: 'SF-OUT' })
    await ok('PATCH', '/sale/out/sheet/approve/pass', { id: out.id })
    expect((await get('/sale/out/sheet', out.id)).status).toBe(3)
    await ok('PUT', '/sale/config', { outStockRequireLogistics: false })

    await ok('PUT', '/retail/config', { retailOutSheetRequireLogistics: true })
    const retail = await ok<string>('POST', '/retail/out/sheet', { scId: f.scA, products: [{ productId: w2, orderNum: 1, taxPrice: '2.00' }] })
    expect((await call('PATCH', '/retail/out/sheet/approve/pass', { id: retail })).body.msg).toBe('零售出库单尚未发货，无法审核通过！')
    const retailShip = await ok<string>('POST', '/logistics/sheet', sheet([retail]))
    expect((await get('/logistics/sheet', retailShip)).details[0]).toMatchObject({ bizType: 2, bizStatus: 0 })
    await ok('PUT', '/logistics/sheet/delivery', { id: retailShip, logisticsNo: 'SF-RT' })
    await ok('PATCH', '/retail/out/sheet/approve/pass', { id: retail })
    await ok('PUT', '/retail/config', { retailOutSheetRequireLogistics: false })
    // With the setting off, a pending out sheet is no candidate.
    expect(await bizCodes({ bizType: '1' })).not.toContain(pendingOut.code)
  })

  it('lets one of two sheets saved at once take a document, and one of a delivery and a change win', async () => {
    const out = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', { scId: f.scA, customerId: f.customerId, products: [{ productId: w1, orderNum: 1, taxPrice: '2.00' }] })
    const both = await Promise.all([call<string>('POST', '/logistics/sheet', sheet([out])), call<string>('POST', '/logistics/sheet', sheet([out]))])
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    const code = (await get('/sale/out/sheet', out)).code
    expect(both.find((r) => r.status === 400)!.body.msg).toBe(`销售出库单【${code}】已关联物流单，不允许再次关联物流单`)
    const id = both.find((r) => r.status === 200)!.body.data
    expect(await db().selectFrom('tbl_logistics_sheet_detail').select('sheet_id').where('biz_id', '=', out).execute()).toEqual([{ sheet_id: id }])

    const [delivered, changed] = await Promise.all([
      call('PUT', '/logistics/sheet/delivery', { id, logisticsNo: 'RACE-1' }),
      call('PUT', '/logistics/sheet', { id, ...sheet([out], { description: '改过' }) }),
    ])
    expect([delivered.status, changed.status]).toContain(200)
    const after = await get('/logistics/sheet', id)
    expect(after.status).toBe(3)
    // The change either came first (and was delivered after) or was refused.
    if (changed.status === 200) expect(after.description).toBe('改过')
    else expect(changed.body.msg).toBe('物流单已发货，无法修改！')
    expect(after.details.map((d) => d.bizId)).toEqual([out])
  })

  it('answers only holders of the keys, narrowed by their data permission', async () => {
    const none = await userWithMenus(t, token, 'lgnone', [])
    expect((await t.call('GET', '/logistics/sheet/query', { token: none })).status).toBe(403)
    expect((await t.call('GET', '/logistics/sheet/biz', { token: none })).status).toBe(403)
    const viewer = await userWithMenus(t, token, 'lgview', ['logistics:sheet:query'])
    expect((await t.call<Page>('GET', '/logistics/sheet/query', { token: viewer })).body.data.totalCount).toBeGreaterThan(0)
    expect((await t.call('PUT', '/logistics/sheet/delivery', { token: viewer, body: { id: first, logisticsNo: 'x' } })).status).toBe(403)
    expect((await t.call('POST', '/logistics/sheet', { token: viewer, body: sheet([noWeightOut.id]) })).status).toBe(403)

    // A role whose order data permission admits only documents created after 2999: nothing is visible.
    const userId = await ok<string>('POST', '/system/user', { code: 'lgdp', name: '物流限权', username: 'lgdpuser', password: 'secret123', gender: 0, available: true })
    const roleId = await ok<string>('POST', '/system/role', { code: 'LGDP', name: '物流限权', available: true })
    await ok('POST', '/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
    const menus = await ok<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', undefined, { roleId })
    const keys = ['logistics:sheet:query', 'logistics:sheet:add', 'logistics:sheet:delivery', 'logistics:sheet:delete']
    await ok('POST', '/system/role/menu/setting', { roleIds: [roleId], menuIds: menus.filter((m) => keys.includes(m.permission ?? '')).map((m) => m.id) })
    const clerk = await t.login('lgdpuser', 'secret123')
    const visible = async () => (await t.call<Page>('GET', '/logistics/sheet/query', { token: clerk })).body.data.totalCount
    expect(await visible()).toBeGreaterThan(0)
    await ok('POST', '/system/data/permission/data/saveData', {
      bizIds: [roleId], bizType: 0, permissionType: 2,
      permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 17, conditionType: 1, value: '2999-01-01 00:00:00' }] }]),
    })
    expect(await visible()).toBe(0)
    expect((await t.call('GET', '/logistics/sheet', { token: clerk, query: { id: first } })).status).toBe(404)
    expect((await t.call('GET', '/logistics/sheet/delivery', { token: clerk, query: { id: first } })).status).toBe(404)
    expect((await t.call('DELETE', '/logistics/sheet', { token: clerk, body: { id: first } })).status).toBe(404)
    // The documents to attach are narrowed the same way (sale and retail out sheets are order documents).
    expect((await t.call<Page>('GET', '/logistics/sheet/biz', { token: clerk })).body.data.totalCount).toBe(0)
    const refused = await t.call('POST', '/logistics/sheet', { token: clerk, body: sheet([noWeightOut.id]) })
    expect(refused.body.msg).toBe('第1行业务单据不存在！')
  })

  it('keeps tenants apart', async () => {
    const operator = await t.login('1000@admin')
    expect((await t.call('POST', '/system/tenant', { token: operator, body: { id: '2000', name: '第二租户', available: true } })).body.code).toBe(200)
    const other = await t.login('2000@admin')
    expect((await t.call<Page>('GET', '/logistics/sheet/query', { token: other })).body.data.totalCount).toBe(0)
    expect((await t.call<Page>('GET', '/logistics/sheet/biz', { token: other })).body.data.totalCount).toBe(0)
    expect((await t.call('GET', '/logistics/sheet', { token: other, query: { id: first } })).status).toBe(404)
    expect((await t.call('PUT', '/logistics/sheet/delivery', { token: other, body: { id: first, logisticsNo: 'x' } })).status).toBe(404)
    expect((await t.call('GET', '/logistics/sheet/calc/weight', { token: other, query: { bizIds: saleOut.id } })).body.msg).toBe('业务单据不存在！')
    token = operator
  })
})
