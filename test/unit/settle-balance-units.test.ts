import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openSqlite } from '../../src/server/db/connections.js'
import { money, units, unitsSum } from '../../src/server/modules/settle/balance-report.js'

/**
 * The balance report sums SQLite's decimal text as whole cents (src/server/modules/settle/balance-report.ts):
 * every written form of a 2-place amount reads exactly, and sums never pass through REAL.
 */
describe('settle balance: exact sums of decimal text on SQLite', () => {
  const db = openSqlite(':memory:')
  afterAll(async () => db.destroy())

  const cents = async (values: string[]) => {
    await sql`drop table if exists m`.execute(db)
    await sql`create table m (amount text)`.execute(db)
    for (const v of values) await sql`insert into m (amount) values (${v})`.execute(db)
    const rows = (await sql<{ u: number }>`select ${units('sqlite', 'amount')} as u from m`.execute(db)).rows
    const total = (await sql<{ s: string }>`select ${unitsSum('sqlite', units('sqlite', 'amount'))} as s from m`.execute(db)).rows[0].s
    return { each: rows.map((r) => Number(r.u)), total: money('sqlite', total) }
  }

  it('reads the stored form and the other forms of a 2-place decimal as the same cents', async () => {
    const r = await cents(['0.10', '0.1', '.1', '+0.10', '-0.30', '-.3', '5', '-5', '12.3', ' 7.00 ', '0', '0.00', '-0.01'])
    expect(r.each).toEqual([10, 10, 10, 10, -30, -30, 500, -500, 1230, 700, 0, 0, -1])
    expect(r.total).toBe('19.09')
  })

  it('adds 0.1 and 0.2 to 0.30, and large amounts without losing a cent', async () => {
    expect((await cents(['0.1', '0.2'])).total).toBe('0.30')
    // Past 2^53 cents: a double would round the last digits.
    expect((await cents(['99999999999999.99', '99999999999999.99', '0.01'])).total).toBe('199999999999999.99')
    expect((await cents(Array.from({ length: 1000 }, () => '0.10'))).total).toBe('100.00')
  })

  it('answers PostgreSQL sums (NUMERIC text) as they are, with 2 places', () => {
    expect(money('postgres', '0.3')).toBe('0.30')
    expect(money('postgres', null)).toBe('0.00')
    expect(money('sqlite', '-4020')).toBe('-40.20')
  })
})
