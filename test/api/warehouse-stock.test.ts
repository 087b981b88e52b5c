import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { stockClient } from '../support/stock-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'
import { DATA_PERMISSION_BIZ_TYPE, DATA_PERMISSION_TYPE } from '../../src/shared/generated/enum-codes.js'

type Stock = { productId: string; stockNum: number }

/** `POST /stock/product/warehouseStock`: the stock a document's line table shows, in one call for all its lines. */
describe('the stock of a line table in its warehouse', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let f: TradeFixtures
  const ask = (token: string, body: unknown) => t.call<Stock[]>('POST', '/stock/product/warehouseStock', { token, body })
  const byProduct = (rows: Stock[]) => Object.fromEntries(rows.map((r) => [r.productId, r.stockNum]))

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
    // scA: P1 10, P2 5; scB: nothing.
    await stockClient(t, admin).receive(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: 10, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 5, taxPrice: '20.00' },
    ])
    // A clerk of the sale out sheet only: no stock screen, no product screen.
    clerk = await userWithMenus(t, admin, 'lineclerk', ['sale:out:add'])
  })
  afterAll(async () => t?.close())

  it('answers every product of the lines at once, a bundle from its components, 0 where there is none', async () => {
    const r = await ask(clerk, { scId: f.scA, productIds: [f.p1, f.p2, f.p3, f.bundle, f.p1] })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.data).toHaveLength(4)
    // The bundle is 2 × P1 + 1 × P2: min(⌊10 ÷ 2⌋, ⌊5 ÷ 1⌋).
    expect(byProduct(r.body.data)).toEqual({ [f.p1]: 10, [f.p2]: 5, [f.p3]: 0, [f.bundle]: 5 })
    const other = await ask(clerk, { scId: f.scB, productIds: [f.p1, f.bundle] })
    expect(byProduct(other.body.data)).toEqual({ [f.p1]: 0, [f.bundle]: 0 })
    expect((await ask(clerk, { scId: f.scA, productIds: [] })).body.data).toEqual([])
  })

  it('follows the ledger: approved moves change what the lines show', async () => {
    await stockClient(t, admin).ok('POST', '/sale/out/sheet/approve/pass/direct', {
      scId: f.scA,
      customerId: f.customerId,
      products: [{ productId: f.p1, orderNum: 4, oriPrice: '15.00', taxPrice: '15.00', discountRate: '100', taxRate: 0 }],
    })
    expect(byProduct((await ask(clerk, { scId: f.scA, productIds: [f.p1, f.bundle] })).body.data)).toEqual({ [f.p1]: 6, [f.bundle]: 3 })
  })

  it('refuses a user who may not enter such a document, and one who may only enter documents without it', async () => {
    const nobody = await userWithMenus(t, admin, 'linenobody', [])
    const buyer = await userWithMenus(t, admin, 'linebuyer', ['purchase:order:add'])
    for (const token of [nobody, buyer]) {
      const r = await ask(token, { scId: f.scA, productIds: [f.p1] })
      expect(r.status, r.raw).toBe(403)
      expect(r.body).toMatchObject({ code: 403, msg: '无权限' })
    }
    // Whoever approves a transfer (goods leave its source warehouse) may read it.
    const approver = await userWithMenus(t, admin, 'lineapprover', ['stock:sc-transfer:approve'])
    expect(byProduct((await ask(approver, { scId: f.scA, productIds: [f.p2] })).body.data)).toEqual({ [f.p2]: 5 })
  })

  it('answers malformed input 400 with a message, never 5xx', async () => {
    const cases: [unknown, string][] = [
      [undefined, '请选择仓库'],
      [[f.p1], '请选择仓库'],
      [{ productIds: [f.p1] }, '请选择仓库'],
      [{ scId: 7, productIds: [f.p1] }, '请选择仓库'],
      [{ scId: f.scA }, '请选择商品！'],
      [{ scId: f.scA, productIds: f.p1 }, '请选择商品！'],
      [{ scId: f.scA, productIds: [f.p1, 3] }, '请选择商品！'],
      [{ scId: f.scA, productIds: [{ id: f.p1 }] }, '请选择商品！'],
      [{ scId: f.scA, productIds: [''] }, '请选择商品！'],
      [{ scId: f.scA, productIds: Array.from({ length: 5001 }, (_, i) => `p${i}`) }, '商品不能超过5000个！'],
      [{ scId: 'no-such-warehouse', productIds: [f.p1] }, '仓库不存在！'],
      [{ scId: "x' or '1'='1", productIds: ["x' or '1'='1"] }, '仓库不存在！'],
    ]
    for (const [body, msg] of cases) {
      const r = await ask(clerk, body)
      expect(r.status, `${JSON.stringify(body)?.slice(0, 80)}: ${r.raw.slice(0, 200)}`).toBe(400)
      expect(r.body).toMatchObject({ code: 400, msg })
    }
    const broken = await t.app.inject({ method: 'POST', url: '/cloud-api/stock/product/warehouseStock', headers: { 'x-auth-token': clerk, 'content-type': 'application/json' }, payload: '{"scId": ' })
    expect(broken.statusCode).toBe(400)
    expect(JSON.parse(broken.body)).toMatchObject({ code: 400 })
    // Ids that name nothing answer nothing.
    expect((await ask(clerk, { scId: f.scA, productIds: ['no-such-product'] })).body.data).toEqual([])
  })

  it("leaves out products outside the user's data permission, even named by id", async () => {
    const user = await t.app.services.databases.tenant(t.app.services.operatorTenantId).selectFrom('sys_user').select('id').where('username', '=', 'lineclerk').executeTakeFirstOrThrow()
    // detail 1 = product code; condition 0 = equals.
    const tree = [{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 1, conditionType: 0, value: 'FP1' }] }]
    const saved = await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [String(user.id)], bizType: DATA_PERMISSION_BIZ_TYPE.USER, permissionType: DATA_PERMISSION_TYPE.PRODUCT, permission: JSON.stringify(tree) },
    })
    expect(saved.status, saved.raw).toBe(200)
    const r = await ask(clerk, { scId: f.scA, productIds: [f.p1, f.p2, f.bundle] })
    expect(byProduct(r.body.data)).toEqual({ [f.p1]: 6 })
    // The administrator is not narrowed.
    expect(Object.keys(byProduct((await ask(admin, { scId: f.scA, productIds: [f.p1, f.p2, f.bundle] })).body.data))).toHaveLength(3)
  })

  // Making a tenant creates its whole schema: slow on a busy PostgreSQL.
  it("never reaches another tenant's warehouse or products", { timeout: 180_000 }, async () => {
    const operator = await t.login('1000@admin')
    expect((await t.call('POST', '/system/tenant', { token: operator, body: { id: '2000', name: '第二租户', available: true } })).status).toBe(200)
    const other = await t.login('2000@admin')
    expect((await ask(other, { scId: f.scA, productIds: [f.p1] })).body).toMatchObject({ code: 400, msg: '仓库不存在！' })
    const own = await t.call<string>('POST', '/basedata/storecenter', { token: other, body: { code: 'T2SC', name: '乙方仓' } })
    expect((await ask(other, { scId: own.body.data, productIds: [f.p1, f.p2] })).body.data).toEqual([])
  })
})
