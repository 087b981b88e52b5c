import {
  DATA_PERMISSION_CALC_TYPE as CALC,
  DATA_PERMISSION_CONDITION as COND,
  DATA_PERMISSION_INPUT_TYPE as INPUT,
  DATA_PERMISSION_NODE_TYPE as NODE,
} from '../generated/enum-codes.js'

/**
 * Data permission, the part both sides need: the model types, the designer's messages and the tree
 * validation (000 §5). Pure and isomorphic: the server checks every preview and save with it (and
 * turns `PermissionTreeError` into a 400), the browser's designer checks before preview and confirm
 * with the same function, so the messages and their order cannot drift apart.
 */

/** How a condition value is checked and bound. */
export type ValueType = 'string' | 'number' | 'boolean' | 'date' | 'datetime'

/** Sub-queries an SQL-type model detail (input type 99) may name; the SQL lives on the server. */
export const SUB_QUERY_KEYS = ['sameDeptUsers', 'parentDeptUsers', 'childDeptUsers'] as const
export type SubQueryKey = (typeof SUB_QUERY_KEYS)[number]

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
  /**
   * The placeholder is not on every entity of the model (a document's party: supplier or customer):
   * where an entity does not map it, the condition is met (it narrows only documents that have one).
   */
  optional?: boolean
}

/** What the validation needs of a detail: the server's full row or the browser's palette entry. */
export type DetailRule = Pick<ModelDetail, 'id' | 'modelId' | 'name' | 'inputType' | 'conditionTypes'> & {
  valueType?: ValueType
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
  /** Dropping or adding a condition node where only operation nodes may go. */
  CALC_ONLY: '此区域只允许添加运算节点',
  value: (name: string) => `节点：【${name}】请输入值`,
  FORMAT: '数据权限格式错误',
} as const

/**
 * A tree the designer may not save, with the spec's message. `nodeId` names the offending node when
 * it has an id (the designer shows which one).
 */
export class PermissionTreeError extends Error {
  readonly field = 'permission'
  constructor(
    message: string,
    readonly nodeId?: string,
  ) {
    super(message)
    this.name = 'PermissionTreeError'
  }
}

export const MAX_NODES = 500
export const MAX_DEPTH = 20
export const MAX_VALUES = 500
export const MAX_VALUE_LENGTH = 200

export const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

const CONDITION_CODES = new Set<number>(Object.values(COND))
const INPUT_CODES = new Set<number>(Object.values(INPUT))
/** IN / NOT IN: the node carries `values`, not `value`. */
export const LIST_CONDITIONS: ReadonlySet<number> = new Set<number>([COND.IN, COND.NOT_IN])

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
      if (!d.sql || !(SUB_QUERY_KEYS as readonly string[]).includes(d.sql)) fail(`${where}: SQL detail needs a known sql key`)
      if (d.conditionTypes.some((c) => !LIST_CONDITIONS.has(c))) fail(`${where}: SQL detail allows only IN / NOT IN`)
    } else if (d.sql) fail(`${where}: sql key on a non-SQL detail`)
    if (d.valueType && !['string', 'number', 'boolean', 'date', 'datetime'].includes(d.valueType)) fail(`${where}: value type`)
  }
  return seed
}

export const detailMap = <D extends DetailRule>(details: readonly D[]): ReadonlyMap<number, D> => new Map(details.map((d) => [d.id, d]))

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
const idOf = (raw: unknown): string | undefined =>
  isObject(raw) && (typeof raw.id === 'string' || typeof raw.id === 'number') ? String(raw.id).slice(0, 64) : undefined

/** The designer sends the tree as a JSON array, or as its JSON text (the saved form). */
export function parseTreeInput(input: unknown): unknown[] {
  if (blank(input)) return []
  let value = input
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      throw new PermissionTreeError(MSG.FORMAT)
    }
  }
  if (value === null) return []
  if (!Array.isArray(value)) throw new PermissionTreeError(MSG.FORMAT)
  return value
}

