import { sql, type RawBuilder, type SqlBool } from 'kysely'
import {
  DATA_PERMISSION_CALC_TYPE as CALC,
  DATA_PERMISSION_CONDITION as COND,
  DATA_PERMISSION_INPUT_TYPE as INPUT,
  DATA_PERMISSION_NODE_TYPE as NODE,
} from '../../shared/generated/enum-codes.js'
import { invalid } from './errors.js'

/**
 * Data permission: the designer's tree of operation (AND/OR) and condition nodes, validated and turned
 * into SQL. Pure: no database, no request. Two renderings of one validated tree:
 * - `buildPermissionPredicate`: a Kysely expression for a WHERE clause at query time. Columns come only
 *   from the model details (identifiers checked when the models load, always quoted), values are bound
 *   parameters, operators come from a fixed table.
 * - `renderPermissionSql`: the same condition as text for the designer's preview, values written as
 *   escaped literals. Display only: never executed.
 * (The ancestor spliced values into SQL unquoted-escaped; nothing here does.)
 */

export type SqlDialect = 'sqlite' | 'postgres'

/** How a condition value is checked and bound. */
export type ValueType = 'string' | 'number' | 'boolean' | 'date' | 'datetime'

/** Sub-queries an SQL-type model detail (input type 99) may name; the SQL lives here, not in data. */
export type SubQueryKey = 'sameDeptUsers' | 'parentDeptUsers' | 'childDeptUsers'

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

/** One field of a business object that a data permission may filter on (the designer's palette). */
export interface ModelDetail {
  id: number
  modelId: number
  name: string
  /** Table placeholder (product, category, brand, order): the caller maps it to its query's alias. */
  table: string
  column: string
  /** DATA_PERMISSION_INPUT_TYPE: 0 input, 1 select (enumName), 2 datetime, 3 date, 99 SQL. */
  inputType: number
  /** Allowed DATA_PERMISSION_CONDITION codes. */
  conditionTypes: number[]
  enumName?: string | null
  valueType?: ValueType
  /** Input type 99 only. */
  sql?: SubQueryKey
}

export interface PermissionModel {
  id: number
  name: string
}

export interface ModelSeed {
  models: PermissionModel[]
  details: ModelDetail[]
}

/** A validated node as stored (JSON text in sys_data_permission_data.permission). */
export interface PermissionNode {
  id?: string
  nodeType: number
  calcType?: number
  detailId?: number
  conditionType?: number
  value?: string
  values?: string[]
  children?: PermissionNode[]
}

export const MSG = {
  TOP_LEVEL: '最外层必须是运算节点',
  CALC_CHILDREN: '运算节点必须包含子节点',
  value: (name: string) => `节点：【${name}】请输入值`,
  FORMAT: '数据权限格式错误',
} as const

const MAX_NODES = 500
const MAX_DEPTH = 20
const MAX_VALUES = 500
const MAX_VALUE_LENGTH = 200

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/
const QUALIFIED = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

const CONDITION_CODES = new Set<number>(Object.values(COND))
const INPUT_CODES = new Set<number>(Object.values(INPUT))
const LIST_CONDITIONS = new Set<number>([COND.IN, COND.NOT_IN])
const LIKE_CONDITIONS = new Set<number>([COND.LEFT_LIKE, COND.RIGHT_LIKE, COND.AROUND_LIKE])
const COMPARE_OPS: Record<number, string> = {
  [COND.EQ]: '=',
  [COND.GT]: '>',
  [COND.GE]: '>=',
  [COND.LT]: '<',
  [COND.LE]: '<=',
  [COND.NE]: '<>',
}

/**
 * Checks the model file once at start-up: every column and table placeholder must be a plain
 * identifier, condition codes known, SQL details must name a known sub-query. Throws (a broken file
 * stops the server, never a request).
 */
