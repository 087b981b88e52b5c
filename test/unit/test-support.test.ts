import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PostgresServer, createDatabase, dropDatabase, startPostgres, uniqueDatabaseName } from '../support/postgres.js'

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

// The API suite's PostgreSQL run depends on this harness: a real server, and databases that do not see
// each other's tables (one per test file).
describe('embedded PostgreSQL test harness', () => {
  let server: PostgresServer

  beforeAll(async () => {
    server = await startPostgres()
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
  }, 60_000)

  it('serves a real PostgreSQL with UTF-8 text', async () => {
    const [row] = await query<{ version: string; encoding: string; upper: string }>(
      server.url,
      "select version(), current_setting('server_encoding') as encoding, upper('sku-商品') as upper",
    )
    expect(row.version).toMatch(/^PostgreSQL \d+/)
    expect(row.encoding).toBe('UTF8')
    expect(row.upper).toBe('SKU-商品')
  })

  it('gives each test file a database of its own', async () => {
    const first = uniqueDatabaseName()
    const second = uniqueDatabaseName()
    expect(first).not.toBe(second)
    const firstUrl = await createDatabase(server.url, first)
    const secondUrl = await createDatabase(server.url, second)
    try {
      await query(firstUrl, "create table stock (sku text primary key); insert into stock values ('A-1')")
      expect(await query(firstUrl, 'select sku from stock')).toEqual([{ sku: 'A-1' }])
      await expect(query(secondUrl, 'select sku from stock')).rejects.toThrow(/does not exist/)
    } finally {
      await dropDatabase(server.url, first)
      await dropDatabase(server.url, second)
    }
    const left = await query<{ datname: string }>(server.url, `select datname from pg_database where datname in ('${first}', '${second}')`)
    expect(left).toEqual([])
  })

  it('refuses database names that are not plain identifiers', async () => {
    await expect(createDatabase(server.url, 'x"; drop database postgres; --')).rejects.toThrow(/invalid database name/)
  })
})
