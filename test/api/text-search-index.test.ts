import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { likeEscape } from '../../src/server/engine/list-conditions.js'
import { keyParts } from '../../src/server/db/search-index.js'

/**
 * The searchable text conditions (product code / name / short name / SKU contains) run through their
 * search index (pg_trgm GIN on PostgreSQL, FTS5 trigram on SQLite) and must find exactly the rows the
 * plain LIKE finds: Latin case-insensitive, Chinese exact, `%` and `_` literal, short patterns, and the
 * index kept in step when a row changes or goes away.
 */
const TENANT = '1000'
const NAMES: Record<string, string> = {
  'TS-001': '红色运动鞋 Alpha',
  'TS-002': '蓝色运动鞋 ALPHA',
  'ts-003': '红色保温杯 alpha',
  'TS-004': '满100减50% 促销装',
  'TS-005': '满100减50折 促销装',
  'TS-006': 'a_b 下划线款',
  'TS-007': 'axb 无下划线款',
  'TS-008': '"引号"商品 O\'Brien',
  'TS-009': 'Ärger ärger 大小写',
  'TS-010': '红色',
}

describe('text search through the search index', () => {
  let t: TestApp
  let token: string
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    const created = async (url: string, body: Record<string, unknown>) => {
      const r = await t.call<string>('POST', url, { token, body })
      if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
      return r.body.data
    }
    const categoryId = await created('/basedata/product/category', { code: 'TSC', name: '搜索类目', available: true })
    const brandId = await created('/basedata/product/brand', { code: 'TSB', name: '搜索品牌', available: true })
    for (const [code, name] of Object.entries(NAMES))
      ids[code] = await created('/basedata/product', { code, name, skuCode: `SKU-${code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17 })
  })
  afterAll(async () => t?.close())

  const db = () => t.app.services.databases.tenant(TENANT)
  /** Raw SQL names the tenant's schema itself on PostgreSQL (the handle's schema applies to built queries only). */
  const products = () => sql.raw(t.dbKind === 'postgres' ? `tenant_${TENANT}.base_data_product` : 'base_data_product')

  /** What the list's LIKE alone answers (no index), straight from the table. */
  async function plainLike(column: 'code' | 'name', text: string): Promise<string[]> {
    const pattern = `%${likeEscape(text)}%`
    const op = sql.raw(t.dbKind === 'postgres' ? 'ilike' : 'like')
    const rows = await sql<{ code: string }>`select code from ${products()} where ${sql.ref(column)} ${op} ${pattern} escape '\\' order by code`.execute(db())
    return rows.rows.map((r) => r.code)
  }

  async function searched(url: string, query: Record<string, string>): Promise<string[]> {
    const r = await t.call<{ datas: { code: string }[]; totalCount: number }>('GET', url, { token, query: { pageIndex: '1', pageSize: '100', sortField: 'code', ...query } })
    expect(r.body.code, r.raw).toBe(200)
    expect(r.body.data.totalCount).toBe(r.body.data.datas.length)
    return r.body.data.datas.map((d) => d.code).sort()
  }

  const cases: [column: 'code' | 'name', text: string, expected: string[]][] = [
    ['name', 'alpha', ['TS-001', 'TS-002', 'ts-003']],
    ['name', 'ALPHA', ['TS-001', 'TS-002', 'ts-003']],
    ['code', 'ts-00', ['TS-001', 'TS-002', 'TS-004', 'TS-005', 'TS-006', 'TS-007', 'TS-008', 'TS-009', 'ts-003']],
    ['name', '红色运动', ['TS-001']],
    ['name', '运动鞋', ['TS-001', 'TS-002']],
    ['name', '红色', ['TS-001', 'TS-010', 'ts-003']],
    ['name', '色', ['TS-001', 'TS-002', 'TS-010', 'ts-003']],
    ['name', '50%', ['TS-004']],
    ['name', '减50% 促', ['TS-004']],
    ['name', 'a_b', ['TS-006']],
    ['name', '_b', ['TS-006']],
    ['name', '"引号"', ['TS-008']],
    ['name', "O'Brien", ['TS-008']],
    ['name', 'x', ['TS-007']],
    ['name', '不存在的名字', []],
  ]

  it.each(cases)('%s contains %j: the rows the plain LIKE finds', async (column, text, expected) => {
    const old = await plainLike(column, text)
    expect(old).toEqual(expected)
    expect(await searched('/basedata/product/query', { [column]: text })).toEqual(old)
    // The picker reads the same declared filters (its `available` defaults to enabled: all are).
    expect(await searched('/selector/product', { [column]: text })).toEqual(old)
  })

  it('matches non-ASCII Latin letters exactly as the database LIKE does', async () => {
    for (const text of ['ärger', 'ÄRGER', 'Ärger'])
      expect(await searched('/basedata/product/query', { name: text })).toEqual(await plainLike('name', text))
  })

  it('refuses a NUL in the text with a Chinese 400', async () => {
    for (const url of ['/basedata/product/query', '/selector/product']) {
      const r = await t.call('GET', url, { token, query: { name: 'abc\u0000def' } })
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe('请求参数不能包含空字符（\\0）')
    }
  })

  it('keeps the index in step with updates and deletes', async () => {
    const detail = await t.call<Record<string, unknown>>('GET', '/basedata/product', { token, query: { id: ids['TS-010'] } })
    expect(detail.body.code, detail.raw).toBe(200)
    const modified = await t.call('PUT', '/basedata/product', { token, body: { ...detail.body.data, id: ids['TS-010'], name: '翠绿保温壶' } })
    expect(modified.body.code, modified.raw).toBe(200)
    expect(await searched('/basedata/product/query', { name: '翠绿保温' })).toEqual(['TS-010'])
    expect(await searched('/basedata/product/query', { name: '红色' })).toEqual(['TS-001', 'ts-003'])
    const removed = await t.call('DELETE', '/basedata/product', { token, body: { id: ids['TS-007'] } })
    expect(removed.body.code, removed.raw).toBe(200)
    expect(await searched('/basedata/product/query', { name: '无下划线' })).toEqual([])
    expect(await plainLike('name', '无下划线')).toEqual([])
  })

  it('has the search indexes the schema declares after migration', async () => {
    if (t.dbKind === 'postgres') {
      const rows = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = ${`tenant_${TENANT}`} and tablename = 'base_data_product'`.execute(db())
      const defs = rows.rows.map((r) => r.indexdef)
      // A stored key column per contains column, generated from it, and a trigram index over that column.
      for (const column of ['code', 'name', 'short_name', 'sku_code']) {
        expect(defs.some((d) => d.includes('gin_trgm_ops') && d.includes(`${column}__key`)), column).toBe(true)
        expect(defs.some((d) => d.includes(`search_key(${column})`) || d.includes(`search_key((${column})::text)`)), `${column}: no index over the expression`).toBe(false)
      }
      const generated = await sql<{ column_name: string; generation_expression: string }>`select column_name, generation_expression from information_schema.columns where table_schema = ${`tenant_${TENANT}`} and table_name = 'base_data_product' and column_name = 'name__key'`.execute(db())
      expect(generated.rows[0]?.generation_expression).toMatch(/search_key\(\(?name\)?(::text)?\)/)
      const query = sql<{ 'QUERY PLAN': string }>`explain select code from ${products()} as t where t.name__key like '%' || platform.search_key('运动鞋') || '%'`
      const plan = await query.execute(db())
      // A tiny table may be read sequentially; with scans off the planner must still find the index.
      await sql`set enable_seqscan = off`.execute(db())
      const forced = await query.execute(db())
      await sql`reset enable_seqscan`.execute(db())
      expect(plan.rows.length).toBeGreaterThan(0)
      expect(forced.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/sk_base_data_product_name/)
    } else {
      const rows = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where name like 'base_data_product__search%'`.execute(db())
      const table = rows.rows.find((r) => r.name === 'base_data_product__search')
      expect(table?.sql).toMatch(/fts5\("code", "name", "short_name", "sku_code", .*tokenize='trigram case_sensitive 0'/)
      expect(rows.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['base_data_product__search_ai', 'base_data_product__search_ad', 'base_data_product__search_au']))
      const plan = await sql<{ detail: string }>`explain query plan select code from base_data_product as t where t.rowid in (select rowid from base_data_product__search where base_data_product__search match '{name} : "运动鞋"')`.execute(db())
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/)
    }
  })

  it.skipIf(process.env.TEST_DB !== 'postgres')('spells the search key as platform.search_key writes it, wherever JavaScript can (PostgreSQL)', async () => {
    const texts = ['红色保温杯', '保温杯 48', 'S00012', 'AbC-xyZ_09', '满100减50% 促销装', '"引号" O\'Brien', '😀杯', '\t a', 'ärger', 'ß']
    for (const text of texts) {
      const parts = keyParts(text)
      const server = (await sql<{ key: string }>`select platform.search_key(${text}) as key`.execute(db())).rows[0].key
      // Cased letters outside ASCII are left to the server (their lower case depends on its locale).
      if (/[äß]/.test(text)) expect(parts, text).toBeUndefined()
      else expect(parts?.join(''), text).toBe(server)
    }
  })
})
