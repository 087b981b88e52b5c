import { readFile } from 'node:fs/promises'
import path from 'node:path'
import Decimal from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NewerDatabaseError, platformMigrations, tenantMigrations } from '../../src/server/db/migrations.js'
import { openPostgres, openSqlite, postgresPool } from '../../src/server/db/connections.js'
import type { Db } from '../../src/server/db/dialect.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { DEFAULT_ADMIN_PASSWORD } from '../../src/server/config.js'
import { KEEP_DAYS } from '../../src/server/realtime/bus-messages.js'
import { readRows, snapshotChanges, snapshotDatabase, type TableSnapshot } from '../support/database-snapshot.js'
import { copyUpgradeFixture, UPGRADE_FIXTURE_DIR, type FixtureCopy } from '../support/upgrade-fixture.js'

const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
type Snapshot = Record<string, TableSnapshot>
type Row = Record<string, unknown>

/** Where a table of the platform or of the demo tenant sits in a snapshot. */
const key = (scope: 'platform' | 'tenant', table: string) =>
  kind === 'sqlite' ? `${scope === 'platform' ? 'app.db' : `app.tenant_${OPERATOR_TENANT_ID}.db`}:${table}` : `${scope === 'platform' ? 'platform' : `tenant_${OPERATOR_TENANT_ID}`}.${table}`

/** Tables the app itself empties at a start, by design: their rows are not an upgrade's to keep. */
const PURGED_AT_START: Record<string, string> = {
  sys_bus_message: `the message feed keeps ${KEEP_DAYS} days (realtime/bus-messages.ts); the fixture's are older`,
}
const tableOf = (name: string) => name.slice(Math.max(name.lastIndexOf(':'), name.lastIndexOf('.')) + 1)

/** Money and quantities the upgrade must keep to the last digit, per table. */
const EXACT: Record<string, string[]> = {
  tbl_sale_out_sheet: ['code', 'status', 'total_num', 'total_amount', 'customer_id', 'approve_time'],
  tbl_sale_out_sheet_detail: ['sheet_id', 'product_id', 'order_num', 'tax_price', 'cost_tax_amount'],
  tbl_product_stock: ['sc_id', 'product_id', 'stock_num', 'tax_price', 'tax_amount'],
  tbl_purchase_order: ['code', 'status', 'total_amount', 'supplier_id'],
  base_data_product: ['code', 'name', 'purchase_price', 'sale_price', 'retail_price'],
}

/**
 * A database made by an earlier release (test/fixtures/upgrade: the demo company and rows in every
 * table) opens in the current app: every migration runs, every row is kept, the main calls answer, and
 * a second start changes nothing. Each later change of a table adds its own migration and this keeps passing.
 */
