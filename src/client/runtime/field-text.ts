import { refLabelProperty, type FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { regionPath } from '../../shared/region/regions.js'
import dayjs from 'dayjs'
import { tr } from '../i18n/use-tr.js'
import { decimalText } from '../../shared/metadata/decimal-text.js'

/**
 * The text a list shows for one field of a row: enum labels instead of codes, the label property
 * of refs (`categoryId` -> `categoryName`, already joined with "，" for multiple refs), 是/否 for
 * plain booleans, decimals at their declared scale, the province/city/district path for region codes, a
 * date-time for an instant kept as epoch milliseconds (`control: datetime` on an integer: a lease, a retry's due time).
 */
export function fieldText(field: FieldModel, row: Record<string, unknown>, enums: EnumCatalog): string {
  const value = row[field.name]
  if (field.type === 'ref') {
    const label = row[refLabelProperty(field.name)]
    if (label !== undefined && label !== null && label !== '') return String(label)
    return Array.isArray(value) ? value.join('，') : value === null || value === undefined ? '' : String(value)
  }
  if (value === null || value === undefined || value === '') return ''
  if (field.enum) return enums.label(field.enum, value) ?? String(value)
  if (field.type === 'boolean') return value === true || value === 'true' || value === 1 ? tr('是') : tr('否')
  if (field.type === 'decimal') return decimalText(field, value)
  if (field.control === 'regionCascader') return regionPath(String(value)) || String(value)
  if (isEpochInstant(field) && Number.isFinite(Number(value))) return dayjs(Number(value)).format('YYYY-MM-DD HH:mm:ss')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Tag colour of an enum value (e.g. 启用 green, 停用 red), from the enumeration file. */
export function enumColor(field: FieldModel, value: unknown, enums: EnumCatalog): string | undefined {
  if (!field.enum) return undefined
  return enums.items(field.enum).find((i) => String(i.code) === String(value))?.color
}

/** An integer the engine keeps as epoch milliseconds for its own timing, shown as the instant it is. */
export const isEpochInstant = (field: FieldModel) => field.type === 'integer' && field.control === 'datetime'
