import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lockConflictRetries } from '../../src/server/platform/db-tx.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers } from '../support/sale-helpers.js'

const URL = '/sale/out/sheet'
const SUBJECT = '销售出库单'
const PAIRS = 15
const STOCK = 1000

type Answer = { status: number; body: { code: number; msg: string } }

/**
 * The lock order is the engine's, not the settle sheets': the same races on a stock document (sale out
 * sheets of two products, lines in both orders) answer 200 or a clear 4xx, never 5xx, and leave the
 * stock exactly the opening quantity minus what the approved sheets took.
 */
describe('stock documents under concurrent approve, delete, modify and batch approval', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const h = saleHelpers(() => t, () => token)
  const { ok, call } = h
  const made: string[] = []

  const lines = (n: number, reversed: boolean) => {
    const both = [
      { productId: f.p1, orderNum: n, taxPrice: '15.00' },
      { productId: f.p2, orderNum: n, taxPrice: '30.00' },
    ]
    return reversed ? both.reverse() : both
  }
  const pendings = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const id = await ok<string>('POST', URL, { scId: f.scA, customerId: f.customerId, products: lines(1, i % 2 === 1) })
        made.push(id)
        return id
      }),
    )
  const clean = (r: Answer, what: string) => {
    expect(r.status, `${what}: ${r.status} ${r.body.msg}`).toBeLessThan(500)
    if (r.status !== 200) expect(r.body.msg, what).toMatch(/[\u4e00-\u9fff]/)
  }
  const statusOf = async (id: string) => {
    const row = await h.db().selectFrom('tbl_sale_out_sheet').select('status').where('id', '=', id).executeTakeFirst()
    return row ? Number(row.status) : undefined
  }
  /** Stock = opening − Σ quantities of the approved sheets' lines, per product. */
  const stockExact = async () => {
    const taken = await h
      .db()
      .selectFrom('tbl_sale_out_sheet_detail as d')
      .innerJoin('tbl_sale_out_sheet as s', 's.id', 'd.sheet_id')
      .select(['d.product_id', 'd.order_num'])
      .where('s.status', '=', 3)
      .execute()
    for (const product of [f.p1, f.p2]) {
      const out = taken.filter((l) => String(l.product_id) === product).reduce((s, l) => s + Number(l.order_num), 0)
      expect((await h.stock(product, f.scA))?.stockNum, 'stock = opening − approved').toBe(STOCK - out)
      const log = await h.db().selectFrom('tbl_product_stock_log').select('biz_id').where('product_id', '=', product).where('biz_id', 'in', made).execute()
      expect(log.length, 'one log row per approved sheet').toBe(taken.filter((l) => String(l.product_id) === product).length)
    }
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'D')
    await h.stockIn(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: STOCK, taxPrice: '10.00' },
      { productId: f.p2, orderNum: STOCK, taxPrice: '20.00' },
    ])
  })
  afterAll(async () => t?.close())

  it('approve racing delete: exactly one of each pair wins', async () => {
    const ids = await pendings(PAIRS)
    const answers = await Promise.all(ids.map((id) => Promise.all([call('PATCH', `${URL}/approve/pass`, { id }), call('DELETE', URL, { id })])))
    for (const [i, [approved, removed]] of answers.entries()) {
      clean(approved as Answer, 'approve')
      clean(removed as Answer, 'delete')
      if (approved.status === 200) {
        expect(removed.body.msg).toBe(`“审核通过”的${SUBJECT}不允许执行删除操作！`)
        expect(await statusOf(ids[i])).toBe(3)
      } else {
        expect(removed.status, removed.body.msg).toBe(200)
        expect(approved.body.msg).toBe(`${SUBJECT}不存在！`)
        expect(await statusOf(ids[i])).toBeUndefined()
      }
    }
    await stockExact()
  })

  it('approve racing modify (lines in the other order): the approval goes through, the modify before it or refused after', async () => {
    const ids = await pendings(PAIRS)
    const answers = await Promise.all(
      ids.map((id, i) =>
        Promise.all([
          call('PATCH', `${URL}/approve/pass`, { id }),
          call('PUT', URL, { id, scId: f.scA, customerId: f.customerId, products: lines(2, i % 2 === 0) }),
        ]),
      ),
    )
    for (const [i, [approved, modified]] of answers.entries()) {
      clean(approved as Answer, 'approve')
      clean(modified as Answer, 'modify')
      expect(approved.status, approved.body.msg).toBe(200)
      if (modified.status !== 200) expect(modified.body.msg).toBe(`${SUBJECT}已审核通过，无法修改！`)
      expect(await statusOf(ids[i])).toBe(3)
    }
    await stockExact()
  })

  it('disjoint batch approvals whose products cross (P1 then P2 against P2 then P1) lock the stock rows in one order: no deadlock to retry', async () => {
    const one = async (productId: string) => {
      const id = await ok<string>('POST', URL, { scId: f.scA, customerId: f.customerId, products: [{ productId, orderNum: 1, taxPrice: '15.00' }] })
      made.push(id)
      return id
    }
    const rounds = 5
    const before = lockConflictRetries()
    for (let round = 0; round < rounds; round++) {
      const [a1, a2, b1, b2] = [await one(f.p1), await one(f.p2), await one(f.p2), await one(f.p1)]
      // Each batch approves in the order given: the first P1 then P2, the second P2 then P1.
      const answers = await Promise.all([call('PATCH', `${URL}/approve/pass/batch`, { ids: [a1, a2] }), call('PATCH', `${URL}/approve/pass/batch`, { ids: [b1, b2] })])
      for (const r of answers) expect(r.status, r.body.msg).toBe(200)
    }
    expect(lockConflictRetries() - before, 'transactions retried after a deadlock').toBe(0)
    await stockExact()
  })

  it('6 overlapping batch approvals and batch deletes over 10 pending sheets: disjoint winners, clear refusals', async () => {
    const ids = await pendings(10)
    const windows = Array.from({ length: 6 }, (_, k) => {
      const w = [0, 1, 2, 3].map((j) => ids[(k * 2 + j) % 10])
      return k % 2 ? w.reverse() : w
    })
    const answers = await Promise.all(
      windows.map((w, k) => (k % 3 === 2 ? call('DELETE', `${URL}/batch`, w) : call('PATCH', `${URL}/approve/pass/batch`, { ids: w }))),
    )
    const touched = new Set<string>()
    for (const [k, r] of answers.entries()) {
      clean(r as Answer, 'batch')
      if (r.status !== 200) continue
      for (const id of windows[k]) {
        expect(touched.has(id), 'a sheet taken by two batches').toBe(false)
        touched.add(id)
        expect(await statusOf(id)).toBe(k % 3 === 2 ? undefined : 3)
      }
    }
    for (const id of ids) if (!touched.has(id)) expect(await statusOf(id)).toBe(0)
    await stockExact()
  })
})