export function parseModelSeed(raw: unknown): ModelSeed {
  const fail = (msg: string): never => {
    throw new Error(`data-permission-models.json: ${msg}`)
  }
  if (!raw || typeof raw !== 'object') fail('not an object')
  const seed = raw as ModelSeed
  if (!Array.isArray(seed.models) || !Array.isArray(seed.details)) fail('models and details must be arrays')
  const modelIds = new Set<number>()
  for (const m of seed.models) {
    if (!Number.isInteger(m.id) || typeof m.name !== 'string') fail(`bad model ${JSON.stringify(m)}`)
    modelIds.add(m.id)
  }
  const ids = new Set<number>()
  for (const d of seed.details) {
    const where = `detail ${JSON.stringify(d?.id)}`
    if (!Number.isInteger(d.id) || ids.has(d.id)) fail(`${where}: id missing or repeated`)
    ids.add(d.id)
    if (!modelIds.has(d.modelId)) fail(`${where}: unknown model ${d.modelId}`)
    if (typeof d.name !== 'string' || !d.name) fail(`${where}: name`)
    if (!IDENT.test(d.table) || !IDENT.test(d.column)) fail(`${where}: table and column must be identifiers`)
    if (!INPUT_CODES.has(d.inputType)) fail(`${where}: input type ${d.inputType}`)
    if (!Array.isArray(d.conditionTypes) || !d.conditionTypes.length || d.conditionTypes.some((c) => !CONDITION_CODES.has(c)))
      fail(`${where}: condition types`)
    if (d.inputType === INPUT.SQL) {
      if (!d.sql || !(d.sql in SUB_QUERY_VAR)) fail(`${where}: SQL detail needs a known sql key`)
      if (d.conditionTypes.some((c) => !LIST_CONDITIONS.has(c))) fail(`${where}: SQL detail allows only IN / NOT IN`)
    } else if (d.sql) fail(`${where}: sql key on a non-SQL detail`)
    if (d.valueType && !['string', 'number', 'boolean', 'date', 'datetime'].includes(d.valueType)) fail(`${where}: value type`)
  }
  return seed
}

export const detailMap = (details: readonly ModelDetail[]): ReadonlyMap<number, ModelDetail> =>
  new Map(details.map((d) => [d.id, d]))

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** The designer sends the tree as a JSON array, or as its JSON text (the saved form). */
export function parseTreeInput(input: unknown): unknown[] {
  if (blank(input)) return []
  let value = input
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      throw invalid(MSG.FORMAT, 'permission')
    }
  }
  if (value === null) return []
  if (!Array.isArray(value)) throw invalid(MSG.FORMAT, 'permission')
  return value
}

function valueType(detail: ModelDetail): ValueType {
  if (detail.valueType) return detail.valueType
  if (detail.inputType === INPUT.DATE_TIME) return 'datetime'
  if (detail.inputType === INPUT.DATE) return 'date'
  return 'string'
}

/** One value as stored (text), or the node's error message. */
function checkValue(detail: ModelDetail, raw: unknown): string {
  const name = detail.name
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw invalid(MSG.value(name), 'permission')
  const text = String(raw).trim()
  if (!text) throw invalid(MSG.value(name), 'permission')
  if ([...text].length > MAX_VALUE_LENGTH) throw invalid(`节点：【${name}】值长度不能超过${MAX_VALUE_LENGTH}个字符`, 'permission')
  const bad = () => invalid(`节点：【${name}】值格式不正确`, 'permission')
  switch (valueType(detail)) {
    case 'boolean':
      if (['true', '1'].includes(text)) return 'true'
      if (['false', '0'].includes(text)) return 'false'
      throw bad()
    case 'number':
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw bad()
      return text
    case 'date':
      if (!DATE.test(text) || Number.isNaN(Date.parse(text))) throw bad()
      return text
    case 'datetime':
      if (!DATETIME.test(text) || Number.isNaN(Date.parse(text.replace(' ', 'T')))) throw bad()
      return text
    default:
      return text
  }
}

export interface ValidateOptions {
  /** Only details of this model may appear (a saved permission of one permission type). */
  modelId?: number
}

/**
 * Validates the designer's tree with the spec's messages, in the designer's order: the top level holds
 * only operation nodes (最外层必须是运算节点), every operation node has children (运算节点必须包含子节点),
 * every condition has its value, and IN / NOT IN on a non-SQL node at least one (节点：【{name}】请输入值).
 * Answers the tree as it is stored: only known properties, values as trimmed text. Throws a 400.
 */
