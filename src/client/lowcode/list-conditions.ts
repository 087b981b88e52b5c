import dayjs, { type Dayjs } from 'dayjs'
import { GEN_DATA_TYPE as DT, GEN_VIEW_TYPE as VT, QUERY_TYPE as QT } from '../../shared/generated/enum-codes.js'
import type { ListCondition, ListQueryParamConfig } from '../../shared/contracts/lowcode-wire.js'

/**
 * The search form of a custom list as plain data: its form keys, initial values, and the conditions
 * a search sends (001 §5: only conditions carrying a value; date ranges from 00:00:00 to 23:59:59 for
 * date-time columns; IN / NOT IN as `values`).
 */

import { DATE_FORMAT, DATETIME_FORMAT } from '../components/date-formats.js'
export { DATE_FORMAT, DATETIME_FORMAT }
export const TIME_FORMAT = 'HH:mm:ss'

/** Form key of a query param: its position (names may hold dots, which antd reads as paths). */
export const queryKey = (index: number) => `q${index}`

export const isMultiQuery = (p: Pick<ListQueryParamConfig, 'queryType'>) => p.queryType === QT.IN || p.queryType === QT.NOT_IN

/** Whether a param shows as a boolean choice (available tag or Boolean column). */
export const isBooleanQuery = (p: Pick<ListQueryParamConfig, 'dataType' | 'hasAvailableTag'>) => Boolean(p.hasAvailableTag) || p.dataType === DT.BOOLEAN

/** 全部 of boolean selects: sends nothing. */
export const ALL = 'all'

type DateLike = Dayjs | Date | string | number

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0)

/**
 * A date-range default (001 §4): `{"type":1,"unit":"day|week|month|year","value":N}` is the last N
 * units until today, `{"type":2,"start":"…","end":"…"}` (or the text `start,end`) a fixed range.
 */
export function defaultRange(text: string | null | undefined, now: Dayjs = dayjs()): [Dayjs, Dayjs] | undefined {
  if (!text?.trim()) return undefined
  let spec: unknown
  try {
    spec = JSON.parse(text)
  } catch {
    const [a, b] = text.split(',').map((s) => s.trim())
    return a && b && dayjs(a).isValid() && dayjs(b).isValid() ? [dayjs(a), dayjs(b)] : undefined
  }
  if (!spec || typeof spec !== 'object') return undefined
  const s = spec as { type?: number; unit?: string; value?: number; start?: string; end?: string }
  if (s.type === 1) {
    const unit = (['day', 'week', 'month', 'year'] as const).find((u) => u === s.unit) ?? 'day'
    const n = Number(s.value ?? 0)
    if (!Number.isFinite(n) || n < 0) return undefined
    return [now.subtract(n, unit).startOf('day'), now.endOf('day')]
  }
  if (s.type === 2 && s.start && s.end && dayjs(s.start).isValid() && dayjs(s.end).isValid()) return [dayjs(s.start), dayjs(s.end)]
  return undefined
}

/** The value an input starts with (and returns to on 重置). */
export function initialQueryValue(p: ListQueryParamConfig, now: Dayjs = dayjs()): unknown {
  const text = p.defaultValue ?? undefined
  if (p.viewType === VT.DATE_RANGE) return defaultRange(text, now)
  if (isBooleanQuery(p)) return text === 'true' || text === 'false' ? text : ALL
  if (isBlank(text)) return undefined
  if (isMultiQuery(p)) return text!.split(',').map((s) => s.trim()).filter(Boolean)
  if (p.viewType === VT.DATE || p.viewType === VT.DATETIME) return dayjs(text).isValid() ? dayjs(text) : undefined
  return text
}

export function initialQueryValues(params: readonly ListQueryParamConfig[], now: Dayjs = dayjs()): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  params.forEach((p, i) => {
    const v = initialQueryValue(p, now)
    if (v !== undefined) out[queryKey(i)] = v
  })
  return out
}

function dateText(v: DateLike, p: ListQueryParamConfig, edge: 'start' | 'end' | 'none'): string {
  const d = dayjs(v)
  if (p.dataType === DT.LOCAL_DATE_TIME) {
    if (edge === 'start') return d.startOf('day').format(DATETIME_FORMAT)
    if (edge === 'end') return d.endOf('day').format(DATETIME_FORMAT)
    return d.format(p.viewType === VT.DATE ? DATE_FORMAT : DATETIME_FORMAT)
  }
  if (p.dataType === DT.LOCAL_TIME || p.viewType === VT.TIME) return d.format(TIME_FORMAT)
  return d.format(DATE_FORMAT)
}

const isDateLike = (v: unknown): v is DateLike => dayjs.isDayjs(v) || v instanceof Date

/** A scalar as sent: booleans for Boolean columns, dates as text, strings trimmed. */
function scalar(v: unknown, p: ListQueryParamConfig): string | number | boolean | undefined {
  if (isBlank(v)) return undefined
  if (isDateLike(v)) return dateText(v, p, 'none')
  if (isBooleanQuery(p)) {
    if (v === ALL) return undefined
    if (v === true || v === 'true') return true
    if (v === false || v === 'false') return false
  }
  if (typeof v === 'string') return v.trim() || undefined
  if (typeof v === 'number' || typeof v === 'boolean') return v
  return undefined
}

/** The conditions of one search: empty inputs send nothing. */
export function buildConditions(params: readonly ListQueryParamConfig[], values: Record<string, unknown>): ListCondition[] {
  const out: ListCondition[] = []
  params.forEach((p, i) => {
    const raw = values[queryKey(i)]
    if (isBlank(raw)) return
    const base = { tableAlias: p.tableAlias, columnName: p.columnName }
    if (p.viewType === VT.DATE_RANGE) {
      const [start, end] = Array.isArray(raw) ? (raw as unknown[]) : []
      if (!isBlank(start)) out.push({ ...base, queryType: QT.GE, value: dateText(start as DateLike, p, 'start') })
      if (!isBlank(end)) out.push({ ...base, queryType: QT.LE, value: dateText(end as DateLike, p, 'end') })
      return
    }
    if (isMultiQuery(p)) {
      const list = Array.isArray(raw) ? raw : String(raw).split(',')
      const values = list.map((v) => scalar(v, p)).filter((v): v is string | number | boolean => v !== undefined)
      if (values.length) out.push({ ...base, queryType: p.queryType, values })
      return
    }
    const value = scalar(Array.isArray(raw) ? raw[0] : raw, p)
    if (value !== undefined) out.push({ ...base, queryType: p.queryType, value })
  })
  return out
}
