import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers } from '../support/sale-helpers.js'

/**
 * 200 approvals of 1-unit sale out sheets racing for 150 units: exactly 150 pass, the others are refused
 * by the ledger and leave nothing behind; stock never goes negative and the log adds up to the stock.
 */
describe('sale out approvals racing for the same stock', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const { ok, stock, stockIn, db } = saleHelpers(() => t, () => token)

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'C')
    await stockIn(f.scA, f.supplierId, [{ productId: f.p1, orderNum: 150, taxPrice: '10.00' }])
    await ok('GET', '/sale/config')
  })
  afterAll(async () => t?.close())

  it('passes exactly what is in stock', { timeout: 120_000 }, async () => {
    const ids: string[] = []
    for (let i = 0; i < 200; i++)
      ids.push(await ok<string>('POST', '/sale/out/sheet', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }] }))

    const answers = await Promise.all(
      ids.map((id) =>
        t.app.inject({
          method: 'PATCH',
          url: '/cloud-api/sale/out/sheet/approve/pass',
          headers: { 'x-auth-token': token, 'content-type': 'application/json' },
          payload: JSON.stringify({ id }),
        }),
      ),
    )
    const bodies = answers.map((a) => JSON.parse(a.body) as { msg: string })
    expect(bodies.filter((b) => b.msg === '操作成功！')).toHaveLength(150)
    const refused = bodies.filter((b) => b.msg !== '操作成功！')
    expect(refused).toHaveLength(50)
    for (const b of refused) expect(b.msg).toBe('商品（CP1）C商品P1当前库存为0，库存不足，无法出库！')
    expect(answers.every((a) => a.statusCode < 500)).toBe(true)

    const statuses = await db().selectFrom('tbl_sale_out_sheet').select(['status']).where('id', 'in', ids).execute()
    expect(statuses.filter((s) => Number(s.status) === 3)).toHaveLength(150)
    expect(statuses.filter((s) => Number(s.status) === 0)).toHaveLength(50)
    expect(await stock(f.p1, f.scA)).toMatchObject({ stockNum: 0, taxAmount: '0.00' })
    const logs = await db()
      .selectFrom('tbl_product_stock_log')
      .select(['stock_num', 'biz_type'])
      .where('product_id', '=', f.p1)
      .where('sc_id', '=', f.scA)
      .execute()
    expect(logs.filter((l) => Number(l.biz_type) === 3)).toHaveLength(150)
    expect(logs.reduce((s, l) => s + Number(l.stock_num), 0)).toBe(0)
  })
})
