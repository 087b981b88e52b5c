import { sql, type Expression, type RawBuilder, type SqlBool, type SelectQueryBuilder } from 'kysely'
import Decimal from 'decimal.js'
import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { invalid } from '../platform/errors.js'
import { likeEscape } from '../engine/list-conditions.js'
import { GEN_DATA_TYPE as T, QUERY_TYPE as Q } from '../../shared/generated/enum-codes.js'
import { isDecimalType, isIntegerType } from './gen-data-types.js'
import { renderCustomSql } from './custom-sql.js'
import type { ObjColumn } from './data-object.js'
import type { LoadedList } from './custom-list-config.js'
import { entityOfTable } from './tenant-tables.js'

/**
 * The custom-list query. SQL comes only from the resolved data object (tables, aliases, columns and
 * checked custom expressions, see data-object.ts); the client chooses nothing but values, which are
 * converted to the column's data type and bound. A condition's `tableAlias` + `columnName` must be a
 * query param or a field of this list (else 400 查询条件不存在). Tenant isolation: the query runs on
 * the caller's tenant handle. Row rules: see baseQuery.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Query = SelectQueryBuilder<any, any, any>

const MAX_PAGE_SIZE = 500
const MAX_CONDITIONS = 50
const MAX_IN_VALUES = 500
const MAX_EXPORT_ROWS = 50000

export interface ListBody {
  pageIndex: number
  pageSize: number
  conditions: { column: ObjColumn; queryType: number; values: unknown[] }[]
  sort?: { column: ObjColumn; order: 'asc' | 'desc' }
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

function scalarValue(v: unknown, where: string): string | number | boolean {
  if (typeof v === 'string') {
    if (v.length > 1000) throw invalid(`${where}长度不能超过1000个字符`)
    return v.trim()
  }
  if (typeof v === 'number' || typeof v === 'boolean') return v
  throw invalid(`${where}格式不正确`)
}

/** A condition value as the column's type: a bound parameter, never SQL. */
function convert(kind: 'sqlite' | 'postgres', c: ObjColumn, raw: string | number | boolean, like: boolean): unknown {
  const where = `查询条件【${c.name}】`
  const s = String(raw)
  if (like) return s
  if (isIntegerType(c.dataType)) {
    if (!/^-?\d{1,18}$/.test(s)) throw invalid(`${where}必须为整数`)
    return Number(s)
  }
  if (isDecimalType(c.dataType)) {
    let d: Decimal
    try {
      d = new Decimal(s)
    } catch {
      throw invalid(`${where}必须为数字`)
    }
    if (!d.isFinite()) throw invalid(`${where}必须为数字`)
    return kind === 'sqlite' ? d.toNumber() : d.toFixed()
  }
  if (c.dataType === T.BOOLEAN) {
    const b = raw === true || s === 'true' || s === '1' ? true : raw === false || s === 'false' || s === '0' ? false : undefined
    if (b === undefined) throw invalid(`${where}取值不正确`)
    return kind === 'sqlite' ? (b ? 1 : 0) : b
  }
  if (c.dataType === T.LOCAL_DATE && !/^\d{4}-\d{2}-\d{2}$/.test(s)) throw invalid(`${where}格式不正确`)
  if (c.dataType === T.LOCAL_DATE_TIME && !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(s)) throw invalid(`${where}格式不正确`)
  if (c.dataType === T.LOCAL_TIME && !/^\d{2}:\d{2}(:\d{2})?$/.test(s)) throw invalid(`${where}格式不正确`)
  return s
}

/** The expression of a column: a quoted `alias.column` reference or the checked custom expression. */
function columnExpr(c: ObjColumn): RawBuilder<unknown> {
  return c.custom ? renderCustomSql(c.custom) : sql.ref(`${c.tableAlias}.${c.columnName}`)
}

