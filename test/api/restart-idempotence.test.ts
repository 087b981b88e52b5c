import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROW_COUNT_TABLE } from '../../src/server/db/row-counter.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

type Page<T> = { datas: T[]; totalCount: number }

/**
 * Rows of every table of the platform database and of each tenant database (a SQLite file or a PostgreSQL schema).
 * The row counters are compared by what they count: on PostgreSQL a table's count is split over stripes that
 * concurrent writers add and each start-up merges (db/row-counter.ts), so their own row count may shrink.
 */
async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const { databases } = t.app.services
  const counts: Record<string, number> = {}
  for (const scope of ['platform', ...(await t.app.services.tenantIds()).sort()]) {
    const db = scope === 'platform' ? databases.platform : databases.tenant(scope)
    if (databases.kind === 'postgres') {
      const schema = databases.schemaOf(scope)!
      const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = ${schema} and table_type = 'BASE TABLE' order by table_name`.execute(db)
      for (const { name } of tables.rows) {
        const r = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(`${schema}.${name}`)}`.execute(db)
        counts[`${scope}.${name}`] = Number(r.rows[0].n)
      }
    } else {
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)
      for (const { name } of tables.rows) {
        const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(db)
        counts[`${scope}.${name}`] = Number(r.rows[0].n)
      }
    }
    if (`${scope}.${ROW_COUNT_TABLE}` in counts) {
      delete counts[`${scope}.${ROW_COUNT_TABLE}`]
      const counted = await db.selectFrom(ROW_COUNT_TABLE).select((eb) => ['table_name', eb.fn.sum<string | number>('n').as('n')]).groupBy('table_name').execute()
      for (const row of counted) counts[`${scope}.${ROW_COUNT_TABLE}(${String(row.table_name)})`] = Number(row.n)
    }
  }
  return counts
}

const BRANDS = 'base_data_product_brand'

/** `table: before → after` of every table whose count differs: a failure names the table, not two long objects. */
function changedCounts(before: Record<string, number>, after: Record<string, number>): Record<string, string> {
  const tables = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return Object.fromEntries(tables.filter((table) => before[table] !== after[table]).map((table) => [table, `${before[table]} → ${after[table]}`]))
}

/**
 * Starting the server again on the same data (two tenants, business data, changed settings) migrates and
 * seeds nothing twice: every table keeps its row count, edits to seeded rows survive, signed-in users stay
 * signed in, and document numbering continues instead of starting over.
 */
