import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import Decimal from 'decimal.js'
import dayjs from 'dayjs'
import { seedDemoCompany } from '../../src/server/demo/demo-company.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** The demo company `npm start` seeds into a fresh database (issue 17 "First start"). */
describe('demo company', () => {
  let t: TestApp
  const errors = vi.spyOn(console, 'error')
  const db = () => t.app.services.databases.tenant(OPERATOR_TENANT_ID)
  const count = async (table: string) => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

  beforeAll(async () => {
    t = await startTestApp()
    vi.spyOn(console, 'log').mockImplementation(() => {})
    await seedDemoCompany(t.app)
  }, 300_000)
  afterAll(async () => {
    vi.restoreAllMocks()
    await t?.close()
  })

  it('makes master data and months of approved documents through the real routes, without an error', async () => {
    expect(errors).not.toHaveBeenCalled()
    expect(await count('base_data_product')).toBeGreaterThanOrEqual(50)
    expect(await count('base_data_store_center')).toBe(3)
    expect(await count('base_data_supplier')).toBeGreaterThanOrEqual(4)
    expect(await count('base_data_customer')).toBeGreaterThanOrEqual(5)
    expect(await count('base_data_member')).toBeGreaterThanOrEqual(5)
    const approved = async (table: string) =>
      (await db().selectFrom(table).select(['status', 'approve_time']).execute()).map((r) => ({ status: Number(r.status), day: String(r.approve_time).slice(0, 10) }))
    const sales = await approved('tbl_sale_out_sheet')
    const retails = await approved('tbl_retail_out_sheet')
    const orders = await approved('tbl_purchase_order')
    for (const docs of [sales, retails]) {
      expect(docs.length).toBeGreaterThan(10)
      expect(docs.every((d) => d.status === 3)).toBe(true)
    }
    // Every purchase order approved and then received in full (12).
    expect(orders.length).toBeGreaterThan(10)
    expect(orders.every((d) => d.status === 12)).toBe(true)
    // Spread over the last two months, never in the future: the workplace chart has content.
    const days = new Set(sales.map((d) => d.day))
    expect(days.size).toBeGreaterThan(40)
    expect([...days].every((d) => d <= dayjs().format('YYYY-MM-DD') && d >= dayjs().subtract(62, 'day').format('YYYY-MM-DD'))).toBe(true)
  })

  it('leaves a stock that agrees with its ledger and is never negative', async () => {
    const stock = await db().selectFrom('tbl_product_stock').select(['product_id', 'sc_id', 'stock_num']).execute()
    const moves = await db().selectFrom('tbl_product_stock_log').select(['product_id', 'sc_id', 'stock_num']).execute()
    const sums = new Map<string, Decimal>()
    for (const m of moves) sums.set(`${m.product_id}|${m.sc_id}`, (sums.get(`${m.product_id}|${m.sc_id}`) ?? new Decimal(0)).plus(String(m.stock_num)))
    expect(stock.length).toBeGreaterThan(50)
    for (const s of stock) {
      expect(Number(s.stock_num)).toBeGreaterThanOrEqual(0)
      expect(sums.get(`${s.product_id}|${s.sc_id}`)?.toString()).toBe(new Decimal(String(s.stock_num)).toString())
    }
  })

  it('runs once: a second start adds nothing', async () => {
    const before = await count('tbl_sale_out_sheet')
    await seedDemoCompany(t.app)
    expect(await count('tbl_sale_out_sheet')).toBe(before)
    expect(await count('base_data_product')).toBeGreaterThanOrEqual(50)
  })

  it('answers the spec default title, a customer relationship management system', async () => {
    const init = await t.call<{ title: string }>('GET', '/auth/init')
    expect(init.body.data.title).toBe('星云客户关系管理系统')
  })
})
