import Decimal from 'decimal.js'
import type { DbKind } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { isBlank } from '../../shared/metadata/validate-record.js'

export type Row = Record<string, unknown>
export type Wire = Record<string, unknown>

const TRUE = [true, 'true', 1, '1']

/**
 * Converts between wire records (camelCase, booleans, decimal strings) and rows (snake_case columns,
 * SQLite integers for booleans, exact decimal text). The mapping comes from the entity alone.
 */
/** A plain decimal text: no sign, no leading zero, at most 15 integer digits (a million imported prices pass here). */
const PLAIN_DECIMAL = /^(0|[1-9]\d{0,14})(?:\.(\d+))?$/

/**
 * A decimal (a validated wire value, or a column's text read back) as text with `scale` places: what
 * `new Decimal(v).toFixed(scale)` gives, without a Decimal for the common text that needs no rounding.
 */
export function decimalColumn(value: unknown, scale: number): string {
  const m = typeof value === 'string' ? PLAIN_DECIMAL.exec(value) : null
  if (!m || (m[2] ?? '').length > scale) return new Decimal(String(value)).toFixed(scale)
  return scale ? `${m[1]}.${(m[2] ?? '').padEnd(scale, '0')}` : m[1]
}

export class RecordCodec {
  constructor(
    private readonly kind: DbKind,
    readonly enums: EnumCatalog,
  ) {}

  private isBooleanColumn(field: FieldModel): boolean {
    return field.type === 'boolean' || (field.type === 'enum' && this.enums.codeKind(field.enum ?? '') === 'boolean')
  }

  /** A validated wire value to its column value. */
  toColumn(field: FieldModel, value: unknown): unknown {
    if (isBlank(value)) return null
    if (this.isBooleanColumn(field)) {
      const b = TRUE.includes(value as never)
      return this.kind === 'sqlite' ? (b ? 1 : 0) : b
    }
    switch (field.type) {
      case 'integer':
        return Number(value)
      case 'decimal':
        return decimalColumn(value, field.scale ?? 2)
      case 'enum':
        return this.enums.parse(field.enum ?? '', value)
      case 'json':
        return typeof value === 'string' ? value : JSON.stringify(value)
      case 'string':
      case 'text':
      case 'password':
        return field.trim === false ? String(value) : String(value).trim()
      default:
        return typeof value === 'string' ? value.trim() : value
    }
  }

  fromColumn(field: FieldModel, value: unknown): unknown {
    if (value === null || value === undefined) return null
    if (this.isBooleanColumn(field)) return TRUE.includes(value as never)
    switch (field.type) {
      case 'integer':
      case 'enum':
        return typeof value === 'string' && /^-?\d+$/.test(value) && this.enums.codeKind(field.enum ?? '') !== 'string'
          ? Number(value)
          : value
      case 'decimal':
        // A page of products holds a hundred prices: the column's text is taken as it is where it can be.
        return decimalColumn(value, field.scale ?? 2)
      case 'json':
        try {
          return typeof value === 'string' ? JSON.parse(value) : value
        } catch {
          return value
        }
      default:
        return value
    }
  }

  /** Row columns for the wire fields present in `values` (absent fields are left alone on update). */
  toRow(values: Wire, fields: FieldModel[]): Row {
    const row: Row = {}
    for (const f of fields) {
      if ((f.type === 'ref' && f.multiple) || f.virtual) continue
      if (Object.prototype.hasOwnProperty.call(values, f.name)) row[f.column] = this.toColumn(f, values[f.name])
    }
    return row
  }

  /** The fields a record answers (hidden ones never leave the server), per entity model: every row of every list reads them. */
  private readonly answered = new WeakMap<EntityModel, FieldModel[]>()

  fromRow(entity: EntityModel, row: Row): Wire {
    let fields = this.answered.get(entity)
    if (!fields) this.answered.set(entity, (fields = [...entity.byName.values()].filter((f) => !f.hidden)))
    const out: Wire = {}
    for (const f of fields) if (f.column in row) out[f.name] = this.fromColumn(f, row[f.column])
    return out
  }

  /** False for a value that is no code of the field's enumeration (PostgreSQL would refuse it in SQL). */
  isKnownCode(field: FieldModel, value: unknown): boolean {
    if (field.type !== 'enum' || this.isBooleanColumn(field)) return true
    return this.enums.parse(field.enum ?? '', value) !== undefined
  }

  /** Value for a WHERE comparison on a column (query strings arrive as text). */
  toFilter(field: FieldModel, value: unknown): unknown {
    if (this.isBooleanColumn(field)) return this.toColumn(field, value)
    if (field.type === 'integer') return Number(value)
    if (field.type === 'enum') return this.enums.parse(field.enum ?? '', value) ?? value
    return value
  }
}
