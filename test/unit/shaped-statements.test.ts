/**
 * Statements compiled once per shape (db/shaped-statements.ts): a shape seen before answers the statement that
 * building it anew would, with this call's values, and anything that changes the statement's text is a shape
 * of its own.
 */
import { describe, expect, it } from 'vitest'
import { expressionBuilder, Kysely, PostgresDialect, sql, type Expression, type SqlBool } from 'kysely'
import { SchemaPostgresDialect } from '../../src/server/db/schema-compiler.js'
import { shapedStatement } from '../../src/server/db/shaped-statements.js'
import type { Db } from '../../src/server/db/dialect.js'

// Compiling needs no connection.
const pool = { connect: async () => Promise.reject(new Error('no database in this test')), end: async () => undefined }
const eb = expressionBuilder<any, any>() // eslint-disable-line @typescript-eslint/no-explicit-any

/** A page of `tbl_product as t` under `filters`, counting how often it is built. */
function pager(db: Db) {
  let builds = 0
  const page = (filters: Expression<SqlBool>[], cut: unknown[]) => {
    const build = (where: readonly Expression<SqlBool>[], [limit, offset]: readonly unknown[]) => {
      builds++
      const q = where.reduce((q, w) => q.where(w), db.selectFrom('tbl_product as t').selectAll('t')).orderBy('t.code')
      return limit === undefined ? q : q.limit(limit as number).offset(offset as number)
    }
    const built = build(filters, cut).compile()
    builds--
    const shaped = shapedStatement(db, `page ${cut.length}`, filters, cut, build).compile()
    return { built, shaped }
  }
  return { page, builds: () => builds }
}

describe('shaped statements', () => {
  const dbs: [string, () => Db][] = [
    ['PostgreSQL with a tenant schema', () => new Kysely({ dialect: new SchemaPostgresDialect({ pool }, 'tenant_1') })],
    ['PostgreSQL', () => new Kysely({ dialect: new PostgresDialect({ pool }) })],
  ]
  for (const [name, make] of dbs)
    it(`binds each call's values into the text planned once (${name})`, () => {
      const { page, builds } = pager(make())
      const calls: [Expression<SqlBool>[], unknown[]][] = [
        [[eb('t.code', 'like', 'A%'), eb('t.available', '=', true)], [20, 0]],
        [[eb('t.code', 'like', 'B%'), eb('t.available', '=', false)], [20, 40]],
        [[eb('t.code', 'like', 'C%'), eb('t.available', '=', true)], [50, 100]],
      ]
      for (const [filters, cut] of calls) {
        const { built, shaped } = page(filters, cut)
        expect(shaped.sql).toBe(built.sql)
        expect(shaped.parameters).toEqual(built.parameters)
      }
      // The first call planned it (one build with markers); the others were bound without building.
      expect(builds()).toBe(1)
    })

  it('a list of another length, another operator, a value written into the text or another shape name is another statement', () => {
    const { page, builds } = pager(new Kysely({ dialect: new PostgresDialect({ pool }) }))
    const variants: Expression<SqlBool>[][] = [
      [eb('t.category_id', 'in', ['1', '2'])],
      [eb('t.category_id', 'in', ['1', '2', '3'])],
      [eb('t.category_id', 'not in', ['1', '2', '3'])],
      [eb('t.category_id', 'is', null)],
      [eb('t.category_id', 'is not', null)],
      [sql<SqlBool>`t.category_id = ${sql.lit('7')}`],
      [sql<SqlBool>`t.category_id = ${sql.lit('8')}`],
      [eb('t.category_id', 'in', ['1', '2']), eb('t.brand_id', '=', '9')],
      [eb.and([eb('t.category_id', 'in', ['1', '2']), eb('t.brand_id', '=', '9')])],
      [eb.or([eb('t.category_id', 'in', ['1', '2']), eb('t.brand_id', '=', '9')])],
      [eb('t.category_id', 'in', eb.selectFrom('tbl_category').select('id').where('code', '=', 'X'))],
    ]
    const texts = new Set<string>()
    for (const filters of variants) {
      const { built, shaped } = page(filters, [20, 0])
      expect(shaped).toMatchObject({ sql: built.sql, parameters: built.parameters })
      texts.add(shaped.sql)
    }
    expect(texts.size).toBe(variants.length)
    // Each variant was planned once; asked again with other values, none is built.
    const before = builds()
    const again = page([eb('t.category_id', 'in', ['5', '6', '7'])], [20, 20])
    expect(again.shaped).toMatchObject({ sql: again.built.sql, parameters: ['5', '6', '7', 20, 20] })
    expect(builds()).toBe(before)
    // The same filters without a cut is another shape.
    const uncut = page([eb('t.category_id', 'in', ['5', '6', '7'])], [])
    expect(uncut.shaped).toMatchObject({ sql: uncut.built.sql, parameters: ['5', '6', '7'] })
  })

  it('a statement that writes a value into its text is built every time, never bound from a plan', () => {
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
    let builds = 0
    const build = (where: readonly Expression<SqlBool>[], [limit]: readonly unknown[]) => {
      builds++
      // The limit written into the text, not bound: no plan can carry it.
      return where.reduce((q, w) => q.where(w), db.selectFrom('tbl_product as t').selectAll('t')).limit(sql.lit(Number(limit)))
    }
    const first = shapedStatement(db, 'literal limit', [eb('t.code', '=', 'A')], [20], build).compile()
    const second = shapedStatement(db, 'literal limit', [eb('t.code', '=', 'B')], [30], build).compile()
    expect(first).toMatchObject({ sql: 'select "t".* from "tbl_product" as "t" where "t"."code" = $1 limit 20', parameters: ['A'] })
    expect(second).toMatchObject({ sql: 'select "t".* from "tbl_product" as "t" where "t"."code" = $1 limit 30', parameters: ['B'] })
    // Planned once (and found wanting), then built for each call.
    expect(builds).toBe(3)
  })

  it('keeps nothing for a transaction', async () => {
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
    let builds = 0
    const build = (where: readonly Expression<SqlBool>[]) => {
      builds++
      return where.reduce((q, w) => q.where(w), db.selectFrom('tbl_product as t').selectAll('t'))
    }
    const trx = { isTransaction: true } as unknown as Db
    shapedStatement(trx, 'in a transaction', [eb('t.code', '=', 'A')], [], build)
    shapedStatement(trx, 'in a transaction', [eb('t.code', '=', 'B')], [], build)
    expect(builds).toBe(2)
  })
})