describe('restart on the same data: migrations and seeds are idempotent', () => {
  let t: TestApp
  let operator: string
  let other: string
  const ids: Record<string, string> = {}
  const ok = async <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await t.call<T>(method, url, { token, body, query })
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const purchaseOrder = async (token: string, prefix: string) => {
    const sc = await ok<string>(token, 'POST', '/basedata/storecenter', { code: `${prefix}SC`, name: `${prefix}仓库` })
    const supplier = await ok<string>(token, 'POST', '/basedata/supplier', { code: `${prefix}S`, name: `${prefix}供应商`, settleType: 1, manageType: 1 })
    const category = await ok<string>(token, 'POST', '/basedata/product/category', { code: `${prefix}C`, name: `${prefix}类目` })
    const brand = await ok<string>(token, 'POST', '/basedata/product/brand', { code: `${prefix}B`, name: `${prefix}品牌` })
    const product = await ok<string>(token, 'POST', '/basedata/product', {
      code: `${prefix}P`, name: `${prefix}商品`, skuCode: `${prefix}SKU`, categoryId: category, brandId: brand, productType: 1, taxRate: 17, saleTaxRate: 17, purchasePrice: '5.00',
    })
    const body = { scId: sc, supplierId: supplier, products: [{ productId: product, orderNum: 1, taxPrice: '5.00' }] }
    return { supplier, body, order: await ok<string>(token, 'POST', '/purchase/order', body) }
  }

  beforeAll(async () => {
    t = await startTestApp()
    operator = await t.login('admin')
    await ok(operator, 'POST', '/system/tenant', { id: '2000', name: '第二租户', available: true })
    other = await t.login('2000@admin')
    const a = await purchaseOrder(operator, 'A')
    const b = await purchaseOrder(other, 'B')
    Object.assign(ids, { supplierA: a.supplier, orderA: a.order, supplierB: b.supplier, orderB: b.order })
    ids.bodyB = JSON.stringify(b.body)
    // A seeded setting changed by the tenant: a second seed run must not put it back.
    await ok(other, 'PUT', '/retail/config', { retailOutSheetRequireMember: true })
    // On PostgreSQL a brand written while another transaction holds the brands' counter adds a stripe to it.
    const { databases } = t.app.services
    if (databases.kind === 'postgres') {
      await databases.tenant('1000').transaction().execute(async (trx) => {
        await trx.selectFrom(ROW_COUNT_TABLE).select('id').where('table_name', '=', BRANDS).forUpdate().execute()
        await ok(operator, 'POST', '/basedata/product/brand', { code: 'AB2', name: 'A品牌二' })
      })
    }
  }, 180_000)
  afterAll(async () => t?.close())

  it('keeps every table at the same row count across two restarts, on both tenants', { timeout: 180_000 }, async () => {
    const before = await rowCounts(t)
    // Seeds are really there to be duplicated: menus, roles and the admin user of both tenants.
    for (const tenant of ['1000', '2000']) {
      expect(before[`${tenant}.sys_menu`], `${tenant} menus`).toBeGreaterThan(20)
      expect(before[`${tenant}.sys_user`], `${tenant} users`).toBe(1)
    }
    expect(before['platform.tenant']).toBe(2)
    expect(Object.keys(before).length).toBeGreaterThan(60)
    const stripes = async () => {
      const db = t.app.services.databases.tenant('1000')
      return Number((await db.selectFrom(ROW_COUNT_TABLE).select(db.fn.countAll().as('n')).where('table_name', '=', BRANDS).executeTakeFirstOrThrow()).n)
    }
    if (t.app.services.databases.kind === 'postgres') expect(await stripes(), 'the brands are counted on two stripes').toBe(2)
    await t.restart()
    expect(await stripes(), 'the start-up merged the stripes').toBe(1)
    expect(changedCounts(before, await rowCounts(t)), 'tables whose row count the first restart changed').toEqual({})
    await t.restart()
    expect(changedCounts(before, await rowCounts(t)), 'tables whose row count the second restart changed').toEqual({})
  })

  it('after a restart the data, the changed settings and the sessions are still there', async () => {
    const supplier = await ok<{ name: string }>(operator, 'GET', '/basedata/supplier', undefined, { id: ids.supplierA })
    expect(supplier.name).toBe('A供应商')
    const order = await ok<{ code: string; status: number }>(other, 'GET', '/purchase/order', undefined, { id: ids.orderB })
    expect(order.code).toMatch(/^\d{8}0000000001$/)
    expect((await t.call('GET', '/basedata/supplier', { token: other, query: { id: ids.supplierA } })).status).toBe(404)
    expect(await ok<Record<string, boolean>>(other, 'GET', '/retail/config')).toMatchObject({ retailOutSheetRequireMember: true })
    expect(await ok<Record<string, boolean>>(operator, 'GET', '/retail/config')).toMatchObject({ retailOutSheetRequireMember: false })
    const roles = await ok<Page<{ code: string }>>(other, 'GET', '/system/role/query', undefined, { pageSize: '100' })
    expect(roles.datas.map((r) => r.code).filter((c) => c === '001')).toEqual(['001'])
    // Both tenants still sign in the tenant@user way, and the admin still holds every permission.
    expect(await t.login('2000@admin')).toBeTypeOf('string')
    expect((await t.call('POST', '/auth/login', { body: { username: 'admin', password: 'admin123456' } })).body.msg).toBe('请按“租户ID@用户名”的格式输入用户名')
  })

  it('brings a built-in menu added to the seed later (重置密码) to a tenant created before it, once', async () => {
    const db = t.app.services.databases.tenant('2000')
    const menu = await db.selectFrom('sys_menu').select(['id', 'parent_id', 'permission']).where('permission', '=', 'system:user:password').executeTakeFirstOrThrow()
    await db.deleteFrom('sys_menu').where('id', '=', menu.id).execute()
    const count = async () => {
      const current = t.app.services.databases.tenant('2000')
      return Number((await current.selectFrom('sys_menu').select(current.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    }
    const without = await count()
    await t.restart()
    const again = await t.app.services.databases.tenant('2000').selectFrom('sys_menu').select(['id', 'parent_id']).where('permission', '=', 'system:user:password').execute()
    expect(again).toEqual([{ id: menu.id, parent_id: menu.parent_id }])
    await t.restart()
    expect(await count()).toBe(without + 1)
  })

  it('continues the document numbers of each tenant after a restart', async () => {
    const next = await ok<string>(other, 'POST', '/purchase/order', JSON.parse(ids.bodyB))
    const code = (await ok<{ code: string }>(other, 'GET', '/purchase/order', undefined, { id: next })).code
    expect(code).toMatch(/^\d{8}0000000002$/)
  })
})
