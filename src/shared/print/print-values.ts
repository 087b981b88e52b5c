import { refLabelProperty, type FieldModel } from '../metadata/entity-model.js'
import type { EnumCatalog } from '../metadata/enum-catalog.js'
import { decimalText } from '../metadata/decimal-text.js'

/**
 * A field's printed text, formatted as the field declares: enum labels, a ref's name, 是/否, dates as
 * YYYY-MM-DD and date-times to the second, decimals at their declared scale (exactly, decimal.js).
 */
export function printValue(field: FieldModel | undefined, row: Record<string, unknown>, name: string, enums: EnumCatalog, t: (s: string) => string): string {
  const value = row[name]
  if (!field) return value === null || value === undefined ? '' : String(value)
  if (field.type === 'ref') {
    const label = row[refLabelProperty(name)]
    if (label !== undefined && label !== null && label !== '') return String(label)
    return Array.isArray(value) ? value.join('，') : value === null || value === undefined ? '' : String(value)
  }
  if (value === null || value === undefined || value === '') return ''
  if (field.enum) return enums.label(field.enum, value) ?? String(value)
  if (field.type === 'boolean') return value === true || value === 'true' || value === 1 ? t('是') : t('否')
  if (field.type === 'date') return String(value).slice(0, 10)
  if (field.type === 'datetime') return String(value).replace('T', ' ').slice(0, 19)
  if (field.type === 'decimal') return decimalText(field, value)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