/** A column as compared and ordered: SQLite keeps decimals as exact text, so they are compared as numbers ('12' is not below '3.5'). */
function comparable(kind: 'sqlite' | 'postgres', c: ObjColumn): RawBuilder<unknown> {
  const col = columnExpr(c)
  return kind === 'sqlite' && isDecimalType(c.dataType) ? sql`cast(${col} as real)` : col
}

function conditionExpr(kind: 'sqlite' | 'postgres', cond: ListBody['conditions'][number]): Expression<SqlBool> {
  const c = cond.column
  const col = comparable(kind, c)
  const like = cond.queryType >= Q.LEFT_LIKE
  const values = cond.values.map((v) => convert(kind, c, v as string | number | boolean, like))
  if (like) {
    const text = likeEscape(String(values[0]))
    const pattern = cond.queryType === Q.LEFT_LIKE ? `%${text}` : cond.queryType === Q.RIGHT_LIKE ? `${text}%` : `%${text}%`
    return kind === 'postgres'
      ? sql<SqlBool>`cast(${columnExpr(c)} as text) ilike ${pattern} escape '\\'`
      : sql<SqlBool>`${columnExpr(c)} like ${pattern} escape '\\'`
  }
  if (cond.queryType === Q.IN || cond.queryType === Q.NOT_IN) {
    return sql<SqlBool>`${col} ${sql.raw(cond.queryType === Q.IN ? 'in' : 'not in')} (${sql.join(values)})`
  }
  const op = { [Q.EQ]: '=', [Q.GT]: '>', [Q.GE]: '>=', [Q.LT]: '<', [Q.LE]: '<=', [Q.NE]: '<>' }[cond.queryType] as string
  return sql<SqlBool>`${col} ${sql.raw(op)} ${values[0]}`
}

/**
 * Reads `{pageIndex, pageSize, conditions, sortField, sortOrder}` against the list's whitelist.
 * Conditions without a value are dropped (the browser does not send them either).
 */
export function parseListBody(loaded: LoadedList, body: unknown): ListBody {
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>
  const num = (v: unknown, fallback: number) => {
    const n = Number(v)
    return Number.isFinite(n) && n >= 1 ? Math.floor(n) : fallback
  }
  const pageIndex = Math.min(num(b.pageIndex, 1), 1_000_000)
  const pageSize = Math.min(num(b.pageSize, 20), MAX_PAGE_SIZE)
  const allowed = new Map<string, ObjColumn>()
  for (const q of loaded.queryParams) allowed.set(`${q.column.tableAlias}\u0000${q.column.columnName}`, q.column)
  for (const f of loaded.fields) allowed.set(`${f.column.tableAlias}\u0000${f.column.columnName}`, f.column)
  const raw = b.conditions ?? []
  if (!Array.isArray(raw)) throw invalid('查询条件格式不正确')
  if (raw.length > MAX_CONDITIONS) throw invalid(`查询条件不能超过${MAX_CONDITIONS}个`)
  const conditions: ListBody['conditions'] = []
  for (const item of raw) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalid('查询条件格式不正确')
    const cond = item as Record<string, unknown>
    const column = typeof cond.tableAlias === 'string' && typeof cond.columnName === 'string' ? allowed.get(`${cond.tableAlias}\u0000${cond.columnName}`) : undefined
    if (!column) throw invalid('查询条件不存在')
    const queryType = Number(cond.queryType ?? Q.EQ)
    if (!Number.isInteger(queryType) || queryType < Q.EQ || queryType > Q.AROUND_LIKE) throw invalid('查询类型不正确')
    const where = `查询条件【${column.name}】`
    let values: unknown[]
    if (queryType === Q.IN || queryType === Q.NOT_IN) {
      const list = Array.isArray(cond.values) ? cond.values : isBlank(cond.value) ? [] : String(cond.value).split(',')
      values = list.filter((v) => !isBlank(v)).map((v) => scalarValue(v, where))
      if (values.length > MAX_IN_VALUES) throw invalid(`${where}的值不能超过${MAX_IN_VALUES}个`)
    } else {
      values = isBlank(cond.value) ? [] : [scalarValue(cond.value, where)]
    }
    if (values.length) conditions.push({ column, queryType, values })
  }
  let sort: ListBody['sort']
  if (!isBlank(b.sortField)) {
    const f = loaded.fields.find((x) => x.sortable && x.column.key === b.sortField)
    if (!f) throw invalid('排序字段不存在')
    sort = { column: f.column, order: String(b.sortOrder ?? '').toLowerCase() === 'desc' ? 'desc' : 'asc' }
  }
  return { pageIndex, pageSize, conditions, sort }
}

