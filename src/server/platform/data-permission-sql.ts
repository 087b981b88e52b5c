import { sql, type RawBuilder, type SqlBool } from 'kysely'
import {
  DATA_PERMISSION_CALC_TYPE as CALC,
  DATA_PERMISSION_CONDITION as COND,
  DATA_PERMISSION_INPUT_TYPE as INPUT,
  DATA_PERMISSION_NODE_TYPE as NODE,
} from '../../shared/generated/enum-codes.js'
import {
  IDENT,
  LIST_CONDITIONS,
  MSG,
  PermissionTreeError,
  parseTreeInput as parseTreeInputShared,
  validatePermissionTree as validateShared,
  valueType,
  type DetailRule,
  type ModelDetail,
  type PermissionNode,
  type SubQueryKey,
  type ValidateOptions,
} from '../../shared/data-permission/tree.js'
import { invalid } from './errors.js'

/**
 * Data permission: the designer's tree of operation (AND/OR) and condition nodes, validated and turned
 * into SQL. Pure: no database, no request. The models' types and the tree validation live in
 * src/shared/data-permission/tree.ts (the browser's designer runs the same checks); here they answer
 * BizError 400s. Two renderings of one validated tree:
 * - `buildPermissionPredicate`: a Kysely expression for a WHERE clause at query time. Columns come only
 *   from the model details (identifiers checked when the models load, always quoted), values are bound
 *   parameters, operators come from a fixed table.
 * - `renderPermissionSql`: the same condition as text for the designer's preview, values written as
 *   escaped literals. Display only: never executed.
 * (The ancestor spliced values into SQL unquoted-escaped; nothing here does.)
 */

export {
  MSG,
  detailMap,
  parseModelSeed,
  type ModelDetail,
  type ModelSeed,
  type PermissionModel,
  type PermissionNode,
  type SubQueryKey,
  type ValidateOptions,
  type ValueType,
} from '../../shared/data-permission/tree.js'

export type SqlDialect = 'sqlite' | 'postgres'

/** Per-user values the sub-queries need, resolved by the caller at query time. */
export interface PermissionVars {
  /** Departments of the signed-in user. */
  curDeptIds?: readonly string[]
  /** Departments above the user's own (excluding them). */
  parentDeptIds?: readonly string[]
  /** Departments below the user's own (excluding them). */
  childDeptIds?: readonly string[]
}

const SUB_QUERY_VAR: Record<SubQueryKey, keyof PermissionVars> = {
  sameDeptUsers: 'curDeptIds',
  parentDeptUsers: 'parentDeptIds',
  childDeptUsers: 'childDeptIds',
}

const QUALIFIED = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/

const LIKE_CONDITIONS = new Set<number>([COND.LEFT_LIKE, COND.RIGHT_LIKE, COND.AROUND_LIKE])
const COMPARE_OPS: Record<number, string> = {
  [COND.EQ]: '=',
  [COND.GT]: '>',
  [COND.GE]: '>=',
  [COND.LT]: '<',
  [COND.LE]: '<=',
  [COND.NE]: '<>',
}

/** The shared checks' failure as the server's 400 (same message, field `permission`). */
function asBizError<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof PermissionTreeError) throw invalid(error.message, error.field)
    throw error
  }
}

/** The designer sends the tree as a JSON array, or as its JSON text (the saved form). Throws a 400. */
export const parseTreeInput = (input: unknown): unknown[] => asBizError(() => parseTreeInputShared(input))

/**
 * Validates the designer's tree with the spec's messages (see the shared `validatePermissionTree`) and
 * answers it as stored. Throws a 400.
 */
export function validatePermissionTree(
  input: unknown,
  details: ReadonlyMap<number, DetailRule>,
  options: ValidateOptions = {},
): PermissionNode[] {
  const tree = asBizError(() => validateShared(input, details, options))
  refuseControlCharacters(tree, details)
  return tree
}

