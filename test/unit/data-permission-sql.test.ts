import fs from 'node:fs'
import path from 'node:path'
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type RawBuilder,
  type SqlBool,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { BizError } from '../../src/server/platform/errors.js'
import {
  buildPermissionPredicate,
  combinePredicates,
  detailMap,
  parseModelSeed,
  quoteLiteral,
  renderPermissionSql,
  validatePermissionTree,
  type PermissionNode,
} from '../../src/server/platform/data-permission-sql.js'

const seed = parseModelSeed(JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schemas/seed/data-permission-models.json'), 'utf8')))
const details = detailMap(seed.details)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const compilerOnly = (kind: 'sqlite' | 'postgres') =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  new Kysely<any>({
    dialect: {
      createAdapter: () => (kind === 'sqlite' ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (kind === 'sqlite' ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (kind === 'sqlite' ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  })
const sqlite = compilerOnly('sqlite')
const postgres = compilerOnly('postgres')

const compile = (predicate: RawBuilder<SqlBool> | undefined, db = sqlite) => {
  if (!predicate) throw new Error('no predicate')
  const q = db.selectFrom('base_data_product as g').select('g.id').where(predicate).compile()
  return { sql: q.sql.replace(/^select "g"\."id" from "base_data_product" as "g" where /, ''), parameters: q.parameters }
}

const and = (...children: unknown[]) => ({ nodeType: 1, calcType: 1, children })
const or = (...children: unknown[]) => ({ nodeType: 1, calcType: 2, children })
const cond = (detailId: number, conditionType: number | undefined, value?: unknown, values?: unknown[]) => ({
  nodeType: 2,
  detailId,
  conditionType,
  ...(value !== undefined && { value }),
  ...(values !== undefined && { values }),
})

const productAliases = { product: 'g', category: 'c', brand: 'b' }

function messageOf(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(BizError)
    expect((error as BizError).status).toBe(400)
    return (error as Error).message
  }
  throw new Error('expected a validation error')
}

describe('data permission models', () => {
  it('seeds the ancestor\'s 17 model details on two models, and the document party (往来单位) as optional ones', () => {
    expect(seed.details).toHaveLength(19)
    expect(seed.details.filter((d) => d.optional).map((d) => [d.id, d.table, d.column])).toEqual([[18, 'party', 'code'], [19, 'party', 'name']])
    expect(seed.models.map((m) => m.id)).toEqual([1, 2])
    expect(seed.details.filter((d) => d.modelId === 1)).toHaveLength(13)
    expect(details.get(12)).toMatchObject({ name: '状态', enumName: 'AVAILABLE', conditionTypes: [0, 5, 6, 7], inputType: 1 })
    expect(details.get(14)).toMatchObject({ name: '创建人部门与本人相同', inputType: 99, conditionTypes: [6], sql: 'sameDeptUsers' })
  })

  it('refuses a model file whose column is not a plain identifier', () => {
    const broken = { models: [{ id: 1, name: 'x' }], details: [{ ...seed.details[0], column: 'code; drop table x' }] }
    expect(() => parseModelSeed(broken)).toThrow(/identifiers/)
  })
})

describe('validatePermissionTree: the designer\'s rules and messages', () => {
  it('requires operation nodes at the top level', () => {
    expect(messageOf(() => validatePermissionTree([cond(1, 0, 'A')], details))).toBe('最外层必须是运算节点')
    expect(messageOf(() => validatePermissionTree([and(cond(1, 0, 'A')), cond(2, 0, 'B')], details))).toBe('最外层必须是运算节点')
  })

  it('requires children in every operation node, nested ones too', () => {
    expect(messageOf(() => validatePermissionTree([and()], details))).toBe('运算节点必须包含子节点')
    expect(messageOf(() => validatePermissionTree([and(cond(1, 0, 'A'), or())], details))).toBe('运算节点必须包含子节点')
  })

  it('requires a value, and at least one for IN / NOT IN, naming the node', () => {
    expect(messageOf(() => validatePermissionTree([and(cond(1, 0, '  '))], details))).toBe('节点：【编号】请输入值')
    expect(messageOf(() => validatePermissionTree([and(cond(2, 6, undefined, []))], details))).toBe('节点：【名称】请输入值')
    expect(messageOf(() => validatePermissionTree([and(cond(9, 7))], details))).toBe('节点：【品牌名称】请输入值')
  })

  it('needs no value on an SQL node, whose only condition is taken when absent', () => {
    const tree = validatePermissionTree([and(cond(14, undefined))], details)
    expect(tree).toEqual([{ nodeType: 1, calcType: 1, children: [{ nodeType: 2, detailId: 14, conditionType: 6 }] }])
  })

  it('accepts the saved JSON text and keeps only known properties', () => {
    const text = JSON.stringify([{ ...and({ ...cond(1, 0, ' A1 '), id: 'n2', name: 'x', extra: 1 }), id: 'n1', name: '并且' }])
    expect(validatePermissionTree(text, details)).toEqual([
      { id: 'n1', nodeType: 1, calcType: 1, children: [{ id: 'n2', nodeType: 2, detailId: 1, conditionType: 0, value: 'A1' }] },
    ])
    expect(validatePermissionTree('', details)).toEqual([])
    expect(validatePermissionTree('[]', details)).toEqual([])
    expect(messageOf(() => validatePermissionTree('{"a":', details))).toBe('数据权限格式错误')
  })

  it('refuses unknown details, conditions a field does not allow, and badly formed values', () => {
    expect(messageOf(() => validatePermissionTree([and(cond(999, 0, 'x'))], details))).toBe('数据权限条件不存在！')
    expect(messageOf(() => validatePermissionTree([and(cond(12, 10, 'true'))], details))).toBe('节点：【状态】条件不正确')
    expect(messageOf(() => validatePermissionTree([and(cond(12, 0, 'maybe'))], details))).toBe('节点：【状态】值格式不正确')
    expect(messageOf(() => validatePermissionTree([and(cond(13, 1, '2024-13-45 99:00:00x'))], details))).toBe('节点：【创建时间】值格式不正确')
    expect(messageOf(() => validatePermissionTree([and(cond(1, undefined, 'A'))], details))).toBe('节点：【编号】请选择条件')
  })

  it('keeps a saved permission to the details of its own model', () => {
    expect(messageOf(() => validatePermissionTree([and(cond(17, 1, '2024-01-01 00:00:00'))], details, { modelId: 1 }))).toBe(
      '节点：【创建时间】不属于当前数据权限模型',
    )
    expect(validatePermissionTree([and(cond(17, 1, '2024-01-01 00:00:00'))], details, { modelId: 2 })).toHaveLength(1)
  })
})

describe('renderPermissionSql: the preview text', () => {
  it('renders groups, operators and literals as the ancestor did, top-level groups AND-ed', () => {
    const tree = validatePermissionTree(
      [
        and(cond(1, 0, 'P001'), or(cond(9, 10, '星云'), cond(6, 9, 'C1'), cond(7, 8, '水果')), cond(12, 6, undefined, [true, 'false'])),
        or(cond(13, 2, '2024-01-01 00:00:00'), cond(11, 5, '箱')),
      ],
      details,
    )
    expect(renderPermissionSql(tree, details)).toBe(
      "(product.code = 'P001' AND (brand.name LIKE '%星云%' OR category.code LIKE 'C1%' OR category.name LIKE '%水果') AND product.available IN (TRUE, FALSE))" +
        " AND (product.create_time >= '2024-01-01 00:00:00' OR product.unit <> '箱')",
    )
  })

  it('escapes quotes in displayed values and shows the department variables of SQL nodes', () => {
    const tree = validatePermissionTree([and(cond(2, 0, "O'Brien"), cond(1, 6, undefined, ["a'", 'b']))], details)
    expect(renderPermissionSql(tree, details)).toBe("(product.name = 'O''Brien' AND product.code IN ('a''', 'b'))")
    const sub = validatePermissionTree([or(cond(14, 6), cond(16, 6))], details)
    expect(renderPermissionSql(sub, details)).toBe(
      '(order.create_by_id IN (SELECT __ud.owner_id FROM sys_user_dept_ids __ud WHERE __ud.ref_id IN ({curDeptIds}))' +
        ' OR order.create_by_id IN (SELECT __ud.owner_id FROM sys_user_dept_ids __ud WHERE __ud.ref_id IN ({childDeptIds})))',
    )
    expect(quoteLiteral("x'; drop table sys_user; --")).toBe("'x''; drop table sys_user; --'")
  })

  it('renders nothing for an empty tree', () => {
    expect(renderPermissionSql([], details)).toBe('')
  })
})

describe('buildPermissionPredicate: bound values, whitelisted columns', () => {
  const tree = validatePermissionTree(
    [and(cond(1, 0, 'P001'), or(cond(9, 10, '50%_off'), cond(12, 7, undefined, ['false']))), and(cond(13, 4, '2024-12-31 23:59:59'))],
    details,
  )

  it('compiles to parameterised SQL on SQLite (booleans as 1/0, LIKE escaped)', () => {
    const { sql, parameters } = compile(buildPermissionPredicate(tree, details, { dialect: 'sqlite', aliases: productAliases }))
    expect(sql).toBe(
      '(("g"."code" = ? and ("b"."name" like ? escape \'\\\' or "g"."available" not in (?)))' + ' and ("g"."create_time" <= ?))',
    )
    expect(parameters).toEqual(['P001', '%50\\%\\_off%', 0, '2024-12-31 23:59:59'])
  })

  it('compiles to parameterised SQL on PostgreSQL (booleans, ILIKE)', () => {
    const { sql, parameters } = compile(buildPermissionPredicate(tree, details, { dialect: 'postgres', aliases: productAliases }), postgres)
    expect(sql).toBe(
      '(("g"."code" = $1 and ("b"."name" ilike $2 escape \'\\\' or "g"."available" not in ($3))) and ("g"."create_time" <= $4))',
    )
    expect(parameters).toEqual(['P001', '%50\\%\\_off%', false, '2024-12-31 23:59:59'])
  })

  it('keeps an injection attempt a bound value, in the predicate and in lists', () => {
    const evil = "x' OR '1'='1'; DROP TABLE sys_user; --"
    const t = validatePermissionTree([and(cond(2, 0, evil), cond(4, 6, undefined, [evil, 'ok']))], details)
    const { sql, parameters } = compile(buildPermissionPredicate(t, details, { dialect: 'sqlite', aliases: productAliases }))
    expect(sql).toBe('("g"."name" = ? and "g"."sku_code" in (?, ?))')
    expect(sql).not.toContain('DROP')
    expect(parameters).toEqual([evil, evil, 'ok'])
  })

  it('takes columns only from the model: a node cannot bring its own column or table', () => {
    const t = validatePermissionTree([and({ ...cond(1, 0, 'A'), column: 'password', table: 'sys_user', tableName: 'x' })], details)
    expect(compile(buildPermissionPredicate(t, details, { dialect: 'sqlite', aliases: productAliases })).sql).toBe('("g"."code" = ?)')
  })

  it('refuses an alias that is not an identifier, or a placeholder the query has no alias for', () => {
    const t = validatePermissionTree([and(cond(1, 0, 'A'))], details)
    expect(() => buildPermissionPredicate(t, details, { dialect: 'sqlite', aliases: { product: 'g; --' } })).toThrow(/invalid alias/)
    expect(() => buildPermissionPredicate(t, details, { dialect: 'sqlite', aliases: { brand: 'b' } })).toThrow(/no alias/)
  })

  it('binds the department ids of SQL nodes, and matches nothing without departments', () => {
    const t = validatePermissionTree([and(cond(14, 6), cond(17, 1, '2024-01-01 00:00:00'))], details)
    const options = { dialect: 'postgres' as const, aliases: { order: 't' }, userDeptTable: 'tenant_1000.sys_user_dept_ids' }
    const withDepts = compile(buildPermissionPredicate(t, details, { ...options, vars: { curDeptIds: ['d1', "d2'"] } }), postgres)
    expect(withDepts.sql).toBe(
      '("t"."create_by_id" in (select __ud.owner_id from "tenant_1000"."sys_user_dept_ids" as __ud where __ud.ref_id in ($1, $2)) and "t"."create_time" > $3)',
    )
    expect(withDepts.parameters).toEqual(['d1', "d2'", '2024-01-01 00:00:00'])
    const none = compile(buildPermissionPredicate(t, details, { ...options, vars: { curDeptIds: [] } }), postgres)
    expect(none.sql).toBe('(1 = 0 and "t"."create_time" > $1)')
  })

  it('answers undefined for no permission and ANDs several templates', () => {
    expect(buildPermissionPredicate([], details, { dialect: 'sqlite' })).toBeUndefined()
    expect(combinePredicates([])).toBeUndefined()
    const a = validatePermissionTree([and(cond(1, 0, 'A'))], details)
    const b = validatePermissionTree([or(cond(2, 0, 'B'), cond(3, 0, 'C'))], details)
    const both = combinePredicates(
      [a, b].map((x: PermissionNode[]) => buildPermissionPredicate(x, details, { dialect: 'sqlite', aliases: productAliases })!),
    )
    const { sql, parameters } = compile(both)
    expect(sql).toBe('(("g"."code" = ?) and ("g"."name" = ? or "g"."short_name" = ?))')
    expect(parameters).toEqual(['A', 'B', 'C'])
  })
})
