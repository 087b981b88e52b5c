import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import type { EnumCatalog, EnumCode } from '../../../shared/metadata/enum-catalog.js'
import { parseRegion } from '../../../shared/region/regions.js'
import { locales } from '../../../shared/i18n/locales.js'
import { booleanLabels, NO, YES } from '../export-cells.js'

/**
 * Cell text in both directions for the Excel import and export: what a spreadsheet cell holds
 * (numbers, dates, rich text, formulas) to trimmed text, and text to the wire value of a field
 * (enum labels, 是/否, 省/市/区). Pure functions: the database part (refs by code) is in import-runner.ts.
 */

/** Words accepted for a boolean cell; the first pair is what the template and the export write. */
const TRUE_WORDS = [YES, '启用', 'true', '1', 'y', 'yes', '√']
const FALSE_WORDS = [NO, '停用', 'false', '0', 'n', 'no', '×']

const pad = (n: number) => String(n).padStart(2, '0')

/** A number as Excel shows it, without binary noise (0.1 + 0.2 -> 0.3). */
function numberText(n: number): string {
  return String(Number(n.toPrecision(15)))
}

/**
 * ExcelJS hands dates as JavaScript dates whose UTC fields are the cell's wall-clock time; a whole
 * day is a date, anything else a date and time.
 */
function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return ''
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  const h = d.getUTCHours()
  const m = d.getUTCMinutes()
  const s = d.getUTCSeconds()
  return h || m || s ? `${day} ${pad(h)}:${pad(m)}:${pad(s)}` : day
}

/**
 * The trimmed text of a cell value as ExcelJS reads it: plain values, rich text, hyperlinks and
 * formula results; a number in a percent format reads as Excel shows it ("17%").
 */
export function cellText(value: unknown, numFmt?: string): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return ''
    return numFmt && numFmt.includes('%') ? `${numberText(value * 100)}%` : numberText(value)
  }
  if (typeof value === 'boolean') return value ? '是' : '否'
  if (value instanceof Date) return dateText(value)
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('').trim()
    if ('result' in v || 'formula' in v || 'sharedFormula' in v) return cellText(v.result, numFmt)
    if ('text' in v) return cellText(v.text, numFmt)
    if ('error' in v) return ''
  }
  return String(value).trim()
}

/** `2024/3/5`, `2024.3.5`, `2024年3月5日` and alike to `2024-03-05`; undefined when it is no (real) date. */
export function normaliseDate(text: string): string | undefined {
  const m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(text.trim())
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined
  return `${m[1]}-${pad(mo)}-${pad(d)}`
}

/** A date and time as `YYYY-MM-DD HH:mm:ss` (seconds optional in the cell); undefined when it is none. */
export function normaliseDateTime(text: string): string | undefined {
  const m = /^(.+?)[\sT]+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?$/.exec(text.trim())
  if (!m) {
    const day = normaliseDate(text)
    return day ? `${day} 00:00:00` : undefined
  }
  const day = normaliseDate(m[1])
  const [h, mi, sec] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)]
  if (!day || h > 23 || mi > 59 || sec > 59) return undefined
  return `${day} ${pad(h)}:${pad(mi)}:${pad(sec)}`
}

/** 是/否, 启用/停用 (or the field's own enumeration labels), true/false, 1/0; undefined otherwise. */
export function parseBoolean(text: string, field: FieldModel, enums: EnumCatalog): boolean | undefined {
  const t = text.trim().toLowerCase()
  const [yes, no] = booleanLabels(field, enums)
  if (t === yes.toLowerCase() || TRUE_WORDS.includes(t)) return true
  if (t === no.toLowerCase() || FALSE_WORDS.includes(t)) return false
  return undefined
}

/** An enumeration cell by its label (any locale), its code or its key. */
export function parseEnum(text: string, name: string, enums: EnumCatalog): EnumCode | undefined {
  const t = text.trim()
  const items = enums.items(name)
  const hit =
    items.find((i) => i['zh-CN'] === t) ??
    items.find((i) => locales().some((l) => typeof i[l.code] === 'string' && (i[l.code] as string).toLowerCase() === t.toLowerCase())) ??
    items.find((i) => String(i.code) === t) ??
    items.find((i) => i.key?.toLowerCase() === t.toLowerCase())
  return hit?.code
}


export { parseRegion }