/**
 * NUL, other C0 controls and DEL are no part of any code, name or date a condition compares with, and
 * they are dangerous: SQLite ends a LIKE pattern at NUL, so `%\u0000` matched every row, and
 * PostgreSQL refuses NUL in text. Refused when a tree is saved or previewed; a stored tree that
 * carries one no longer validates, so at query time it matches nothing (dataPermissionFilter).
 */
const CONTROL = /[\u0000-\u001f\u007f]/

function refuseControlCharacters(tree: readonly PermissionNode[], details: ReadonlyMap<number, DetailRule>): void {
  for (const node of tree) {
    if (node.children) refuseControlCharacters(node.children, details)
    const texts = [node.value, ...(node.values ?? [])]
    if (texts.some((v) => typeof v === 'string' && CONTROL.test(v))) {
      const name = details.get(Number(node.detailId))?.name ?? ''
      throw invalid(`节点：【${name}】值不能包含控制字符`, 'permission')
    }
  }
}

/* ---------- rendering ---------- */

export interface SqlOptions {
  dialect: SqlDialect
  /** Table placeholder → alias (or table) in the caller's query, e.g. {product: 'g', brand: 'b'}. */
  aliases?: Readonly<Record<string, string>>
  vars?: PermissionVars
  /** The user→department link table (`owner_id` user, `ref_id` dept), schema-qualified on PostgreSQL. */
  userDeptTable?: string
  /**
   * Table placeholders reached through a reference of the caller's row instead of a join: `key` is the
   * referencing column as the query names it (`t.category_id`), `table` the referenced table
   * (schema-qualified on PostgreSQL). A condition on one becomes a semi-join, `t.category_id in (select
   * id from category where code in (…))`: the same rows as a left join and a condition on the joined
   * row, without the join (see `condition` for why the answers agree).
   */
  references?: Readonly<Record<string, { table: string; key: string }>>
}

export const DEFAULT_USER_DEPT_TABLE = 'sys_user_dept_ids'

type Scalar = string | number | boolean

/** The dialect-free meaning of one condition, shared by both renderings. */
type Condition = { optional?: boolean } & (
  | { kind: 'compare'; table: string; column: string; op: string; value: Scalar }
  | { kind: 'list'; table: string; column: string; not: boolean; values: Scalar[] }
  | { kind: 'like'; table: string; column: string; pattern: string }
  | { kind: 'sub'; table: string; column: string; not: boolean; key: SubQueryKey }
)

type Group = { kind: 'group'; op: 'AND' | 'OR'; items: (Group | Condition)[] }

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

function typed(detail: ModelDetail, text: string): Scalar {
  const t = valueType(detail)
  if (t === 'boolean') return text === 'true'
  if (t === 'number') return Number(text)
  return text
}

function toCondition(node: PermissionNode, details: ReadonlyMap<number, ModelDetail>): Condition {
  const detail = details.get(Number(node.detailId))
  if (!detail) throw invalid('数据权限条件不存在！', 'permission')
  return { ...conditionOf(node, detail), optional: detail.optional === true }
}

function conditionOf(node: PermissionNode, detail: ModelDetail): Condition {
  const { table, column } = detail
  const type = Number(node.conditionType)
  if (detail.inputType === INPUT.SQL) return { kind: 'sub', table, column, not: type === COND.NOT_IN, key: detail.sql as SubQueryKey }
  if (LIST_CONDITIONS.has(type))
    return { kind: 'list', table, column, not: type === COND.NOT_IN, values: (node.values ?? []).map((v) => typed(detail, v)) }
  const text = String(node.value ?? '')
  if (LIKE_CONDITIONS.has(type)) {
    const v = likeEscape(text)
    const pattern = type === COND.LEFT_LIKE ? `%${v}` : type === COND.RIGHT_LIKE ? `${v}%` : `%${v}%`
    return { kind: 'like', table, column, pattern }
  }
  const op = COMPARE_OPS[type]
  if (!op) throw invalid(`节点：【${detail.name}】条件不正确`, 'permission')
  return { kind: 'compare', table, column, op, value: typed(detail, text) }
}

