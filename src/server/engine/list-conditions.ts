import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { QueryParam } from '../../shared/generated/entity.js'
import { isBlank } from '../../shared/metadata/validate-record.js'
import { checkDecimal } from '../../shared/metadata/decimal-grammar.js'
import { invalid } from '../platform/errors.js'
import type { RecordCodec } from './record-codec.js'
import { searchNarrowing } from '../db/search-index.js'
import { checkConditions, entityConditions, paramNames, unreadableCondition } from './condition-values.js'

export { isCalendarText, paramNames } from './condition-values.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<any, any>

/** Escapes LIKE wildcards so user text is matched literally. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** Control characters (NUL, tab, line breaks, escape…): no search text carries them, and a NUL cut a LIKE pattern short. */
const CONTROL = /[\u0000-\u001f\u007f]/

const hasControl = (v: unknown): boolean =>
  typeof v === 'string' ? CONTROL.test(v) : Array.isArray(v) ? v.some(hasControl) : false

const asList = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : String(v).split(',').map((s) => s.trim()).filter((s) => s !== '')

/**
 * A decimal condition is bound only when its column can hold it (PostgreSQL refuses `numeric(16,2) = 1e40`
 * at run time); the grammar itself was checked with every other kind (condition-values.ts).
 */
function numberFilter(field: FieldModel, label: string, value: unknown, text: unknown): unknown {
  if (field.type === 'decimal' && checkDecimal(text, { precision: (field.precision ?? 24) - (field.scale ?? 2) + 12, scale: 12 })) throw unreadableCondition(label, field.name)
  return value
}

export interface ConditionInput {
  entity: EntityModel
  kind: DbKind
  codec: RecordCodec
  /** Table alias of the entity in the query. */
  alias: string
  params: readonly QueryParam[]
  values: Record<string, unknown>
  /** Descendant ids for tree filters (category and its children), by entity name. */
  descendants: (entityName: string, id: string) => Promise<string[]>
}

/**
 * Turns the declared query params and the request values into WHERE predicates. Only columns the
 * entity declares reach SQL, always as identifiers from the schema; values are bound parameters.
 * A param without a value adds nothing (the spec: conditions without a value are not sent).
 */
/** A forced value is compared with its param's op (a menu picker without buttons: display ne 2). */
const FORCED_COMPARISON: Partial<Record<string, '=' | '<>' | '>' | '>=' | '<' | '<='>> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }

/**
 * Contains conditions a search index narrows: their rows come from the index, scattered over the table, so
 * counting them and cutting the page each visit every one of them; the list does both in one pass.
 */
export const searchedByIndex = new WeakSet<(eb: Eb) => Expression<SqlBool>>()

export async function buildConditions(input: ConditionInput): Promise<((eb: Eb) => Expression<SqlBool>)[]> {
  const { entity, alias, values, codec, kind } = input
  const out: ((eb: Eb) => Expression<SqlBool>)[] = []
  for (const param of input.params) {
    const field = entity.byName.get(param.field) as FieldModel
    const col = `${alias}.${field.column}`
    const names = paramNames(param)
    const op = param.op ?? 'eq'
    const label = param.label ?? field.label
    if (names.some((n) => hasControl(values[n]))) throw invalid(`${field.label}不能包含控制字符`, field.name)
    // Every value is read before any SQL is built: one that cannot be read is refused, never dropped.
    checkConditions(entityConditions(entity, [param], codec.enums), values, codec.enums)
    if (param.forced === null) {
      out.push((eb) => eb(col, 'is', null))
      continue
    }
    if (param.forced !== undefined) {
      const v = codec.toFilter(field, param.forced)
      const compare = FORCED_COMPARISON[op] ?? '='
      out.push((eb) => eb(col, compare, v))
      continue
    }
    if (op === 'between') {
      const [start, end] = names.map((n) => values[n])
      const bound = (v: unknown, endOfDay: boolean) => {
        const text = String(v).trim()
        if (field.type === 'datetime' || field.type === 'date') {
          if (field.type === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text} ${endOfDay ? '23:59:59' : '00:00:00'}`
          return text
        }
        return numberFilter(field, label, codec.toFilter(field, text), text)
      }
      // Bounds are read here, not when SQL is built, so a malformed one is refused before any query runs.
      if (!isBlank(start)) {
        const low = bound(start, false)
        out.push((eb) => eb(col, '>=', low))
      }
      if (!isBlank(end)) {
        const high = bound(end, true)
        out.push((eb) => eb(col, '<=', high))
      }
      continue
    }
    const raw = values[names[0]]
    if (isBlank(raw) || (Array.isArray(raw) && raw.length === 0)) continue
    if (typeof raw === 'object' && !Array.isArray(raw)) throw unreadableCondition(label, field.name)
    const like = (pattern: string) => (eb: Eb) =>
      kind === 'postgres'
        ? sql<SqlBool>`${eb.ref(col)} ilike ${pattern} escape '\\'`
        : sql<SqlBool>`${eb.ref(col)} like ${pattern} escape '\\'`
    const plain = String(raw).trim()
    const text = likeEscape(plain)
    switch (op) {
      case 'contains':
      case 'startsWith': {
        // The LIKE decides which rows match; the search index, where the schema gives one, only narrows
        // the rows it is tried on (db/search-index.ts), so both answer exactly the same rows.
        const match = like(op === 'contains' ? `%${text}%` : `${text}%`)
        const narrowing = searchNarrowing(kind, entity, field, alias, op, plain, text)
        if (!narrowing) out.push(match)
        else {
          const narrowed = (eb: Eb) => eb.and([narrowing, match(eb)])
          if (op === 'contains') searchedByIndex.add(narrowed)
          out.push(narrowed)
        }
        break
      }
      case 'endsWith':
        out.push(like(`%${text}`))
        break
      case 'in':
      case 'notIn': {
        const items = asList(raw)
                const list = items.map((v) => codec.toFilter(field, v))
        if (list.length) out.push((eb) => eb(col, op === 'in' ? 'in' : 'not in', list))
        break
      }
      case 'treeContains': {
        const ids = await input.descendants(field.type === 'ref' && field.ref ? field.ref : entity.name, String(raw))
        out.push((eb) => eb(col, 'in', ids.length ? ids : [String(raw)]))
        break
      }
      default: {
        const sqlOp = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[op] as '=' | '<>' | '>' | '>=' | '<' | '<='
        // A repeated query parameter (`?x=1&x=2`) arrives as an array: one value is compared, not a list.
        // JSON bodies (exports) may carry `true` for any condition; only boolean columns compare with it.
        const misTyped = typeof raw === 'boolean' && field.type !== 'boolean' && field.type !== 'enum'
        if (misTyped || Array.isArray(raw)) throw unreadableCondition(label, field.name)
        const text = typeof raw === 'string' ? raw.trim() : raw
        const v = numberFilter(field, label, codec.toFilter(field, text), text)
        out.push((eb) => eb(col, sqlOp, v))
      }
    }
  }
  return out
}

/** Ids of a tree node and everything below it, walked level by level through the parent column. */
export async function treeDescendants(db: Db, entity: EntityModel, id: string): Promise<string[]> {
  const parent = entity.byName.get(entity.parentField ?? '')?.column
  const all = [id]
  let frontier = [id]
  for (let depth = 0; parent && frontier.length && depth < 32; depth++) {
    const rows = await db.selectFrom(entity.table).select('id').where(parent, 'in', frontier).execute()
    frontier = rows.map((r) => String(r.id)).filter((x) => !all.includes(x))
    all.push(...frontier)
  }
  return all
}