/**
 * FROM + joins + conditions. Every table, main or joined, is read as `store.restrictedTable` answers it:
 * the rows the caller's own list of that table answers (data permission, ownership and sharing, the
 * CRM customers' visibility), so a row the caller cannot open is absent from the list; a joined one
 * leaves its main row with empty columns under a left join. Whoever runs the list (a menu's user or a
 * designer) gets only their own rows.
 */
async function baseQuery(services: Services, ctx: RequestContext, db: Db, loaded: LoadedList, conditions: ListBody['conditions']): Promise<Query> {
  const { obj } = loaded
  return filtered(services, await withJoins(services, ctx, db, db.selectFrom(await services.store.restrictedTable(db, ctx, obj.main.table, obj.main.alias)), loaded), conditions)
}

/** `q` with the data object's joins, each table read as `store.restrictedTable` answers it (see baseQuery). */
async function withJoins(services: Services, ctx: RequestContext, db: Db, q: Query, loaded: LoadedList): Promise<Query> {
  const { obj } = loaded
  let out = q
  for (const j of obj.joins) {
    const on = (join: { onRef: (a: string, op: '=', b: string) => unknown }) => {
      let jb = join
      for (const [m, s] of j.on) jb = jb.onRef(`${obj.main.alias}.${m}`, '=', `${j.alias}.${s}`) as typeof jb
      return jb
    }
    const target = await services.store.restrictedTable(db, ctx, j.table, j.alias)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const cb = on as any
    out = j.relaMode === 1 ? out.rightJoin(target, cb) : j.relaMode === 2 ? out.innerJoin(target, cb) : out.leftJoin(target, cb)
  }
  return out
}

function filtered(services: Services, q: Query, conditions: ListBody['conditions']): Query {
  const kind = services.databases.kind
  let out = q
  for (const cond of conditions) out = out.where(conditionExpr(kind, cond))
  return out
}

/**
 * Whether the joins cannot change which main rows the list has, nor their order: every join is a LEFT
 * JOIN onto the `id` of an engine table (its primary key: at most one row each; not the data entity's
 * 主键 flag, which an admin may set on any column), and no condition or sort reads a joined table (or a
 * custom expression, which may). The count and the page are then taken from the main table alone, and
 * only the page's rows are joined: a join under a count or a sort visits every matching row (500,000
 * products joined to their category for a page of 20).
 */
function joinsAfterPage(services: Services, loaded: LoadedList, body: ListBody): boolean {
  const { obj } = loaded
  if (!obj.joins.length) return false
  const mainOnly = (c: ObjColumn) => !c.custom && c.tableAlias === obj.main.alias
  if (!body.conditions.every((cond) => mainOnly(cond.column)) || (body.sort && !mainOnly(body.sort.column))) return false
  return obj.joins.every((j) => j.relaMode === 0 && entityOfTable(services.registry, j.table) !== undefined && j.on.some(([, sub]) => sub === 'id'))
}

function selectColumns(q: Query, loaded: LoadedList): Query {
  let out = q
  for (const c of loaded.obj.columns) out = out.select(columnExpr(c).as(c.key))
  return out
}