describe(`upgrade from the released fixture (${kind})`, () => {
  let fixture: FixtureCopy
  let app: FastifyInstance
  let before: Snapshot
  let upgraded: Snapshot
  const released = new Map<string, Map<string, Row>>()
  const rows = (table: string) => readRows(kind, fixture.location, OPERATOR_TENANT_ID, table, EXACT[table])
  let token: string
  const call = async <T = unknown>(method: 'GET' | 'POST', url: string, query?: Record<string, string>, body?: unknown) => {
    const response = await app.inject({ method, url: `/cloud-api${url}`, query, headers: token ? { 'x-auth-token': token } : {}, ...(body ? { payload: body as object } : {}) })
    const answer = response.json() as { code: number; msg: string; data: T }
    expect([response.statusCode, answer.code, answer.msg], `${method} ${url}`).toEqual([200, 200, '操作成功！'])
    return answer.data
  }

  beforeAll(async () => {
    fixture = await copyUpgradeFixture(kind)
    before = await snapshotDatabase(kind, fixture.location)
    for (const table of Object.keys(EXACT)) released.set(table, await rows(table))
    app = await fixture.start()
    await app.close()
    upgraded = await snapshotDatabase(kind, fixture.location)
    app = await fixture.start()
  }, 300_000)
  afterAll(async () => {
    await app?.close()
    await fixture?.drop()
  })

  it('is a fixture of the release named in its README, with rows in every table', async () => {
    const commit = (await readFile(path.join(UPGRADE_FIXTURE_DIR, 'commit.txt'), 'utf8')).trim()
    expect(await readFile(path.join(UPGRADE_FIXTURE_DIR, 'README.md'), 'utf8')).toContain(commit)
    const tables = Object.entries(before).filter(([name]) => !name.endsWith('(schema)') && !/__search/.test(name))
    expect(tables.length).toBeGreaterThan(100)
    expect(tables.filter(([, t]) => t.rows === 0).map(([name]) => name)).toEqual([])
  })

  it('runs every migration of the platform and of the tenant, and records it', async () => {
    const names = async (db: FastifyInstance['services']['databases']['platform']) =>
      (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name)
    expect(await names(app.services.databases.platform)).toEqual(Object.keys(platformMigrations(kind)).sort())
    expect(await names(app.services.databases.tenant(OPERATOR_TENANT_ID))).toEqual(Object.keys(tenantMigrations(kind)).sort())
  })

  it('keeps every table and at least every row of the release', () => {
    const lost = Object.entries(before)
      .filter(([name]) => !name.endsWith('(schema)') && !(tableOf(name) in PURGED_AT_START))
      .filter(([name, t]) => !(upgraded[name] && upgraded[name].rows >= t.rows))
      .map(([name, t]) => `${name}: ${t.rows} → ${upgraded[name]?.rows ?? 'missing'}`)
    expect(lost).toEqual([])
  })

  it('keeps documents, stock and prices to the last digit', async () => {
    for (const [table, columns] of Object.entries(EXACT)) {
      const old = released.get(table)!
      const now = await rows(table)
      expect(old.size, table).toBeGreaterThan(1)
      expect(now.size, table).toBe(old.size)
      for (const [id, row] of old) {
        for (const column of columns) {
          const [was, is] = [row[column], now.get(id)?.[column]]
          const where = `${table}.${column} of ${id}: ${String(was)} → ${String(is)}`
          if (was !== null && /amount|price|num/.test(column)) expect(new Decimal(String(is)).equals(new Decimal(String(was))), where).toBe(true)
          else expect(is, where).toEqual(was)
        }
      }
    }
  })

  it('answers the main calls: sign-in, menu, lists, a document, stock and the settlement balance', async () => {
    token = (await call<{ token: string }>('POST', '/auth/login', undefined, { username: 'admin', password: DEFAULT_ADMIN_PASSWORD })).token
    expect(token).toMatch(/\S{16,}/)
    const menus = await call<{ children?: unknown[] }[]>('GET', '/auth/menus')
    expect(menus.length).toBeGreaterThan(5)
    const count = (table: string) => before[key('tenant', table)].rows
    for (const [url, table] of [
      ['/basedata/product/query', 'base_data_product'],
      ['/basedata/supplier/query', 'base_data_supplier'],
      ['/basedata/customer/query', 'base_data_customer'],
      ['/sale/out/sheet/query', 'tbl_sale_out_sheet'],
      ['/purchase/order/query', 'tbl_purchase_order'],
    ]) {
      const page = await call<{ datas: unknown[]; totalCount: number }>('GET', url, { pageIndex: '1', pageSize: '20' })
      expect(page.totalCount, url).toBe(count(table))
      expect(page.datas.length, url).toBe(Math.min(20, count(table)))
    }
    const sheets = released.get('tbl_sale_out_sheet')!
    const [id, sheet] = [...sheets].find(([, s]) => String(s.code).length > 0 && new Decimal(String(s.total_amount)).gt(0))!
    const detail = await call<{ id: string; code: string; totalAmount: string | number; details: unknown[] }>('GET', '/sale/out/sheet', { id })
    expect([detail.id, detail.code]).toEqual([id, sheet.code])
    expect(new Decimal(String(detail.totalAmount)).equals(new Decimal(String(sheet.total_amount)))).toBe(true)
    expect(detail.details.length).toBeGreaterThan(0)
    const stock = await call<{ datas: unknown[]; totalCount: number }>('GET', '/stock/product/query', { pageIndex: '1', pageSize: '20' })
    expect(stock.totalCount).toBeGreaterThan(0)
    const balances = await call<{ datas: { balance: string }[]; totalCount: number }>('GET', '/customer/settle/report', { pageIndex: '1', pageSize: '50' })
    expect(balances.totalCount).toBeGreaterThan(0)
    expect(balances.datas.some((b) => !new Decimal(String(b.balance)).isZero())).toBe(true)
  })

  it('changes nothing when started again on the upgraded database', async () => {
    await app.close()
    const first = await snapshotDatabase(kind, fixture.location)
    app = await fixture.start()
    await app.close()
    const second = await snapshotDatabase(kind, fixture.location)
    expect(snapshotChanges(first, second)).toEqual([])
    app = await fixture.start()
  })

  it('refuses to start on a database that a newer version migrated, and leaves it as it was', async () => {
    await app.close()
    const newer = async (scope: 'platform' | typeof OPERATOR_TENANT_ID, change: (db: Db) => Promise<unknown>) => {
      const db =
        kind === 'sqlite'
          ? openSqlite(path.join(fixture.dataDir, scope === 'platform' ? 'app.db' : `app.tenant_${scope}.db`))
          : openPostgres(postgresPool(fixture.databaseUrl, 1)).withSchema(scope === 'platform' ? 'platform' : `tenant_${scope}`)
      try {
        await change(db)
      } finally {
        await db.destroy()
      }
    }
    for (const scope of ['platform', OPERATOR_TENANT_ID] as const) {
      await newer(scope, (db) => db.insertInto('kysely_migration').values({ name: '9999_from_a_newer_version', timestamp: new Date().toISOString() }).execute())
      const before = await snapshotDatabase(kind, fixture.location)
      const start = fixture.start()
      await expect(start).rejects.toThrow(NewerDatabaseError)
      await expect(start).rejects.toThrow(`its ${scope === 'platform' ? 'platform' : `tenant ${scope}`} migrations 9999_from_a_newer_version are unknown here`)
      expect(snapshotChanges(before, await snapshotDatabase(kind, fixture.location))).toEqual([])
      await newer(scope, (db) => db.deleteFrom('kysely_migration').where('name', '=', '9999_from_a_newer_version').execute())
    }
    app = await fixture.start()
  })
})
