import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { decimalAdd, decimalColumn, decimalCompare, decimalValue, registerDecimalFunctions } from '../../src/server/db/exact-decimal.js'
import type { Db } from '../../src/server/db/dialect.js'

describe('exact decimal SQL on SQLite (dec_add, dec_cmp)', () => {
  const database = new Database(':memory:')
  registerDecimalFunctions(database)
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database }) })

  it('adds decimal text without binary floating point, at the larger scale', () => {
    expect(database.prepare("select 0.1 + 0.2 as v").get()).toEqual({ v: 0.30000000000000004 })
    expect(database.prepare("select dec_add('0.10', '0.20') as v").get()).toEqual({ v: '0.30' })
    expect(database.prepare("select dec_add('99999999999999999.99', '0.01') as v").get()).toEqual({ v: '100000000000000000.00' })
    expect(database.prepare("select dec_add('-7.50', '7.5') as v").get()).toEqual({ v: '0.00' })
    expect(database.prepare("select dec_add(null, '1.25') as v").get()).toEqual({ v: '1.25' })
  })

  it('compares exactly', () => {
    expect(database.prepare("select dec_cmp('100000000000000000.01', '100000000000000000.00') as v").get()).toEqual({ v: 1 })
    expect(database.prepare("select dec_cmp('0.30', dec_add('0.10', '0.20')) as v").get()).toEqual({ v: 0 })
    expect(database.prepare("select dec_cmp('-1', '0') as v").get()).toEqual({ v: -1 })
  })

  it('a guarded x = x + ? update through the helpers never passes the remainder', async () => {
    database.exec("create table c (id text primary key, total text, payed text)")
    database.exec("insert into c values ('a', '0.30', '0.00')")
    const pay = async (amount: string) => {
      const after = decimalAdd(db, decimalColumn('payed'), decimalValue(db, amount))
      const r = await sql`update c set payed = ${after} where id = 'a' and ${decimalCompare(db, decimalColumn('total'), '>=', after)}`.execute(db)
      return Number(r.numAffectedRows)
    }
    expect([await pay('0.10'), await pay('0.10'), await pay('0.10'), await pay('0.01')]).toEqual([1, 1, 1, 0])
    expect(database.prepare("select payed from c").get()).toEqual({ payed: '0.30' })
  })
})
