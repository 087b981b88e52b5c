import fs from 'node:fs'
import path from 'node:path'
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely'
import { describe, expect, it } from 'vitest'
import { BizError } from '../../src/server/platform/errors.js'
import {
  buildPermissionPredicate,
  detailMap,
  parseModelSeed,
  validatePermissionTree,
  type PermissionNode,
} from '../../src/server/platform/data-permission-sql.js'

/**
 * Issue 11: a data-permission value of "\u0000" let a restricted user see every row (SQLite ends a
 * LIKE pattern at NUL, so "ends with NUL" was `%`). Control characters are refused by the validation
 * and, should a tree reach the builder without it, its condition matches nothing.
 */
const seed = parseModelSeed(JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schemas/seed/data-permission-models.json'), 'utf8')))
const details = detailMap(seed.details)
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
})
const cond = (conditionType: number, value?: string, values?: string[]): PermissionNode => ({ nodeType: 2, detailId: 1, conditionType, value, values })
const group = (calcType: number, ...children: PermissionNode[]): PermissionNode => ({ nodeType: 1, calcType, children })

describe('control characters in data-permission values', () => {
  it('are refused by the validation with a Chinese message', () => {
    for (const value of ['\u0000', 'A\u0000', 'A\u0009B', '\u001f', '\u007f']) {
      let error: unknown
      try {
        validatePermissionTree([group(1, cond(8, value))], details)
      } catch (e) {
        error = e
      }
      expect(error, JSON.stringify(value)).toBeInstanceOf(BizError)
      expect((error as BizError).status).toBe(400)
      expect((error as BizError).message).toBe('节点：【编号】值不能包含控制字符')
    }
    expect(() => validatePermissionTree([group(1, cond(6, undefined, ['A', 'B\u0000']))], details)).toThrow('值不能包含控制字符')
    expect(validatePermissionTree([group(1, cond(8, 'MAP'))], details)).toHaveLength(1)
  })

  it('never widen a predicate that bypassed the validation: the condition becomes false, and no NUL is bound', () => {
    const compile = (tree: PermissionNode[]) => {
      const predicate = buildPermissionPredicate(tree, details, { dialect: 'sqlite', aliases: { product: 'g' } })
      if (!predicate) throw new Error('no predicate')
      return db.selectFrom('base_data_product as g').select('g.id').where(predicate).compile()
    }
    for (const node of [cond(8, '\u0000'), cond(0, 'A\u0001'), cond(5, '\u0000'), cond(6, undefined, ['A', '\u0000'])]) {
      const q = compile([group(1, node)])
      expect(q.sql).toContain('(1 = 0)')
      expect(q.parameters.some((p) => typeof p === 'string' && p.includes('\u0000'))).toBe(false)
    }
    // Under OR the good branch still decides: the bad one only drops out.
    const q = compile([group(2, cond(9, 'MAP'), cond(8, '\u0000'))])
    expect(q.sql).toBe(`select "g"."id" from "base_data_product" as "g" where ("g"."code" like ? escape '\\' or 1 = 0)`)
    expect(q.parameters).toEqual(['MAP%'])
  })
})