export function valueType(detail: DetailRule): ValueType {
  if (detail.valueType) return detail.valueType
  if (detail.inputType === INPUT.DATE_TIME) return 'datetime'
  if (detail.inputType === INPUT.DATE) return 'date'
  return 'string'
}

/** One value as stored (text), or the node's error message. */
function checkValue(detail: DetailRule, raw: unknown, nodeId: string | undefined): string {
  const name = detail.name
  const fail = (msg: string) => new PermissionTreeError(msg, nodeId)
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw fail(MSG.value(name))
  const text = String(raw).trim()
  if (!text) throw fail(MSG.value(name))
  if ([...text].length > MAX_VALUE_LENGTH) throw fail(`节点：【${name}】值长度不能超过${MAX_VALUE_LENGTH}个字符`)
  const bad = () => fail(`节点：【${name}】值格式不正确`)
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
 * Answers the tree as it is stored: only known properties, values as trimmed text. Throws
 * `PermissionTreeError`.
 */
export function validatePermissionTree(
  input: unknown,
  details: ReadonlyMap<number, DetailRule>,
  options: ValidateOptions = {},
): PermissionNode[] {
  const top = parseTreeInput(input)
  for (const node of top) {
    if (!isObject(node) || Number(node.nodeType) !== NODE.CALC) throw new PermissionTreeError(MSG.TOP_LEVEL, idOf(node))
  }
  let count = 0
  const walk = (raw: unknown, depth: number): PermissionNode => {
    if (!isObject(raw)) throw new PermissionTreeError(MSG.FORMAT)
    const id = idOf(raw)
    const fail = (msg: string) => new PermissionTreeError(msg, id)
    if (++count > MAX_NODES) throw fail(`数据权限节点不能超过${MAX_NODES}个`)
    if (depth > MAX_DEPTH) throw fail(`数据权限层级不能超过${MAX_DEPTH}层`)
    const nodeType = Number(raw.nodeType)
    if (nodeType === NODE.CALC) {
      const calcType = Number(raw.calcType)
      if (calcType !== CALC.AND && calcType !== CALC.OR) throw fail('请选择运算类型')
      if (!Array.isArray(raw.children) || raw.children.length === 0) throw fail(MSG.CALC_CHILDREN)
      const children = raw.children.map((c) => walk(c, depth + 1))
      return { ...(id !== undefined && { id }), nodeType, calcType, children }
    }
    if (nodeType !== NODE.CONDITION) throw fail(MSG.FORMAT)
    const detail = details.get(Number(raw.detailId))
    if (!detail) throw fail('数据权限条件不存在！')
    const name = detail.name
    if (options.modelId !== undefined && detail.modelId !== options.modelId) throw fail(`节点：【${name}】不属于当前数据权限模型`)
    let conditionType = blank(raw.conditionType) ? undefined : Number(raw.conditionType)
    if (conditionType === undefined && detail.conditionTypes.length === 1) conditionType = detail.conditionTypes[0]
    if (conditionType === undefined) throw fail(`节点：【${name}】请选择条件`)
    if (!detail.conditionTypes.includes(conditionType)) throw fail(`节点：【${name}】条件不正确`)
    const node: PermissionNode = { ...(id !== undefined && { id }), nodeType, detailId: detail.id, conditionType }
    if (detail.inputType === INPUT.SQL) return node
    if (LIST_CONDITIONS.has(conditionType)) {
      const list = Array.isArray(raw.values) ? raw.values : []
      if (!list.length) throw fail(MSG.value(name))
      if (list.length > MAX_VALUES) throw fail(`节点：【${name}】最多允许${MAX_VALUES}个值`)
      node.values = [...new Set(list.map((v) => checkValue(detail, v, id)))]
      return node
    }
    node.value = checkValue(detail, raw.value, id)
    return node
  }
  return top.map((n) => walk(n, 1))
}
