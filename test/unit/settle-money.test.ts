import Decimal from 'decimal.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/db/dialect.js'
import { openSqlite } from '../../src/server/db/connections.js'
import { giveBack, guardedAdd, money } from '../../src/server/domain/settle/money.js'

/**
 * The guarded settlement counters on SQLite, where money is 2-place text: the arithmetic runs on integer
 * cents inside the one UPDATE, so no binary floating point ever reaches a stored amount.
 */
describe('settlement money in SQL (SQLite text columns)', () => {
  let db: Db
  beforeAll(async () => {
    db = openSqlite(':memory:')
    await db.schema.createTable('plan').addColumn('id', 'text').addColumn('plan_amount', 'text').addColumn('paid_amount', 'text').execute()
  })
  afterAll(async () => db?.destroy())

  const paid = async (id: string) => String((await db.selectFrom('plan').select('paid_amount').where('id', '=', id).executeTakeFirstOrThrow()).paid_amount)

  it('adds 0.10 ten times and 0.01 a hundred times exactly, and stops at the planned amount', async () => {
    await db.insertInto('plan').values({ id: 'a', plan_amount: '2.00', paid_amount: '0.00' }).execute()
    for (let i = 0; i < 10; i++) expect(await guardedAdd(db, 'sqlite', 'plan', 'a', 'paid_amount', 'plan_amount', new Decimal('0.10'))).toBe(true)
    expect(await paid('a')).toBe('1.00')
    for (let i = 0; i < 100; i++) expect(await guardedAdd(db, 'sqlite', 'plan', 'a', 'paid_amount', 'plan_amount', new Decimal('0.01'))).toBe(true)
    expect(await paid('a')).toBe('2.00')
    expect(await guardedAdd(db, 'sqlite', 'plan', 'a', 'paid_amount', 'plan_amount', new Decimal('0.01'))).toBe(false)
    await giveBack(db, 'sqlite', 'plan', 'a', 'paid_amount', new Decimal('1.99'))
    expect(await paid('a')).toBe('0.01')
    await expect(giveBack(db, 'sqlite', 'plan', 'a', 'paid_amount', new Decimal('0.02'))).rejects.toThrow()
    expect(await paid('a')).toBe('0.01')
  })

  it('keeps the largest amounts exact (13 integer digits, where float sums of 2-place values drift)', async () => {
    await db.insertInto('plan').values({ id: 'b', plan_amount: '9999999999999.99', paid_amount: '0.00' }).execute()
    expect(await guardedAdd(db, 'sqlite', 'plan', 'b', 'paid_amount', 'plan_amount', new Decimal('9999999999999.98'))).toBe(true)
    expect(await paid('b')).toBe('9999999999999.98')
    expect(await guardedAdd(db, 'sqlite', 'plan', 'b', 'paid_amount', 'plan_amount', new Decimal('0.02'))).toBe(false)
    expect(await guardedAdd(db, 'sqlite', 'plan', 'b', 'paid_amount', 'plan_amount', new Decimal('0.01'))).toBe(true)
    expect(await paid('b')).toBe('9999999999999.99')
  })

  it('reads amounts strictly', () => {
    expect(money('10.1', '金额').toFixed(2)).toBe('10.10')
    expect(() => money('1.001', '金额')).toThrow('金额最多允许2位小数！')
    expect(() => money('1e3', '金额')).toThrow('金额必须为数字')
    expect(() => money('10000000000000', '金额')).toThrow('金额超出允许范围')
  })
})
