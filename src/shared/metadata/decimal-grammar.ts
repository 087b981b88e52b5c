/**
 * The one grammar of numbers a client may write, shared by the browser form and the server write
 * (validate-record.ts calls it for every `decimal` and `integer` field, of entities, document headers
 * and document lines alike).
 *
 * Blanks around a number are REFUSED, never trimmed: `" 2 "`, `"2 "`, `"\t2"`, `"2\u00a0"` and a text
 * of blanks only are malformed, answered with the field's message like any other malformed number
 * (`收货数量必须为整数`), so the value that is checked is exactly the value that is computed with and
 * stored. Only `""`, null and absence mean "no number" (isNoNumber). A spreadsheet cell is not a wire
 * value: the import reader trims every cell's text as a spreadsheet shows it (import-cells.ts) before
 * the cell reaches this grammar.
 *
 * A decimal is: an optional sign, one or more digits, optionally a point and one or more digits, and
 * nothing else — no blanks, no exponent (`1e2`), no hexadecimal (`0x10`), no `Infinity`, no leading
 * or trailing point; at most `scale` significant places. A JSON number is read through its shortest text (`String(n)`), so `1.5` passes
 * and `1e21` or `0.1 + 0.2` does not. An integer is the same without the fraction and must be a safe
 * JavaScript integer (what a quantity is computed with; the columns are 64-bit).
 */
export const DECIMAL_GRAMMAR = /^[+-]?\d+(?:\.(\d+))?$/
export const INTEGER_GRAMMAR = /^[+-]?\d+$/

/** True for what a number field reads as "no number": absent, null or the empty text (not blanks). */
export const isNoNumber = (value: unknown): boolean => value === undefined || value === null || value === ''

/** Why a value is not a number of a field: not the grammar, too many places, too many integer digits. */
export type NumberProblem = 'format' | 'scale' | 'range'

export interface DecimalShape {
  /** Total significant digits the column holds (NUMERIC(precision, scale)); default 24. */
  precision?: number
  /** Places after the point; default 2. */
  scale?: number
}

/** The text of a wire number value, or undefined when the value is neither a string nor a finite number. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/** The text of a wire value that is a decimal of the grammar (any scale), or undefined: for hand-read amounts. */
export function wireDecimalText(value: unknown): string | undefined {
  const text = textOf(value)
  return text !== undefined && DECIMAL_GRAMMAR.test(text) ? text : undefined
}

/** Digits before the point, without sign and leading zeros ("-007.50" → 1). A loop: every imported number passes here. */
function integerDigits(text: string): number {
  let at = text.charCodeAt(0) === 43 /* + */ || text.charCodeAt(0) === 45 /* - */ ? 1 : 0
  while (text.charCodeAt(at) === 48 /* 0 */) at++
  const point = text.indexOf('.', at)
  return (point < 0 ? text.length : point) - at
}

/** Places of a fraction without its trailing zeros ("500" → 1: "1.500" is 1.5). */
function significantPlaces(fraction: string): number {
  let end = fraction.length
  while (end > 0 && fraction.charCodeAt(end - 1) === 48 /* 0 */) end--
  return end
}

/** Checks a decimal value against the grammar and the column's scale and precision. */
export function checkDecimal(value: unknown, shape: DecimalShape = {}): NumberProblem | undefined {
  const text = textOf(value)
  const match = text === undefined ? null : DECIMAL_GRAMMAR.exec(text)
  if (!text || !match) return 'format'
  const scale = shape.scale ?? 2
  // Trailing zeros carry no value ("1.500" is 1.5): only significant places count against the scale.
  if (significantPlaces(match[1] ?? '') > scale) return 'scale'
  if (integerDigits(text) > (shape.precision ?? 24) - scale) return 'range'
  return undefined
}

/** Checks an integer value against the grammar and the safe-integer range. */
export function checkInteger(value: unknown): NumberProblem | undefined {
  const text = textOf(value)
  if (!text || !INTEGER_GRAMMAR.test(text)) return 'format'
  return Number.isSafeInteger(Number(text)) ? undefined : 'range'
}

/** True when `text` has no more integer digits than a NUMERIC(precision, scale) column holds. */
export function fitsDecimalColumn(text: string, shape: DecimalShape = {}): boolean {
  return integerDigits(text) <= (shape.precision ?? 24) - (shape.scale ?? 2)
}
