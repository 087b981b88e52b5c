import Decimal from 'decimal.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers } from '../support/sale-helpers.js'

/**
 * Approvals post their lines as one batch (stock rows read in one SELECT … FOR UPDATE in key order, one
 * UPDATE, one log INSERT): several lines of one product see each other's effect exactly, opposite line
 * orders approved at once neither deadlock nor lose an update, and one short line refuses the whole
 * document with nothing written.
 */
describe('batched approval posting', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const extra: string[] = []
  const { ok, call, stock, log, db } = saleHelpers(() => t, () => token)

  const product = async (code: string) => {
    const r = await t.call<string>('POST', '/basedata/product', {
      token,
      body: { code, name: `批量${code}`, skuCode: `SKU-${code}`, categoryId: f.categoryId, brandId: f.brandId, productType: 1, taxRate: 17, saleTaxRate: 17, purchasePrice: '10.00', salePrice: '15.00' },
    })
    if (r.body.code !== 200) throw new Error(r.body.msg)
    return r.body.data
  }
  const receive = (scId: string, products: { productId: string; orderNum: number; taxPrice: string }[]) =>
    ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', { scId, supplierId: f.supplierId, products })
  const saleOut = (scId: string, products: { productId: string; orderNum: number }[]) =>
    ok<string>('POST', '/sale/out/sheet', { scId, customerId: f.customerId, products: products.map((p) => ({ ...p, taxPrice: '15.00' })) })
  const approve = (id: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/cloud-api/sale/out/sheet/approve/pass',
      headers: { 'x-auth-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify({ id }),
    })
  /** Σ of the log equals the row, for quantity and value (the ledger's invariant). */
  const balanced = async (productId: string, scId: string) => {
    const rows = await db().selectFrom('tbl_product_stock_log').select(['stock_num', 'tax_amount']).where('product_id', '=', productId).where('sc_id', '=', scId).execute()
    const row = await stock(productId, scId)
    expect(rows.reduce((s, r) => s + Number(r.stock_num), 0)).toBe(row?.stockNum)
    expect(rows.reduce((s, r) => s.plus(String(r.tax_amount)), new Decimal(0)).toFixed(2)).toBe(row?.taxAmount)
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'BA')
    for (let i = 1; i <= 8; i++) extra.push(await product(`BX${i}`))
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
    await ok('GET', '/sale/config')
  })
  afterAll(async () => t?.close())

  it('posts several lines of one product one after another, at the exact moving average', async () => {
    // Two receipt lines of P1 on a new row: 3 × 10.00 + 4 × 10.01 = 70.04 over 7 → 10.005714.
    const received = await receive(f.scA, [
      { productId: f.p1, orderNum: 3, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 10, taxPrice: '20.00' },
      { productId: f.p1, orderNum: 4, taxPrice: '10.01' },
    ])
    expect(await stock(f.p1, f.scA)).toEqual({ stockNum: 7, taxPrice: '10.005714', taxAmount: '70.04' })
    expect((await log(received)).filter((r) => r.product_id === f.p1).map((r) => String(r.tax_amount)).sort()).toEqual(['30.00', '40.04'])

    // Out: P1 2 then 3 (20.01, then round2(30.017142) = 30.02), P2 once.
    const id = await saleOut(f.scA, [
      { productId: f.p1, orderNum: 2 },
      { productId: f.p2, orderNum: 4 },
      { productId: f.p1, orderNum: 3 },
    ])
    await ok('PATCH', '/sale/out/sheet/approve/pass', { id })
    expect(await stock(f.p1, f.scA)).toEqual({ stockNum: 2, taxPrice: '10.005714', taxAmount: '20.01' })
    expect(await stock(f.p2, f.scA)).toEqual({ stockNum: 6, taxPrice: '20.000000', taxAmount: '120.00' })
    const lines = await db().selectFrom('tbl_sale_out_sheet_detail').select(['order_no', 'cost_tax_amount']).where('sheet_id', '=', id).orderBy('order_no').execute()
    expect(lines.map((l) => new Decimal(String(l.cost_tax_amount)).toFixed(2))).toEqual(['20.01', '80.00', '30.02'])
    const moves = await db()
      .selectFrom('tbl_product_stock_log')
      .select(['product_id', 'ori_stock_num', 'cur_stock_num', 'stock_num', 'tax_amount'])
      .where('biz_id', '=', id)
      .where('product_id', '=', f.p1)
      .orderBy('ori_stock_num', 'desc')
      .execute()
    expect(moves.map((m) => [Number(m.ori_stock_num), Number(m.cur_stock_num), Number(m.stock_num), new Decimal(String(m.tax_amount)).toFixed(2)])).toEqual([
      [7, 5, -2, '-20.01'],
      [5, 2, -3, '-30.02'],
    ])
    await balanced(f.p1, f.scA)
    await balanced(f.p2, f.scA)
  })

  it('approves many sheets with opposite line orders at once: no deadlock, nothing lost', { timeout: 120_000 }, async () => {
    // New rows in warehouse B, created by receipts racing in opposite orders.
    const forward = extra.map((productId, i) => ({ productId, orderNum: 100 + i, taxPrice: `${10 + i}.50` }))
    const receipts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.call<string>('POST', '/purchase/receive/sheet/approve/pass/direct', {
          token,
          body: { scId: f.scB, supplierId: f.supplierId, products: i % 2 ? [...forward].reverse() : forward },
        }),
      ),
    )
    for (const r of receipts) expect(r.body.msg).toBe('操作成功！')
    for (const [i, productId] of extra.entries()) {
      expect(await stock(productId, f.scB)).toEqual({ stockNum: 6 * (100 + i), taxPrice: `${10 + i}.500000`, taxAmount: new Decimal(`${10 + i}.5`).times(6 * (100 + i)).toFixed(2) })
    }

    // 40 sale outs, half with the lines in one order and half in the other, one product twice in each.
    const lines = extra.map((productId, i) => ({ productId, orderNum: 1 + (i % 3) }))
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const ordered = i % 2 ? [...lines].reverse() : lines
      ids.push(await saleOut(f.scB, [...ordered, { productId: extra[0], orderNum: 1 }]))
    }
    const answers = await Promise.all(ids.map(approve))
    expect(answers.map((a) => (JSON.parse(a.body) as { msg: string }).msg)).toEqual(ids.map(() => '操作成功！'))
    for (const [i, productId] of extra.entries()) {
      const out = 40 * (1 + (i % 3) + (i === 0 ? 1 : 0))
      expect((await stock(productId, f.scB))?.stockNum).toBe(6 * (100 + i) - out)
      await balanced(productId, f.scB)
    }
    const statuses = await db().selectFrom('tbl_sale_out_sheet').select('status').where('id', 'in', ids).execute()
    expect(statuses.every((s) => Number(s.status) === 3)).toBe(true)
  })

  it('refuses the whole approval when one line would go negative, and writes nothing', async () => {
    await receive(f.scA, [{ productId: f.p3, orderNum: 5, taxPrice: '0.10' }])
    const before = await Promise.all([f.p1, f.p2, f.p3].map((p) => stock(p, f.scA)))
    const short = await saleOut(f.scA, [
      { productId: f.p1, orderNum: 1 },
      { productId: f.p2, orderNum: 1 },
      { productId: f.p3, orderNum: 6 },
    ])
    const r = await call('PATCH', '/sale/out/sheet/approve/pass', { id: short })
    expect(r.status).toBeLessThan(500)
    expect(r.body.msg).toBe('商品（BAP3）BA商品P3当前库存为5，库存不足，无法出库！')
    // Each line of P3 fits alone, together they do not: the message names the whole need.
    const twice = await saleOut(f.scA, [
      { productId: f.p3, orderNum: 3 },
      { productId: f.p1, orderNum: 1 },
      { productId: f.p3, orderNum: 3 },
    ])
    expect((await call('PATCH', '/sale/out/sheet/approve/pass', { id: twice })).body.msg).toBe('商品（BAP3）BA商品P3当前库存为5，本单共需出库6，库存不足，无法出库！')

    expect(await Promise.all([f.p1, f.p2, f.p3].map((p) => stock(p, f.scA)))).toEqual(before)
    for (const id of [short, twice]) {
      expect(await log(id)).toEqual([])
      const header = await db().selectFrom('tbl_sale_out_sheet').select(['status']).where('id', '=', id).executeTakeFirstOrThrow()
      expect(Number(header.status)).toBe(0)
      const costs = await db().selectFrom('tbl_sale_out_sheet_detail').select('cost_tax_amount').where('sheet_id', '=', id).execute()
      expect(costs.every((c) => c.cost_tax_amount === null || new Decimal(String(c.cost_tax_amount)).isZero())).toBe(true)
      expect(await db().selectFrom('settle_ledger').select('id').where('voucher_id', '=', id).execute()).toEqual([])
    }
  })

  it('tells a counting plan every line of a posting at once, per product and direction', async () => {
    const planId = await ok<string>('POST', '/stock/take/plan', { scId: f.scB, takeType: 0 })
    const totals = async () => {
      const rows = await db()
        .selectFrom('tbl_take_stock_plan_detail')
        .select(['product_id', 'total_in_num', 'total_out_num'])
        .where('plan_id', '=', planId)
        .where('product_id', 'in', extra.slice(0, 4))
        .execute()
      return Object.fromEntries(rows.map((r) => [String(r.product_id), [Number(r.total_in_num), Number(r.total_out_num)]]))
    }
    const out = await saleOut(f.scB, [
      { productId: extra[0], orderNum: 2 },
      { productId: extra[1], orderNum: 1 },
      { productId: extra[0], orderNum: 3 },
    ])
    await ok('PATCH', '/sale/out/sheet/approve/pass', { id: out })
    await receive(f.scB, [
      { productId: extra[2], orderNum: 4, taxPrice: '12.50' },
      { productId: extra[3], orderNum: 2, taxPrice: '13.50' },
      { productId: extra[2], orderNum: 1, taxPrice: '12.50' },
    ])
    expect(await totals()).toEqual({ [extra[0]]: [0, 5], [extra[1]]: [0, 1], [extra[2]]: [5, 0], [extra[3]]: [2, 0] })
    await ok('PATCH', '/stock/take/plan/cancel', { id: planId })
  })
})