export function validatePermissionTree(
  input: unknown,
  details: ReadonlyMap<number, ModelDetail>,
  options: ValidateOptions = {},
): PermissionNode[] {
  const top = parseTreeInput(input)
  for (const node of top) {
    if (!isObject(node) || Number(node.nodeType) !== NODE.CALC) throw invalid(MSG.TOP_LEVEL, 'permission')
  }
  let count = 0
  const walk = (raw: unknown, depth: number): PermissionNode => {
    if (!isObject(raw)) throw invalid(MSG.FORMAT, 'permission')
    if (++count > MAX_NODES) throw invalid(`数据权限节点不能超过${MAX_NODES}个`, 'permission')
    if (depth > MAX_DEPTH) throw invalid(`数据权限层级不能超过${MAX_DEPTH}层`, 'permission')
    const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id).slice(0, 64) : undefined
    const nodeType = Number(raw.nodeType)
    if (nodeType === NODE.CALC) {
      const calcType = Number(raw.calcType)
      if (calcType !== CALC.AND && calcType !== CALC.OR) throw invalid('请选择运算类型', 'permission')
      if (!Array.isArray(raw.children) || raw.children.length === 0) throw invalid(MSG.CALC_CHILDREN, 'permission')
      const children = raw.children.map((c) => walk(c, depth + 1))
      return { ...(id !== undefined && { id }), nodeType, calcType, children }
    }
    if (nodeType !== NODE.CONDITION) throw invalid(MSG.FORMAT, 'permission')
    const detail = details.get(Number(raw.detailId))
    if (!detail) throw invalid('数据权限条件不存在！', 'permission')
    const name = detail.name
    if (options.modelId !== undefined && detail.modelId !== options.modelId)
      throw invalid(`节点：【${name}】不属于当前数据权限模型`, 'permission')
    let conditionType = blank(raw.conditionType) ? undefined : Number(raw.conditionType)
    if (conditionType === undefined && detail.conditionTypes.length === 1) conditionType = detail.conditionTypes[0]
    if (conditionType === undefined) throw invalid(`节点：【${name}】请选择条件`, 'permission')
    if (!detail.conditionTypes.includes(conditionType)) throw invalid(`节点：【${name}】条件不正确`, 'permission')
    const node: PermissionNode = { ...(id !== undefined && { id }), nodeType, detailId: detail.id, conditionType }
    if (detail.inputType === INPUT.SQL) return node
    if (LIST_CONDITIONS.has(conditionType)) {
      const list = Array.isArray(raw.values) ? raw.values : []
      if (!list.length) throw invalid(MSG.value(name), 'permission')
      if (list.length > MAX_VALUES) throw invalid(`节点：【${name}】最多允许${MAX_VALUES}个值`, 'permission')
      node.values = [...new Set(list.map((v) => checkValue(detail, v)))]
      return node
    }
    node.value = checkValue(detail, raw.value)
    return node
  }
  return top.map((n) => walk(n, 1))
}

/* ---------- rendering ---------- */

export interface SqlOptions {
  dialect: SqlDialect
  /** Table placeholder → alias (or table) in the caller's query, e.g. {product: 'g', brand: 'b'}. */
  aliases?: Readonly<Record<string, string>>
  vars?: PermissionVars
  /** The user→department link table (`owner_id` user, `ref_id` dept), schema-qualified on PostgreSQL. */
  userDeptTable?: string
}

export const DEFAULT_USER_DEPT_TABLE = 'sys_user_dept_ids'

type Scalar = string | number | boolean

/** The dialect-free meaning of one condition, shared by both renderings. */
type Condition =
  | { kind: 'compare'; table: string; column: string; op: string; value: Scalar }
  | { kind: 'list'; table: string; column: string; not: boolean; values: Scalar[] }
  | { kind: 'like'; table: string; column: string; pattern: string }
  | { kind: 'sub'; table: string; column: string; not: boolean; key: SubQueryKey }

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
    const ref = col(c.table, c.column)
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