/** The tree as groups of conditions; top-level groups are AND-ed (as the ancestor does). */
function toGroups(tree: readonly PermissionNode[], details: ReadonlyMap<number, ModelDetail>): Group[] {
  const group = (node: PermissionNode): Group => ({
    kind: 'group',
    op: node.calcType === CALC.OR ? 'OR' : 'AND',
    items: (node.children ?? []).map((c) => (c.nodeType === NODE.CALC ? group(c) : toCondition(c, details))),
  })
  return tree.map((n) => {
    if (n.nodeType !== NODE.CALC) throw invalid(MSG.TOP_LEVEL, 'permission')
    return group(n)
  })
}

function checkedIdent(name: string, what: string, pattern = IDENT): string {
  if (!pattern.test(name)) throw new Error(`data permission: invalid ${what} ${JSON.stringify(name)}`)
  return name
}

/**
 * The permission as a WHERE predicate, or undefined when the tree is empty (no restriction).
 * `tree` must come from `validatePermissionTree`. Values are bound; booleans follow the dialect's
 * storage (SQLite 1/0); text matching ignores case on PostgreSQL as the list filters do.
 */
export function buildPermissionPredicate(
  tree: readonly PermissionNode[],
  details: ReadonlyMap<number, ModelDetail>,
  options: SqlOptions,
): RawBuilder<SqlBool> | undefined {
  const groups = toGroups(tree, details)
  if (!groups.length) return undefined
  const pg = options.dialect === 'postgres'
  const bind = (v: Scalar) => (typeof v === 'boolean' && !pg ? (v ? 1 : 0) : v)
  const userDept = checkedIdent(options.userDeptTable ?? DEFAULT_USER_DEPT_TABLE, 'table', QUALIFIED)
  const col = (table: string, column: string) => {
    const alias = options.aliases ? options.aliases[table] : table
    if (!alias) throw new Error(`data permission: no alias for table placeholder ${table}`)
    return sql.ref(`${checkedIdent(alias, 'alias')}.${checkedIdent(column, 'column')}`)
  }
  const condition = (c: Condition): RawBuilder<SqlBool> => {
    const through = options.references?.[c.table]
    // A condition on a table the entity does not have (the party of a document without one) is met.
    if (c.optional && options.aliases && !options.aliases[c.table] && !through) return sql<SqlBool>`1 = 1`
    // Defence in depth for trees that bypassed validatePermissionTree: a condition on a control
    // character matches nothing. Groups only AND/OR their items, so a false item can only narrow.
    if (carriesControl(c)) return sql<SqlBool>`1 = 0`
    if (!through) return test(c, col(c.table, c.column))
    // Over a left join the condition sees the referenced row, or NULLs when there is none. A compare,
    // list or LIKE on NULL is never true, so "a referenced row meets it" is the whole answer; a
    // sub-query condition (NOT IN an empty set is true even for NULL) keeps the no-row case.
    const alias = `dp_${checkedIdent(c.table, 'table placeholder')}`
    const key = sql.ref(checkedIdent(through.key, 'reference', QUALIFIED))
    const table = sql.table(checkedIdent(through.table, 'table', QUALIFIED))
    const inner = test(c, sql.ref(`${alias}.${checkedIdent(c.column, 'column')}`))
    const semi = sql<SqlBool>`${key} in (select ${sql.ref(`${alias}.id`)} from ${table} as ${sql.ref(alias)} where ${inner})`
    if (c.kind !== 'sub') return semi
    const none = sql<SqlBool>`not exists (select 1 from ${table} as ${sql.ref(alias)} where ${sql.ref(`${alias}.id`)} = ${key})`
    return sql<SqlBool>`(${semi} or (${none} and ${test(c, sql`null`)}))`
  }
  const test = (c: Condition, ref: RawBuilder<unknown> | ReturnType<typeof sql.ref>): RawBuilder<SqlBool> => {
    switch (c.kind) {
      case 'compare':
        return sql<SqlBool>`${ref} ${sql.raw(c.op)} ${bind(c.value)}`
      case 'list': {
        const list = sql.join(c.values.map((v) => sql`${bind(v)}`))
        return c.not ? sql<SqlBool>`${ref} not in (${list})` : sql<SqlBool>`${ref} in (${list})`
      }
      case 'like':
        return pg ? sql<SqlBool>`${ref} ilike ${c.pattern} escape '\\'` : sql<SqlBool>`${ref} like ${c.pattern} escape '\\'`
      case 'sub': {
        const ids = [...(options.vars?.[SUB_QUERY_VAR[c.key]] ?? [])]
        // No department: IN an empty set matches nothing, NOT IN matches everything.
        if (!ids.length) return c.not ? sql<SqlBool>`1 = 1` : sql<SqlBool>`1 = 0`
        const sub = sql`select __ud.owner_id from ${sql.table(userDept)} as __ud where __ud.ref_id in (${sql.join(ids)})`
        return c.not ? sql<SqlBool>`${ref} not in (${sub})` : sql<SqlBool>`${ref} in (${sub})`
      }
    }
  }
  const render = (g: Group): RawBuilder<SqlBool> =>
    sql<SqlBool>`(${sql.join(
      g.items.map((i) => (i.kind === 'group' ? render(i) : condition(i))),
      sql.raw(` ${g.op.toLowerCase()} `),
    )})`
  return combinePredicates(groups.map(render))
}

