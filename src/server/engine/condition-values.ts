import dayjs from 'dayjs'
import type { QueryParam } from '../../shared/generated/entity.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { isBlank } from '../../shared/metadata/validate-record.js'
import { checkDecimal, checkInteger } from '../../shared/metadata/decimal-grammar.js'
import { invalid } from '../platform/errors.js'

/**
 * What a list condition's value must read as. `text` reads anything (a search word); every other kind
 * has a grammar, and a value outside it is refused rather than dropped: a clerk who mistypes a date
 * must not be shown every document as if it matched.
 */
export type ConditionKind = 'text' | 'enum' | 'date' | 'datetime' | 'integer' | 'decimal' | 'boolean' | 'id'

/** One wire name a list reads, with the kind its value must have. */
export interface ConditionField {
  /** Wire name (`createTimeStart`, `scId`…). */
  name: string
  /** Shown in the refusal: the label of the search form's item. */
  label: string
  kind: ConditionKind
  /** For `enum`: the enumeration in schemas/enums.json. */
  enum?: string
  /** A comma-separated list (or a repeated parameter) of values of the kind. */
  list?: boolean
  /** Literal values the route reads besides the kind's grammar (a picker's `available=all`). */
  also?: readonly string[]
}

/** The one refusal of an unreadable condition value, naming the search item. */
export const unreadableCondition = (label: string, name: string) => invalid(`查询条件“${label}”格式不正确`, name)

/** Ids are UUIDv7 hex (platform/ids.ts), the seed's digits and `system` for the seed's author. */
const ID = /^[0-9A-Za-z_-]{1,64}$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/
const BOOLEANS = [true, false, 'true', 'false', 1, 0, '1', '0']

/**
 * A date or date-time the databases accept, written as the search form writes it. dayjs lets
 * `2026-02-30` or `25:00:00` overflow into another day, so the text must read back unchanged.
 */
export function isCalendarText(text: string, withTime = true): boolean {
  if (DATE.test(text)) return dayjs(text).isValid() && dayjs(text).format('YYYY-MM-DD') === text
  if (!withTime || !DATETIME.test(text)) return false
  const format = text.length === 16 ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD HH:mm:ss'
  return dayjs(text).isValid() && dayjs(text).format(format) === text
}

/** True when one (non-blank) value reads as the kind. */
export function readsAs(kind: ConditionKind, value: unknown, enums: EnumCatalog, enumName?: string): boolean {
  if (typeof value === 'object' && value !== null) return false
  const text = String(value).trim()
  switch (kind) {
    case 'text':
      return typeof value !== 'boolean'
    case 'enum':
      if (enumName && enums.codeKind(enumName) === 'boolean') return BOOLEANS.includes(typeof value === 'string' ? text : (value as never))
      return enums.parse(enumName ?? '', text) !== undefined
    case 'boolean':
      return BOOLEANS.includes(typeof value === 'string' ? text : (value as never))
    case 'date':
      return typeof value === 'string' && isCalendarText(text, false)
    case 'datetime':
      return typeof value === 'string' && isCalendarText(text)
    case 'integer':
      return typeof value !== 'boolean' && !checkInteger(text)
    case 'decimal':
      return typeof value !== 'boolean' && !checkDecimal(text, { precision: 36, scale: 12 })
    case 'id':
      return (typeof value === 'string' || typeof value === 'number') && ID.test(text)
  }
}

const listItems = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : String(v).split(',').map((s) => s.trim()).filter((s) => s !== '')

/** An empty value (missing, null, "", an empty list) is no condition. */
export const isNoCondition = (v: unknown) => isBlank(v) || (Array.isArray(v) && v.length === 0)

/**
 * Refuses the first value of `values` that does not read as its declared kind (400 naming the search
 * item); empty values pass, they mean "no condition".
 */
export function checkConditions(fields: readonly ConditionField[], values: Record<string, unknown>, enums: EnumCatalog): void {
  for (const f of fields) {
    const raw = values[f.name]
    if (isNoCondition(raw)) continue
    if (f.also?.includes(String(raw))) continue
    const items = f.list ? listItems(raw) : Array.isArray(raw) ? [raw] : [raw]
    if (!items.every((v) => readsAs(f.kind, v, enums, f.enum))) throw unreadableCondition(f.label, f.name)
  }
}

/** The kind a field's condition value must have. */
export function conditionKind(field: FieldModel, enums: EnumCatalog): ConditionKind {
  if (field.name === 'id' || field.type === 'ref') return 'id'
  switch (field.type) {
    case 'enum':
      return enums.codeKind(field.enum ?? '') === 'boolean' ? 'boolean' : 'enum'
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'integer':
    case 'decimal':
      return field.type
    default:
      return 'text'
  }
}

/** The wire names a query param reads: `between` reads `{param}Start` and `{param}End`. */
export function paramNames(param: QueryParam): string[] {
  const name = param.param ?? param.field
  return param.op === 'between' ? [`${name}Start`, `${name}End`] : [name]
}

/** The condition fields of declared query params over an entity (what the store's list reads). */
export function entityConditions(entity: EntityModel, params: readonly QueryParam[], enums: EnumCatalog): ConditionField[] {
  return params.flatMap((param) => {
    const field = entity.byName.get(param.field)
    if (!field || param.forced !== undefined) return []
    const kind = conditionKind(field, enums)
    const list = param.op === 'in' || param.op === 'notIn' || (field.type === 'ref' && Boolean(field.multiple) && param.op !== 'treeContains')
    const like = param.op === 'contains' || param.op === 'startsWith' || param.op === 'endsWith'
    return paramNames(param).map((name) => ({
      name,
      label: param.label ?? field.label,
      kind: like ? 'text' : kind,
      ...(field.type === 'enum' && field.enum ? { enum: field.enum } : {}),
      ...(list ? { list: true } : {}),
    }))
  })
}
