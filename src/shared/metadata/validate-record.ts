import Decimal from 'decimal.js'
import type { EntityModel, FieldModel } from './entity-model.js'
import type { EnumCatalog } from './enum-catalog.js'
import { isPatternName, patterns } from './patterns.js'
import { checkDecimal, checkInteger, isNoNumber } from './decimal-grammar.js'

export interface FieldError {
  field: string
  message: string
}

export type WriteMode = 'create' | 'modify'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

export const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

const fill = (message: string, field: FieldModel) => message.replaceAll('{label}', field.label)

/**
 * Checks one field's value and answers the first failing message, exactly as the form shows it.
 * The browser calls this per field; the server calls it for the whole record. Blank values only
 * fail `required`.
 */
export function checkField(field: FieldModel, raw: unknown, enums: EnumCatalog, mode: WriteMode): string | undefined {
  // Numbers are never trimmed (decimal-grammar.ts): blanks around one, or blanks alone, are malformed.
  const numeric = field.type === 'integer' || field.type === 'decimal'
  const value = typeof raw === 'string' && field.trim !== false && !numeric ? raw.trim() : raw
  if (numeric ? isNoNumber(value) : isBlank(value) || (Array.isArray(value) && value.length === 0)) {
    if (field.requiredMessage && (!field.requiredOnCreate || mode === 'create')) return field.requiredMessage
    if (field.requiredOnCreate && mode === 'create') return `请输入${field.label}`
    return undefined
  }
  switch (field.type) {
    case 'integer': {
      const problem = checkInteger(value)
      if (problem === 'format') return field.integerMessage ?? `${field.label}必须为整数`
      const bound = boundProblem(field, value)
      if (bound) return bound
      if (problem) return `${field.label}超出允许范围`
      break
    }
    case 'decimal': {
      const problem = checkDecimal(value, field)
      if (problem === 'format') return `${field.label}必须为数字`
      // The sign and bounds say more than the places: -100 is "must be greater than 0", not "at most 2 places".
      const bound = boundProblem(field, value)
      if (bound) return bound
      if (problem === 'scale') return `${field.label}最多允许${field.scale ?? 2}位小数！`
      if (problem) return `${field.label}超出允许范围`
      break
    }
    case 'boolean':
      if (![true, false, 'true', 'false', 1, 0, '1', '0'].includes(value as never)) return `${field.label}取值不正确`
      break
    case 'enum':
      if (field.enum && enums.parse(field.enum, value) === undefined) return `${field.label}取值不正确`
      break
    case 'date':
      if (!DATE.test(String(value))) return `${field.label}格式不正确`
      break
    case 'datetime':
      if (!DATETIME.test(String(value))) return `${field.label}格式不正确`
      break
    case 'ref':
      if (field.multiple ? !Array.isArray(value) || value.some((v) => typeof v !== 'string') : typeof value !== 'string')
        return `${field.label}取值不正确`
      break
    case 'json':
      break
    default:
      if (typeof value !== 'string' && typeof value !== 'number') return `${field.label}取值不正确`
  }
  const text = String(value)
  // A named pattern runs before the length rules: patterns such as `code` carry their own length
  // ("…长度不能超过20位"), and the spec answers that message for a code that is only too long.
  if (field.pattern && isPatternName(field.pattern)) {
    const p = patterns[field.pattern]
    if (!p.regex.test(text)) return fill(field.patternMessage ?? p.message, field)
  }
  // Lengths count characters, not UTF-16 units; a text no longer than the limit in units is within it.
  if (field.maxLength !== undefined && text.length > field.maxLength && codePoints(text) > field.maxLength && field.type !== 'json')
    return field.maxLengthMessage ?? `${field.label}长度不能超过${field.maxLength}个字符`
  if (field.minLength !== undefined && codePoints(text) < field.minLength) return `${field.label}长度不能少于${field.minLength}个字符`
  return undefined
}

/**
 * The bound rules of a number that has passed its grammar (minExclusive, min, max), checked before its
 * places and its field's pattern, whose messages (often "at most 2 places") would misname a sign.
 */
function boundProblem(field: FieldModel, value: unknown): string | undefined {
  if (field.min === undefined && field.max === undefined && field.minExclusive === undefined) return undefined
  const n = new Decimal(String(value))
  if (field.minExclusive !== undefined && n.lte(field.minExclusive)) return field.minMessage ?? `${field.label}必须大于${field.minExclusive}`
  if (field.min !== undefined && n.lt(field.min)) return field.minMessage ?? `${field.label}不能小于${field.min}`
  if (field.max !== undefined && n.gt(field.max)) return field.maxMessage ?? `${field.label}不能大于${field.max}`
  return undefined
}

const writable = new WeakMap<EntityModel, FieldModel[]>()

/** Fields a client may write in this mode (not read-only, not built-in); computed once per entity model. */
export function writableFields(entity: EntityModel): FieldModel[] {
  let fields = writable.get(entity)
  if (!fields) writable.set(entity, (fields = entity.fields.filter((f) => !f.readOnly && !f.builtin)))
  return fields
}

/** Characters (code points) of a text, counted without making an array of them. */
function codePoints(text: string): number {
  let n = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/** All failing fields of a record, in declaration order; the first one is what the user sees. */
export function validateRecord(
  entity: EntityModel,
  values: Record<string, unknown>,
  enums: EnumCatalog,
  mode: WriteMode,
): FieldError[] {
  const errors: FieldError[] = []
  for (const field of writableFields(entity)) {
    const message = checkField(field, values[field.name], enums, mode)
    if (message) errors.push({ field: field.name, message })
  }
  return errors
}
