import type { DbKind } from '../db/dialect.js'

/**
 * Values as they travel in the archive: JSON null, strings (text, decimals, dates and times exactly as
 * stored), numbers (integers within 2^53 and binary floats; larger integers as strings), booleans, and
 * `{"$base64": …}` for blobs. On the way in they take the target column's type: 0/1 and true/false swap
 * between SQLite integers and PostgreSQL booleans, JSON kept as text, blobs back to bytes.
 */
export type ArchiveValue = null | string | number | boolean | { $base64: string }

export function toArchiveValue(value: unknown): ArchiveValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString()
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString()
  return JSON.stringify(value)
}

/** How the target database stores a column, as far as a value's form depends on it. */
export type ColumnClass = 'boolean' | 'json' | 'bytes' | 'other'

export function fromArchiveValue(value: ArchiveValue, column: ColumnClass, kind: DbKind): unknown {
  if (value === null) return null
  if (typeof value === 'object') return Buffer.from(value.$base64, 'base64')
  if (column === 'boolean') {
    const truth = value === true || value === 1 || value === '1' || value === 't' || value === 'true'
    return kind === 'postgres' ? truth : truth ? 1 : 0
  }
  if (typeof value === 'boolean') return kind === 'postgres' ? value : value ? 1 : 0
  if (column === 'bytes' && typeof value === 'string') return Buffer.from(value, 'utf8')
  return value
}

/** PostgreSQL's data_type (information_schema) → the class above; SQLite declares booleans as integer, so its target is 'other'. */
export function postgresColumnClass(dataType: string): ColumnClass {
  if (dataType === 'boolean') return 'boolean'
  if (dataType === 'json' || dataType === 'jsonb') return 'json'
  if (dataType === 'bytea') return 'bytes'
  return 'other'
}
