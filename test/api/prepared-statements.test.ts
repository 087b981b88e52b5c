import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures } from '../support/trade-fixtures.js'
import type { Db } from '../../src/server/db/dialect.js'
import { compiledOnce, executePrepared, preparedName, preparedTexts } from '../../src/server/db/prepared-statements.js'
import { inTransaction, lockConflictRetries } from '../../src/server/platform/db-tx.js'

/**
 * Named statements (src/server/db/prepared-statements.ts): a statement run through executePrepared is
 * prepared once per connection on PostgreSQL and answers what the same statement answers unnamed, with
 * other values each run; a statement not run through it stays unnamed. On SQLite it is a plain run.
 */
describe('prepared statements', () => {
  let t: TestApp
  let db: Db
  beforeAll(async () => {
    t = await startTestApp()
    db = t.app.services.databases.tenant('1000')
  })
  afterAll(async () => t?.close())

  const prepared = async (trx: Db): Promise<string[]> =>
    t.dbKind === 'postgres'
      ? (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(trx)).rows.map((r) => r.name)
      : []

  it('answers the same rows as the unnamed statement, with new values each run, prepared once on the connection', async () => {
    const query = (username: string) => db.selectFrom('sys_user').select(['username']).where('username', '=', username)
    const plain = await query('admin').execute()
    expect(plain).toEqual([{ username: 'admin' }])
    await db.transaction().execute(async (trx) => {
      const q = (username: string) => trx.selectFrom('sys_user').select(['username']).where('username', '=', username)
      expect(await executePrepared(trx, q('admin'))).toEqual(plain)
      expect(await executePrepared(trx, q('nobody-here'))).toEqual([])
      expect(await executePrepared(trx, q('admin'))).toEqual(plain)
      const text = q('admin').compile().sql
      if (t.dbKind === 'postgres') {
        const name = preparedName(text)
        expect(name).toMatch(/^k_[0-9a-f]{32}$/)
        const names = await prepared(trx)
        // Once on this connection, however often it ran.
        expect(names.filter((n) => n === name)).toHaveLength(1)
      } else expect(preparedName(text)).toBeUndefined()
    })
  })

  it('leaves statements not run through it unnamed', async () => {
    await db.transaction().execute(async (trx) => {
      const q = trx.selectFrom('sys_role').select(['code']).where('code', '=', 'x-prepared-test')
      await q.execute()
      expect(preparedName(q.compile().sql)).toBeUndefined()
      if (t.dbKind === 'postgres') {
        const count = (await sql<{ n: string }>`select count(*) as n from pg_prepared_statements where statement like ${'%x-prepared-test%'} or statement like ${'%"sys_role"%"code" = $1%'}`.execute(trx)).rows[0]
        expect(Number(count.n)).toBe(0)
      }
    })
  })

  it.skipIf(process.env.TEST_DB !== 'postgres')('an approval prepares its stock lock and combined write on PostgreSQL', async () => {
    const token = await t.login()
    const call = async <T>(method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) => {
      const r = await t.call<T>(method, url, { token, body })
      if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
      return r.body.data
    }
    const { scA: scId, supplierId, p1: productId } = await createTradeFixtures(t, token, 'PS')
    await call('PUT', '/purchase/config', { receiveRequirePurchase: false })
    await call('POST', '/purchase/receive/sheet/approve/pass/direct', { scId, supplierId, products: [{ productId, orderNum: 5, taxPrice: '10.00' }] })
    const stock = await db.selectFrom('tbl_product_stock').select(['stock_num']).where('product_id', '=', productId).executeTakeFirstOrThrow()
    expect(Number(stock.stock_num)).toBe(5)
    const texts = preparedTexts()
    expect(texts.some((text) => text.includes('"tbl_product_stock"') && text.endsWith('for update of "s"'))).toBe(true)
    expect(texts.some((text) => text.startsWith('with "main_rows" as (update "tenant_1000"."tbl_product_stock"'))).toBe(true)
  })

  it('compiledOnce builds a key\'s statement once per handle and runs it afresh each time', async () => {
    let builds = 0
    const roles = (code: string) => () => {
      builds++
      return db.selectFrom('sys_role').select(['code', 'name']).where('code', '=', code)
    }
    const run = (handle: Db, code: string) => executePrepared(handle, compiledOnce(handle, `test-role:${code}`, roles(code)))
    expect(await run(db, 'CO_ONCE')).toEqual([])
    const token = await t.login()
    const created = await t.call('POST', '/system/role', { token, body: { code: 'CO_ONCE', name: '编译一次', available: true } })
    expect(created.body.code).toBe(200)
    // The statement is kept, its rows are not.
    expect(await run(db, 'CO_ONCE')).toEqual([{ code: 'CO_ONCE', name: '编译一次' }])
    expect(builds).toBe(1)
    // Another key is another statement with its own values.
    expect(await run(db, 'CO_OTHER')).toEqual([])
    expect(builds).toBe(2)
    // Another handle (a transaction) compiles its own.
    await db.transaction().execute(async (trx) => expect(await run(trx, 'CO_ONCE')).toEqual([{ code: 'CO_ONCE', name: '编译一次' }]))
    expect(builds).toBe(3)
  })

  it('sends a transaction\'s begin with its first statement: that statement is inside the transaction', async () => {
    await db.schema.createTable('begin_test').addColumn('id', 'varchar(32)', (c) => c.primaryKey()).execute()
    const marks = async () => (await db.selectFrom('begin_test').select('id').orderBy('id').execute()).map((r) => r.id)
    // The first statement a write, then the transaction fails: the write is taken back with it.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('begin_test').values({ id: 'a' }).execute()
        throw new Error('taken back')
      }),
    ).rejects.toThrow('taken back')
    expect(await marks()).toEqual([])
    // Two transactions at once (on PostgreSQL on two connections, each seeing only its own uncommitted row;
    // neither commits before both have read; SQLite runs them one after the other).
    // A meeting point: each transaction waits there until both have come.
    const meeting = () => {
      let come = 0
      let open = () => {}
      const opened = new Promise<void>((resolve) => (open = resolve))
      return () => {
        if (++come === 2) open()
        return opened
      }
    }
    const inserted = meeting()
    const read = meeting()
    await Promise.all(
      ['b', 'c'].map((k) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('begin_test').values({ id: k }).execute()
          if (t.dbKind !== 'postgres') return
          await inserted()
          expect((await trx.selectFrom('begin_test').select('id').execute()).map((r) => r.id)).toEqual([k])
          await read()
        }),
      ),
    )
    // A transaction with no statement, committed or failed, and the connections serve the next one.
    await db.transaction().execute(async () => {})
    await expect(db.transaction().execute(async () => Promise.reject(new Error('empty')))).rejects.toThrow('empty')
    expect(await marks()).toEqual(['b', 'c'])
  })

  it('runs a transaction again when a named statement no longer fits its table (a column added by another process)', async () => {
    if (t.dbKind !== 'postgres') return
    await db.schema.createTable('plan_test').addColumn('id', 'varchar(32)', (c) => c.primaryKey()).execute()
    await db.insertInto('plan_test').values({ id: 'x' }).execute()
    const read = (trx: Db) => executePrepared(trx, trx.selectFrom('plan_test').selectAll())
    // Prepared on every connection of the pool: as many transactions at once as it has connections.
    let allIn = () => {}
    const gate = new Promise<void>((resolve) => (allIn = resolve))
    let inside = 0
    await Promise.all(
      Array.from({ length: 10 }, () =>
        db.transaction().execute(async (trx) => {
          await read(trx)
          if (++inside === 10) allIn()
          await gate
        }),
      ),
    )
    await db.schema.alterTable('plan_test').addColumn('note', 'varchar(10)').execute()
    const before = lockConflictRetries()
    expect(await inTransaction(db, (trx) => read(trx))).toEqual([{ id: 'x', note: null }])
    expect(lockConflictRetries() - before).toBe(1)
    // Outside a transaction it runs unnamed at once.
    expect(await read(db)).toEqual([{ id: 'x', note: null }])
  })
})
