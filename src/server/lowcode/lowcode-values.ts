import { checkInteger } from '../../shared/metadata/decimal-grammar.js'
import { invalid } from '../platform/errors.js'

/** Small readers of admin-written child elements: each failure is a 400 with the element's place in it. */
export type Obj = Record<string, unknown>

export function elements(value: unknown, what: string): Obj[] {
  if (value === null || value === undefined || value === '') return []
  let list = value
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value)
    } catch {
      throw invalid(`${what}格式不正确`)
    }
  }
  if (!Array.isArray(list)) throw invalid(`${what}格式不正确`)
  if (list.length > 500) throw invalid(`${what}不能超过500个`)
  return list.map((e, i) => {
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw invalid(`第${i + 1}个${what}格式不正确`)
    return e as Obj
  })
}

export const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '')

export function bool(v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null || v === '') return fallback
  if (v === true || v === 'true' || v === 1 || v === '1') return true
  if (v === false || v === 'false' || v === 0 || v === '0') return false
  return fallback
}

export function int(v: unknown, fallback: number, where: string, min = 0, max = 100000): number {
  if (v === undefined || v === null || v === '') return fallback
  // The shared grammar (decimal-grammar.ts): blanks around the number are refused, never read as it (or as 0).
  if (checkInteger(v) === 'format') throw invalid(`${where}必须为整数`)
  const n = Number(v)
  if (n < min || n > max) throw invalid(`${where}必须在${min}到${max}之间`)
  return n
}

export function optionalText(v: unknown, max: number, where: string): string | null {
  if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number') throw invalid(`${where}格式不正确`)
  const s = text(v)
  if ([...s].length > max) throw invalid(`${where}长度不能超过${max}个字符`)
  return s || null
}

/** Aliases of tables in a data object: lower-case letters and digits, so `{alias}_{column}` stays unique. */
export const ALIAS = /^[a-z][a-z0-9]{0,19}$/