function ordered(kind: 'sqlite' | 'postgres', q: Query, loaded: LoadedList, sort: ListBody['sort']): Query {
  let out = q
  if (sort) out = out.orderBy(comparable(kind, sort.column), sort.order)
  const key = loaded.obj.columns.find((c) => c.isKey && c.tableAlias === loaded.obj.main.alias) ?? loaded.obj.columns.find((c) => !c.custom)
  if (key) out = out.orderBy(columnExpr(key), 'asc')
  return out
}

/** Cells as the data type says: booleans, exact decimals as text, integers as numbers. */
function answerRow(loaded: LoadedList, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of loaded.obj.columns) {
    const v = row[c.key]
    if (v === null || v === undefined) out[c.key] = null
    else if (c.dataType === T.BOOLEAN) out[c.key] = v === true || v === 1 || v === '1' || v === 't' || v === 'true'
    else if (isIntegerType(c.dataType)) out[c.key] = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v
    else if (isDecimalType(c.dataType)) out[c.key] = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(String(v)) ? new Decimal(String(v)).toFixed() : String(v)
    else if (v instanceof Date) out[c.key] = v.toISOString().replace('T', ' ').slice(0, 19)
    else out[c.key] = v
  }
  return out
}

export async function queryPage(services: Services, ctx: RequestContext, db: Db, loaded: LoadedList, body: ListBody) {
  const kind = services.databases.kind
  const offset = (body.pageIndex - 1) * body.pageSize
  let count: { n: unknown } | undefined
  let rows: Record<string, unknown>[]
  if (joinsAfterPage(services, loaded, body)) {
    const { alias, table } = loaded.obj.main
    const main = filtered(services, db.selectFrom(await services.store.restrictedTable(db, ctx, table, alias)), body.conditions)
    count = await main.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()
    const page = ordered(kind, main.selectAll(alias), loaded, body.sort).limit(body.pageSize).offset(offset)
    rows = await ordered(kind, selectColumns(await withJoins(services, ctx, db, db.selectFrom(page.as(alias)), loaded), loaded), loaded, body.sort).execute()
  } else {
    const base = await baseQuery(services, ctx, db, loaded, body.conditions)
    count = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()
    rows = await ordered(kind, selectColumns(base, loaded), loaded, body.sort).limit(body.pageSize).offset(offset).execute()
  }
  return { pageIndex: body.pageIndex, pageSize: body.pageSize, totalCount: Number(count?.n ?? 0), datas: rows.map((r) => answerRow(loaded, r)) }
}

export async function queryAll(services: Services, ctx: RequestContext, db: Db, loaded: LoadedList, body: ListBody, limit = MAX_EXPORT_ROWS) {
  const base = await baseQuery(services, ctx, db, loaded, body.conditions)
  const rows = await ordered(services.databases.kind, selectColumns(base, loaded), loaded, body.sort).limit(limit).execute()
  return rows.map((r) => answerRow(loaded, r))
}

/**
 * Tree lists are shown expanded: every row (data permission still applies), each marked
 * `"id@show": true` when it matches the conditions, so the browser can highlight matches in context.
 */
export async function queryTree(services: Services, ctx: RequestContext, db: Db, loaded: LoadedList, body: ListBody) {
  const idKey = String(loaded.list.idColumn ?? '')
  const idColumn = loaded.obj.byKey.get(idKey)
  if (!idColumn) throw invalid('请选择ID字段')
  const all = await queryAll(services, ctx, db, loaded, { ...body, conditions: [] })
  const matched = body.conditions.length
    ? new Set(
        (await (await baseQuery(services, ctx, db, loaded, body.conditions)).select(columnExpr(idColumn).as('k')).limit(MAX_EXPORT_ROWS).execute()).map((r) =>
          String(r.k),
        ),
      )
    : undefined
  return all.map((row) => ({ ...row, 'id@show': matched ? matched.has(String(row[idKey])) : true }))
}