function carriesControl(c: Condition): boolean {
  switch (c.kind) {
    case 'compare':
      return typeof c.value === 'string' && CONTROL.test(c.value)
    case 'list':
      return c.values.some((v) => typeof v === 'string' && CONTROL.test(v))
    case 'like':
      return CONTROL.test(c.pattern)
    case 'sub':
      return false
  }
}

/** AND of several predicates (the templates of a user's roles, departments and own), or undefined. */
export function combinePredicates(list: readonly RawBuilder<SqlBool>[]): RawBuilder<SqlBool> | undefined {
  if (!list.length) return undefined
  if (list.length === 1) return list[0]
  return sql<SqlBool>`(${sql.join(list, sql.raw(' and '))})`
}

/** A text as an SQL string literal: quotes doubled. For display only. */
export const quoteLiteral = (text: string) => `'${text.replace(/\0/g, '').replace(/'/g, "''")}'`

const literal = (v: Scalar) => (typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : typeof v === 'number' ? String(v) : quoteLiteral(v))

/**
 * The permission as SQL text for the preview: `(product.code = 'A' AND brand.name LIKE '%x%')`, groups
 * AND-ed, table placeholders as written in the model (or the aliases given). Display only.
 */
export function renderPermissionSql(
  tree: readonly PermissionNode[],
  details: ReadonlyMap<number, ModelDetail>,
  options: Omit<SqlOptions, 'dialect'> = {},
): string {
  const userDept = options.userDeptTable ?? DEFAULT_USER_DEPT_TABLE
  const col = (table: string, column: string) => `${options.aliases?.[table] ?? table}.${column}`
  const condition = (c: Condition): string => {
    const ref = col(c.table, c.column)
    switch (c.kind) {
      case 'compare':
        return `${ref} ${c.op} ${literal(c.value)}`
      case 'list':
        return `${ref} ${c.not ? 'NOT IN' : 'IN'} (${c.values.map(literal).join(', ')})`
      case 'like':
        return `${ref} LIKE ${quoteLiteral(c.pattern)}`
      case 'sub': {
        const name = SUB_QUERY_VAR[c.key]
        const ids = options.vars?.[name]
        const list = ids ? ids.map(quoteLiteral).join(', ') || 'NULL' : `{${name}}`
        return `${ref} ${c.not ? 'NOT IN' : 'IN'} (SELECT __ud.owner_id FROM ${userDept} __ud WHERE __ud.ref_id IN (${list}))`
      }
    }
  }
  const render = (g: Group): string => `(${g.items.map((i) => (i.kind === 'group' ? render(i) : condition(i))).join(` ${g.op} `)})`
  return toGroups(tree, details).map(render).join(' AND ')
}
