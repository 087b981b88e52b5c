import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { DATA_PERMISSION_CONDITION as COND } from '../../src/shared/generated/enum-codes.js'
import { buildPermissionPredicate, detailMap, parseModelSeed, type PermissionNode, type PermissionVars, type SqlOptions } from '../../src/server/platform/data-permission-sql.js'

/**
 * A condition on a referenced table (category, brand, a document's party) is rendered as a semi-join
 * (`g.category_id in (select id from category where …)`) instead of a left join: the rows must be
 * exactly those the join gives, including rows whose reference is empty or dangling, on a real database.
 */
const seed = parseModelSeed(JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schemas/seed/data-permission-models.json'), 'utf8')))
const details = detailMap(seed.details)

const sqlite = new Database(':memory:')
sqlite.exec(`
  create table category (id text primary key, code text, name text);
  create table brand (id text primary key, code text, name text);
  create table doc (id text primary key, create_by_id text);
  create table user_dept (owner_id text, ref_id text);
  create table product (id text primary key, code text, category_id text, brand_id text, doc_id text);
  insert into category values ('c1', 'BC01', '饮料类'), ('c2', 'BC02', '零食类'), ('c3', null, '无编号');
  insert into brand values ('b1', 'BB01', '品牌一');
  insert into doc values ('o1', 'u1'), ('o2', 'u2'), ('o3', null);
  insert into user_dept values ('u1', 'd1'), ('u3', 'd3');
  insert into product values
    ('p1', 'P1', 'c1', 'b1', 'o1'), ('p2', 'P2', 'c2', null, 'o2'), ('p3', 'P3', null, 'b1', null),
    ('p4', 'P4', 'zz', 'gone', 'gone'), ('p5', 'P5', 'c3', 'b1', 'o3');
`)
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) })
afterAll(() => db.destroy())

const node = (detailId: number, conditionType: number, value?: string, values?: string[]): PermissionNode =>
  ({ nodeType: 2, detailId, conditionType, ...(value !== undefined && { value }), ...(values && { values }) }) as PermissionNode
const group = (calcType: number, ...children: PermissionNode[]): PermissionNode => ({ nodeType: 1, calcType, children }) as PermissionNode

async function rows(tree: PermissionNode[], vars: PermissionVars, semi: boolean): Promise<string[]> {
  const options: SqlOptions = semi
    ? {
        dialect: 'sqlite' as const,
        aliases: { product: 'g' },
        vars,
        userDeptTable: 'user_dept',
        references: {
          category: { table: 'category', key: 'g.category_id' },
          brand: { table: 'brand', key: 'g.brand_id' },
          order: { table: 'doc', key: 'g.doc_id' },
        },
      }
    : { dialect: 'sqlite' as const, aliases: { product: 'g', category: 'c', brand: 'b', order: 'o' }, vars, userDeptTable: 'user_dept' }
  const predicate = buildPermissionPredicate(tree, details, options)
  if (!predicate) throw new Error('empty tree')
  let q = db.selectFrom('product as g')
  if (!semi)
    q = q.leftJoin('category as c', 'c.id', 'g.category_id').leftJoin('brand as b', 'b.id', 'g.brand_id').leftJoin('doc as o', 'o.id', 'g.doc_id')
  return (await q.select('g.id').where(predicate).orderBy('g.id').execute()).map((r) => String(r.id))
}

const AND = 1
const OR = 2
const cases: [string, PermissionNode[], PermissionVars?][] = [
  ['category code in', [group(AND, node(6, COND.IN, undefined, ['BC01', 'BC02']))]],
  ['category code not in', [group(AND, node(6, COND.NOT_IN, undefined, ['BC01']))]],
  ['category code not equal', [group(AND, node(6, COND.NE, 'BC02'))]],
  ['category name contains', [group(AND, node(7, COND.AROUND_LIKE, '类'))]],
  ['brand code or product code', [group(OR, node(8, COND.EQ, 'BB01'), node(1, COND.EQ, 'P2'))]],
  ['two groups and-ed', [group(AND, node(6, COND.NOT_IN, undefined, ['BC02'])), group(OR, node(9, COND.RIGHT_LIKE, '品牌'), node(1, COND.GE, 'P4'))]],
  ['creator in my departments (sub-query through a reference)', [group(AND, node(14, COND.IN))], { curDeptIds: ['d1'] }],
  ['creator not in my departments', [group(AND, node(14, COND.NOT_IN))], { curDeptIds: ['d1'] }],
  ['creator not in a department without users (NOT IN an empty set)', [group(AND, node(14, COND.NOT_IN))], { curDeptIds: ['d9'] }],
  ['creator not in no department', [group(AND, node(14, COND.NOT_IN))], { curDeptIds: [] }],
]

describe('data permission over references: semi-joins answer the rows the left join answers', () => {
  for (const [name, tree, vars] of cases)
    it(name, async () => {
      const joined = await rows(tree, vars ?? {}, false)
      expect(await rows(tree, vars ?? {}, true)).toEqual(joined)
    })

  it('the semi-join form joins nothing', () => {
    const predicate = buildPermissionPredicate([group(AND, node(6, COND.IN, undefined, ['BC01']))], details, {
      dialect: 'sqlite',
      aliases: { product: 'g' },
      references: { category: { table: 'category', key: 'g.category_id' } },
    })
    const compiled = db.selectFrom('product as g').select('g.id').where(predicate!).compile()
    expect(compiled.sql).toBe(
      'select "g"."id" from "product" as "g" where ("g"."category_id" in (select "dp_category"."id" from "category" as "dp_category" where "dp_category"."code" in (?)))',
    )
  })
})
