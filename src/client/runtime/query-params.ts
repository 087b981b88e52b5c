import dayjs, { type Dayjs } from 'dayjs'
import type { QueryParam } from '../../shared/generated/entity.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { pickerKindOf, type EntityLookup } from './picker-kind.js'
import { tr } from '../i18n/use-tr.js'

/** A list screen sends nothing for 全部; a picker must send `available=all`, or the server keeps its enabled-only default. */
export type SearchContext = 'list' | 'picker'

/** `check`: one box the user ticks to narrow the list (a declared view's `check` param), sent as true or not at all. */
export type SearchControl = 'text' | 'select' | 'dateRange' | 'date' | 'picker' | 'check'

export interface SearchOption {
  label: string
  value: string | number
}

/** One input of a search form, derived from a declared query param. */
export interface SearchItem {
  /** Form key: the wire name (for a range, the base of `{name}Start`/`{name}End`). */
  key: string
  label: string
  param: QueryParam
  field: FieldModel
  control: SearchControl
  options?: SearchOption[]
  pickerKind?: string
  /** Choose several (the param compares with IN / NOT IN). */
  multiple?: boolean
  /** Value after reset (declared default, default range, or 全部/启用 for status). */
  initial?: unknown
  /** A date range's wire names when not `{key}Start`/`{key}End` (a declared view's call names them). */
  rangeNames?: readonly [string, string]
  /** A date range chosen by whole weeks or months. */
  picker?: 'week' | 'month'
}

/** The 全部 option of status-like selects. */
export const ALL = 'all'

import { DATE_FORMAT, DATETIME_FORMAT } from '../components/date-formats.js'
export { DATE_FORMAT, DATETIME_FORMAT }

/** The spec's default range: one month ago 00:00:00 through today 23:59:59. */
export function lastMonthRange(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [now.subtract(1, 'month').startOf('day'), now.endOf('day')]
}

const wireName = (param: QueryParam) => param.param ?? param.field

function booleanOptions(field: FieldModel, enums: EnumCatalog): SearchOption[] {
  const items = field.enum ? enums.items(field.enum) : []
  const labelOf = (code: boolean) => {
    const item = items.find((i) => i.code === code)
    return item ? enums.text(item) : tr(code ? '是' : '否')
  }
  return [
    { label: tr('全部'), value: ALL },
    { label: labelOf(true), value: 'true' },
    { label: labelOf(false), value: 'false' },
  ]
}

/** Select options of an enumeration: its Chinese labels over its codes (booleans as text, which Select accepts). */
export function enumOptions(name: string, enums: EnumCatalog): SearchOption[] {
  return enums.items(name).map((i) => ({
    label: enums.text(i),
    value: typeof i.code === 'boolean' ? String(i.code) : i.code,
  }))
}

function initialOf(param: QueryParam, field: FieldModel, context: SearchContext): unknown {
  if (param.op === 'between') return param.defaultRange === 'lastMonth' ? lastMonthRange() : undefined
  if (field.type === 'boolean') {
    if (param.default !== undefined && param.default !== null) return String(param.default)
    return context === 'picker' && field.name === 'available' ? 'true' : ALL
  }
  return param.default ?? undefined
}

/**
 * The inputs of a search form from `views.list.query` or `views.picker.filters`. Forced params are
 * applied by the server whatever the client sends, so they get no input.
 */
export function searchItems(
  entity: Pick<EntityModel, 'byName'>,
  params: readonly QueryParam[],
  enums: EnumCatalog,
  lookup: EntityLookup,
  context: SearchContext,
): SearchItem[] {
  const items: SearchItem[] = []
  for (const param of params) {
    if (param.forced !== undefined) continue
    const field = entity.byName.get(param.field)
    // Internal ids stay filterable by the API (fixed queries) but no search form asks a user for one.
    if (!field || field.hidden || field.internal) continue
    // A param's own label may be declared in code (a shared contract like STOCK_LOT_PARAMS), where no
    // entity file's localization reaches it: it is translated here, where it is shown.
    const base = { key: wireName(param), label: param.label ? tr(param.label) : field.label, param, field }
    const isDate = field.type === 'date' || field.type === 'datetime'
    let item: SearchItem
    if (param.op === 'between' && isDate) item = { ...base, control: 'dateRange' }
    else if (field.type === 'ref' && pickerKindOf(field, lookup))
      item = { ...base, control: 'picker', pickerKind: pickerKindOf(field, lookup), multiple: param.op === 'in' || param.op === 'notIn' }
    else if (field.type === 'boolean') item = { ...base, control: 'select', options: booleanOptions(field, enums) }
    else if (field.enum) item = { ...base, control: 'select', options: enumOptions(field.enum, enums) }
    else if (isDate) item = { ...base, control: 'date' }
    else item = { ...base, control: 'text' }
    item.initial = initialOf(param, field, context)
    items.push(item)
  }
  return items
}

/** Form values after a reset: every item's initial value. */
export function initialSearchValues(items: readonly SearchItem[]): Record<string, unknown> {
  return Object.fromEntries(items.map((i) => [i.key, i.initial]))
}

const isDayjs = (v: unknown): v is Dayjs => dayjs.isDayjs(v)

/**
 * Search form values to wire query params. Date ranges become `{name}Start`/`{name}End`, whole days
 * for date-time columns (00:00:00 to 23:59:59); blanks are left for `cleanQuery` to drop.
 */
export function toWireQuery(items: readonly SearchItem[], values: Record<string, unknown>, context: SearchContext): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const item of items) {
    const value = values[item.key]
    switch (item.control) {
      case 'dateRange': {
        if (!Array.isArray(value)) break
        const [start, end] = value as [Dayjs | null, Dayjs | null]
        const dateTime = item.field.type === 'datetime'
        const [startName, endName] = item.rangeNames ?? [`${item.key}Start`, `${item.key}End`]
        if (isDayjs(start)) out[startName] = dateTime ? start.format('YYYY-MM-DD 00:00:00') : start.format(DATE_FORMAT)
        if (isDayjs(end)) out[endName] = dateTime ? end.format('YYYY-MM-DD 23:59:59') : end.format(DATE_FORMAT)
        break
      }
      case 'date':
        if (isDayjs(value)) out[item.key] = value.format(item.field.type === 'datetime' ? DATETIME_FORMAT : DATE_FORMAT)
        break
      case 'select':
        if (value === ALL) {
          if (context === 'picker' && item.field.name === 'available') out[item.key] = ALL
        } else out[item.key] = value
        break
      case 'text':
        out[item.key] = typeof value === 'string' ? value.trim() : value
        break
      case 'check':
        if (value === true) out[item.key] = 'true'
        break
      default:
        out[item.key] = value
    }
  }
  return out
}
