import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import type { Db } from '../../src/server/db/dialect.js'
import { writeTogetherThenRead } from '../../src/server/db/write-together.js'

/**
 * writeTogetherThenRead (src/server/db/write-together.ts), the approval's status change that also reads
 * the lines: one statement on PostgreSQL, one after another on SQLite, the same answer on both. A guard
 * that changes nothing reads nothing and writes none of the rest; an exact decimal reads back as text.
 */
describe('write together, then read', () => {
  let t: TestApp
  let db: Db
  beforeAll(async () => {
    t = await startTestApp()
    db = t.app.services.databases.tenant('1000')
    await db.schema.createTable('wt_head').addColumn('id', 'varchar(32)', (c) => c.primaryKey()).addColumn('status', 'integer').execute()
    await db.schema.createTable('wt_note').addColumn('id', 'varchar(32)', (c) => c.primaryKey()).addColumn('head_id', 'varchar(32)').execute()
    await db.schema
      .createTable('wt_line')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('head_id', 'varchar(32)')
      .addColumn('order_no', 'integer')
      .addColumn('amount', 'numeric(24, 6)')
      .execute()
    await db.insertInto('wt_head').values([{ id: 'h1', status: 0 }, { id: 'h2', status: 0 }]).execute()
    await db
      .insertInto('wt_line')
      .values([
        { id: 'l2', head_id: 'h1', order_no: 2, amount: '12345678901234567.000001' },
        { id: 'l1', head_id: 'h1', order_no: 1, amount: '0.100000' },
        { id: 'l3', head_id: 'h1', order_no: 3, amount: '3.000000' },
      ])
      .execute()
  })
  afterAll(async () => t?.close())

  const approve = (trx: Db, id: string, from: number, note = `n-${id}`) =>
    writeTogetherThenRead(
      trx,
      trx.updateTable('wt_head').set({ status: 3 }).where('id', '=', id).where('status', '=', from).returning('id'),
      [trx.insertInto('wt_note').values({ id: note, head_id: id })],
      trx.selectFrom('wt_line').select(['id', 'order_no', 'amount']).where('head_id', '=', id),
      ['order_no'],
    )
  const notes = async () => (await db.selectFrom('wt_note').select('id').orderBy('id').execute()).map((r) => r.id)

  it('changes the row, writes the rest and answers the lines in order, decimals exact', async () => {
    const done = await db.transaction().execute((trx) => approve(trx, 'h1', 0))
    expect(done.changed).toBe(true)
    expect(done.rows.map((r) => r.id)).toEqual(['l1', 'l2', 'l3'])
    // PostgreSQL answers numeric as text, exact (SQLite keeps this test table's numbers as it likes).
    if (t.dbKind === 'postgres') expect(done.rows.map((r) => r.amount)).toEqual(['0.100000', '12345678901234567.000001', '3.000000'])
    expect(await notes()).toEqual(['n-h1'])
  })

  it('answers no rows when the read finds none, the change made', async () => {
    const done = await db.transaction().execute((trx) => approve(trx, 'h2', 0))
    expect(done).toEqual({ changed: true, rows: [] })
    expect(await notes()).toEqual(['n-h1', 'n-h2'])
  })

  it('answers nothing changed when the guard holds no row, and the caller takes the writes back', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        const done = await approve(trx, 'h1', 0, 'n-again')
        expect(done).toEqual({ changed: false, rows: [] })
        throw new Error('stale')
      }),
    ).rejects.toThrow('stale')
    expect(await notes()).toEqual(['n-h1', 'n-h2'])
    expect((await db.selectFrom('wt_head').select('status').where('id', '=', 'h1').executeTakeFirstOrThrow()).status).toBe(3)
  })
})
