import ExcelJS from 'exceljs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import type { Db } from '../../src/server/db/dialect.js'
import { ROW_COUNT_TABLE } from '../../src/server/db/row-counter.js'

/**
 * The trigger-kept row counters (src/server/db/row-counter.ts) that answer an unfiltered list's
 * totalCount: after every kind of write, through the API and around it, the counter equals count(*),
 * and the list answers it.
 */
describe('row counters stay equal to count(*)', () => {
  let t: TestApp
  let token: string
  let trade: TradeFixtures
  let seq = 0
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    trade = await createTradeFixtures(t, token, 'RC')
  })
  afterAll(async () => t?.close())

  const tenantDb = (tenantId = '1000'): Db => t.app.services.databases.tenant(tenantId)
  const exact = async (db: Db, table: string) =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const counter = async (db: Db, table: string) => {
    const rows = await db.selectFrom(ROW_COUNT_TABLE).select('n').where('table_name', '=', table).execute()
    return { stripes: rows.length, n: rows.reduce((sum, r) => sum + Number(r.n), 0) }
  }
  /** The counter of `table` holds exactly count(*), and the unfiltered list at `url` answers it. */
  const expectExact = async (table: string, url: string, auth = token, db = tenantDb()) => {
    const n = await exact(db, table)
    const kept = await counter(db, table)
    expect(kept.stripes).toBeGreaterThan(0)
    expect(kept.n).toBe(n)
    const page = await t.call<{ totalCount: number }>('GET', url, { token: auth, query: { pageIndex: 1, pageSize: 5 } })
    expect(page.body.data.totalCount).toBe(n)
    return n
  }
  const supplier = async (auth = token) => {
    seq += 1
    const r = await t.call<string>('POST', '/basedata/supplier', { token: auth, body: { code: `RC-${seq}`, name: `计数供应商${seq}`, settleType: 1, manageType: 1 } })
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 200 })
    return r.body.data
  }
  const SUPPLIERS = ['base_data_supplier', '/basedata/supplier/query'] as const

  it('counts the rows that existed before the counter (seeds, fixtures) and follows creates', async () => {
    const before = await expectExact(...SUPPLIERS)
    expect(before).toBeGreaterThan(0)
    for (let i = 0; i < 3; i++) await supplier()
    expect(await expectExact(...SUPPLIERS)).toBe(before + 3)
    // Seeded tables are counted from their first start too.
    expect(await expectExact('sys_role', '/system/role/query')).toBeGreaterThan(0)
  })

  it('follows single and batch deletes', async () => {
    const ids = [await supplier(), await supplier(), await supplier()]
    const before = await expectExact(...SUPPLIERS)
    const one = await t.call('DELETE', '/basedata/supplier', { token, body: { id: ids[0] } })
    expect(one.body).toMatchObject({ code: 200 })
    expect(await expectExact(...SUPPLIERS)).toBe(before - 1)
    const batch = await t.call('DELETE', '/basedata/supplier', { token, body: ids.slice(1) })
    expect(batch.body).toMatchObject({ code: 200 })
    expect(await expectExact(...SUPPLIERS)).toBe(before - 3)
  })

  it('is unchanged by a refused write and by a rolled-back transaction', async () => {
    const before = await expectExact(...SUPPLIERS)
    // A batch delete holding one missing id is refused and changes nothing.
    const id = await supplier()
    const refused = await t.call('DELETE', '/basedata/supplier', { token, body: [id, 'no-such-id'] })
    expect(refused.body.code).not.toBe(200)
    expect(await expectExact(...SUPPLIERS)).toBe(before + 1)
    const db = tenantDb()
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('base_data_supplier').values({ id: 'rolled-back-1', code: 'RB-1', name: '回滚', settle_type: 1, manage_type: 1 }).execute()
        await trx.deleteFrom('base_data_supplier').where('id', '=', id).execute()
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await expectExact(...SUPPLIERS)).toBe(before + 1)
  })

  it('follows inserts and deletes that bypass the store (domain code, raw SQL)', async () => {
    const before = await expectExact(...SUPPLIERS)
    const db = tenantDb()
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `raw-${i}`, code: `RAW-${i}`, name: `直接写入${i}`, settle_type: 1, manage_type: 1 }))
    await db.insertInto('base_data_supplier').values(rows).execute()
    expect(await expectExact(...SUPPLIERS)).toBe(before + 25)
    await db.deleteFrom('base_data_supplier').where('code', 'like', 'RAW-%').execute()
    expect(await expectExact(...SUPPLIERS)).toBe(before)
  })

  it('follows an Excel import', async () => {
    const before = await expectExact(...SUPPLIERS)
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('数据')
    sheet.addRow(['*编号', '*名称', '*结账方式'])
    for (let i = 0; i < 12; i++) sheet.addRow([`IMP-${i}`, `导入供应商${i}`, '款到发货'])
    const bytes = Buffer.from(await book.xlsx.writeBuffer())
    const boundary = '----row-counter-test'
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="import.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const started = await t.app.inject({
      method: 'POST',
      url: '/cloud-api/basedata/supplier/import',
      headers: { 'x-auth-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    })
    const taskId = (JSON.parse(started.body) as { data: string }).data
    let progress: { finished: boolean; hasError: boolean; tipMsgs: string[] } | undefined
    for (let i = 0; i < 400 && !progress?.finished; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      progress = (await t.call<typeof progress>('GET', '/component/import/task', { token, query: { id: taskId } })).body.data
    }
    expect(progress, JSON.stringify(progress)).toMatchObject({ finished: true, hasError: false })
    expect(await expectExact(...SUPPLIERS)).toBe(before + 12)
  })

  it('follows document creation and batch deletion (header table; the list answers it)', async () => {
    const ORDERS = ['tbl_purchase_order', '/purchase/order/query'] as const
    const before = await expectExact(...ORDERS)
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const r = await t.call<string>('POST', '/purchase/order', {
        token,
        body: { scId: trade.scA, supplierId: trade.supplierId, products: [{ productId: trade.p1, orderNum: 2, taxPrice: '10.00' }], payTypes: [{ id: trade.payTypeId, payAmount: '20.00' }] },
      })
      expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 200 })
      ids.push(r.body.data)
    }
    expect(await expectExact(...ORDERS)).toBe(before + 3)
    const removed = await t.call('DELETE', '/purchase/order/batch', { token, body: ids.slice(0, 2) })
    expect(removed.body).toMatchObject({ code: 200 })
    expect(await expectExact(...ORDERS)).toBe(before + 1)
  })

  it('stays exact under 50 creates fired in parallel', async () => {
    const before = await expectExact(...SUPPLIERS)
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call<string>('POST', '/basedata/supplier', { token, body: { code: `PAR-${i}`, name: `并发供应商${i}`, settleType: 1, manageType: 1 } }),
      ),
    )
    expect(answers.map((a) => a.body.code)).toEqual(Array(50).fill(200))
    expect(await expectExact(...SUPPLIERS)).toBe(before + 50)
  })

  it('the unfiltered list reads the counter (no scan); a filtered list counts the matching rows', async () => {
    const all = await expectExact(...SUPPLIERS)
    const db = tenantDb()
    // Skewed on purpose for one read, to see which number the list answers.
    const skew = (by: number) =>
      db.updateTable(ROW_COUNT_TABLE).set((eb) => ({ n: eb('n', '+', by) })).where('table_name', '=', 'base_data_supplier').where('id', '=', db.selectFrom(ROW_COUNT_TABLE).select((eb) => eb.fn.min('id').as('id')).where('table_name', '=', 'base_data_supplier')).execute()
    await skew(1000)
    try {
      const unfiltered = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token, query: { pageIndex: 1, pageSize: 5, code: '', available: '' } })
      expect(unfiltered.body.data.totalCount).toBe(all + 1000)
      const filtered = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token, query: { code: 'PAR-' } })
      expect(filtered.body.data.totalCount).toBe(50)
    } finally {
      await skew(-1000)
    }
    expect(await expectExact(...SUPPLIERS)).toBe(all)
  })

  it('keeps each tenant its own count', async () => {
    const operator = await t.login('1000@admin')
    const created = await t.call('POST', '/system/tenant', { token: operator, body: { id: '2000', name: '计数租户', available: true } })
    expect(created.body).toMatchObject({ code: 200 })
    const other = await t.login('2000@admin')
    const mine = await expectExact(...SUPPLIERS, operator)
    const theirsBefore = await expectExact(...SUPPLIERS, other, tenantDb('2000'))
    for (let i = 0; i < 4; i++) await supplier(other)
    await supplier(operator)
    expect(await expectExact(...SUPPLIERS, other, tenantDb('2000'))).toBe(theirsBefore + 4)
    expect(await expectExact(...SUPPLIERS, operator)).toBe(mine + 1)
    // The platform's own listed table (tenants) has its counter in the platform database.
    expect(await expectExact('tenant', '/system/tenant/query', operator, t.app.services.databases.platform)).toBe(2)
  })

  it('a table whose counter is lost is counted with count(*) and recounted at the next start', async () => {
    const db = tenantDb()
    const n = await exact(db, 'base_data_supplier')
    await db.deleteFrom(ROW_COUNT_TABLE).where('table_name', '=', 'base_data_supplier').execute()
    // Writes meanwhile do not invent a counter.
    await supplier()
    expect((await counter(db, 'base_data_supplier')).stripes).toBe(0)
    const page = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token })
    expect(page.body.data.totalCount).toBe(n + 1)
    await t.restart()
    token = await t.login('1000@admin')
    expect((await counter(tenantDb(), 'base_data_supplier')).stripes).toBe(1)
    expect(await expectExact(...SUPPLIERS)).toBe(n + 1)
  })

  it.skipIf(process.env.TEST_DB !== 'postgres')('PostgreSQL: a writer never waits for another writer’s counter; stripes are summed, merged at start and reset by TRUNCATE', async () => {
    const db = tenantDb()
    const before = await exact(db, 'base_data_supplier')
    // Two open transactions insert into the same table: the second must not wait for the first's stripe.
    const first = await beginHeld(db, async (trx) => {
      await trx.insertInto('base_data_supplier').values({ id: 'held-1', code: 'HELD-1', name: '持有1', settle_type: 1, manage_type: 1 }).execute()
    })
    await db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '200ms'`.execute(trx)
      await trx.insertInto('base_data_supplier').values({ id: 'held-2', code: 'HELD-2', name: '持有2', settle_type: 1, manage_type: 1 }).execute()
    })
    await first.commit()
    const kept = await counter(db, 'base_data_supplier')
    expect(kept.stripes).toBeGreaterThan(1)
    expect(kept.n).toBe(before + 2)
    expect(await expectExact(...SUPPLIERS)).toBe(before + 2)
    await t.restart()
    token = await t.login('1000@admin')
    expect(await counter(tenantDb(), 'base_data_supplier')).toEqual({ stripes: 1, n: before + 2 })
    await sql.raw('truncate table tenant_1000.base_data_product_brand').execute(tenantDb())
    expect(await expectExact('base_data_product_brand', '/basedata/product/brand/query')).toBe(0)
  })
})

/** Opens a transaction on its own connection, runs `work` in it and keeps it open until `commit`. */
async function beginHeld(db: Db, work: (trx: Db) => Promise<void>): Promise<{ commit(): Promise<void> }> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let ready!: () => void
  let failed!: (e: unknown) => void
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)))
  const done = db
    .transaction()
    .execute(async (trx) => {
      await work(trx)
      ready()
      await released
    })
    .catch((e: unknown) => failed(e))
  await started
  return {
    async commit() {
      release()
      await done
    },
  }
}
