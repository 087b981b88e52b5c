import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preparedName } from '../../src/server/db/prepared-statements.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const onPostgres = process.env.TEST_DB === 'postgres'

/**
 * PostgreSQL plans a list's page once per connection when no search pattern is in it (db/prepared-statements.ts
 * executeListed). A pattern keeps it unnamed (its plan depends on the pattern), and a table that gains a
 * column under a named `select t.*` (an upgrade on another process) still answers.
 */
describe.skipIf(!onPostgres)('named list statements (PostgreSQL)', () => {
  let t: TestApp
  let token: string
  const texts: string[] = []
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    const pool = (t.app.services.databases as unknown as { pool: { on(e: string, f: (c: unknown) => void): void } }).pool
    // Every statement text the pool's connections run from now on.
    pool.on('acquire', (client) => {
      const c = client as { query: (...a: unknown[]) => unknown; __seen?: boolean }
      if (c.__seen) return
      c.__seen = true
      const query = c.query.bind(c)
      c.query = (first: unknown, ...rest: unknown[]) => {
        const text = typeof first === 'string' ? first : (first as { text?: string })?.text
        if (text) texts.push(text)
        return query(first, ...rest)
      }
    })
  })
  afterAll(async () => t?.close())

  const brands = (query: Record<string, string>) =>
    t.call<{ totalCount: number; datas: { code: string }[] }>('GET', '/basedata/product/brand/query', { token, query })
  const pageText = () => [...texts].reverse().find((s) => /from "tenant_[^"]+"\."base_data_product_brand"/.test(s) && /limit/.test(s))

  it('names the page of a list without a pattern, and not one with a pattern', async () => {
    texts.length = 0
    expect((await brands({ pageSize: '20', sortField: 'code', sortOrder: 'asc' })).status).toBe(200)
    const plain = pageText()
    expect(plain).toBeDefined()
    expect(preparedName(plain!)).toMatch(/^k_/)
    texts.length = 0
    expect((await brands({ pageSize: '20', name: '品牌' })).status).toBe(200)
    const searched = pageText()
    expect(searched).toMatch(/like/i)
    expect(preparedName(searched!)).toBeUndefined()
  })

  it('still answers after the table gains a column under a named page', async () => {
    for (let i = 0; i < 3; i++) expect((await brands({ pageSize: '20', sortField: 'code', sortOrder: 'asc' })).status).toBe(200)
    const { databases } = t.app.services
    await sql`alter table ${sql.id(databases.schemaOf('1000')!, 'base_data_product_brand')} add column added_by_hand text`.execute(databases.tenant('1000'))
    for (let i = 0; i < 12; i++) {
      const r = await brands({ pageSize: '20', sortField: 'code', sortOrder: 'asc' })
      expect(r.status, r.body.msg).toBe(200)
    }
  })
})
