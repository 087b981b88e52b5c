/**
 * A tenant's statements are qualified by its schema as they compile (db/schema-compiler.ts), to the character
 * as Kysely's `withSchema` plugin qualified them: prepared statements are named by their text, and a table left
 * unqualified would be looked for in `public`.
 */
import { describe, expect, it } from 'vitest'
import { Kysely, PostgresDialect, sql, type Compilable } from 'kysely'
import { SchemaPostgresDialect } from '../../src/server/db/schema-compiler.js'
import type { Db } from '../../src/server/db/dialect.js'

// Compiling needs no connection.
const pool = { connect: async () => Promise.reject(new Error('no database in this test')), end: async () => undefined }
const plugin: Db = new Kysely({ dialect: new PostgresDialect({ pool }) }).withSchema('tenant_1')
const compiler: Db = new Kysely({ dialect: new SchemaPostgresDialect({ pool }, 'tenant_1') })

/** The statement `build` makes, compiled both ways. */
function both(build: (db: Db) => Compilable<unknown> | { compile(): { sql: string } }) {
  return { plugin: build(plugin).compile().sql, compiler: build(compiler).compile().sql }
}

const statements: [string, (db: Db) => Compilable<unknown>][] = [
  ['select with an alias, a join and a qualified column', (db) => db.selectFrom('tbl_sheet as s').innerJoin('tbl_detail as d', 'd.sheet_id', 's.id').select(['s.id', 'd.product_id']).where('s.id', '=', '1')],
  ['a column named by its table', (db) => db.selectFrom('tbl_sheet').select('tbl_sheet.code').where('tbl_sheet.status', 'in', [0, 2])],
  ['a correlated subquery', (db) =>
    db.selectFrom('tbl_product as p').select((eb) => ['p.id', eb.selectFrom('tbl_stock').select('stock_num').whereRef('tbl_stock.product_id', '=', 'p.id').limit(1).as('n')])],
  ['CTEs: an update and an insert, and a select from them', (db) =>
    db
      .with('main_rows', (d) => d.updateTable('tbl_sheet').set({ status: 3 }).where('id', '=', '1').returning('id'))
      .with('also_0', (d) => d.insertInto('tbl_timeline').values({ id: '2', biz_id: '1' }))
      .selectFrom('main_rows')
      .selectAll()],
  ['a CTE named like no table, joined', (db) =>
    db.with('v', (d) => d.selectFrom('tbl_stock').select(['product_id', 'stock_num'])).selectFrom('tbl_product').innerJoin('v', 'v.product_id', 'tbl_product.id').selectAll('tbl_product')],
  ['insert on conflict', (db) => db.insertInto('tbl_code').values({ id: '1', seq: 1 }).onConflict((oc) => oc.column('id').doUpdateSet({ seq: sql`tbl_code.seq + 1` }))],
  ['update from', (db) => db.updateTable('tbl_stock').from('tbl_product').set({ stock_num: 1 }).whereRef('tbl_stock.product_id', '=', 'tbl_product.id')],
  ['delete using', (db) => db.deleteFrom('tbl_detail').using('tbl_sheet').whereRef('tbl_detail.sheet_id', '=', 'tbl_sheet.id')],
  ['for update, and for update of', (db) => db.selectFrom('tbl_sheet as s').selectAll().where('s.id', '=', '1').forUpdate().forUpdate(['s'])],
  ['json_agg and to_json of a row', (db) => db.selectFrom('tbl_sheet').select((eb) => [eb.fn.jsonAgg('tbl_sheet').as('rows'), eb.fn('to_json', [eb.table('tbl_sheet')]).as('one')])],
  ['a raw statement with sql.table, and raw inside a select', (db) =>
    db.selectFrom('tbl_sheet').select(sql<number>`(select count(*) from ${sql.table('tbl_detail')})`.as('n')).where(sql<boolean>`${sql.ref('tbl_sheet.id')} = '1'`)],
  ['a table already qualified', (db) => db.selectFrom('platform.tenant').select('id')],
  ['exists with a where on the outer table', (db) =>
    db.selectFrom('tbl_sheet').selectAll().where((eb) => eb.exists(eb.selectFrom('tbl_detail').select('id').whereRef('tbl_detail.sheet_id', '=', 'tbl_sheet.id')))],
]

describe('tables qualified at compile time', () => {
  for (const [what, build] of statements)
    it(what, () => {
      const { plugin: expected, compiler: actual } = both(build)
      expect(actual).toBe(expected)
      expect(actual).toMatch(/"(tenant_1|platform)"\./)
    })

  it('DDL: a table with a reference and an index', () => {
    for (const build of [
      (db: Db) => db.schema.createTable('tbl_x').addColumn('id', 'varchar(32)', (c) => c.primaryKey()).addColumn('p', 'varchar(32)', (c) => c.references('tbl_y.id')),
      (db: Db) => db.schema.createIndex('idx_x').on('tbl_x').column('p'),
      (db: Db) => db.schema.alterTable('tbl_x').addColumn('q', 'integer'),
      (db: Db) => db.schema.dropTable('tbl_x').ifExists(),
    ]) {
      const { plugin: expected, compiler: actual } = both(build)
      expect(actual).toBe(expected)
    }
  })
})
