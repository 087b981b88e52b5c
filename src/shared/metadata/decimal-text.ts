import Decimal from 'decimal.js'
import type { FieldModel } from './entity-model.js'

/**
 * A decimal field's value as the field declares it: exactly (decimal.js) at its scale (2 when none is
 * declared), so a list, a line and a print show 成本价 38.00 where the store or a computation answered
 * 38 or 38.000000. Anything that is not a plain number is shown as it came.
 */
export function decimalText(field: Pick<FieldModel, 'scale'>, value: unknown): string {
  const text = String(value)
  return /^-?\d+(\.\d+)?$/.test(text) ? new Decimal(text).toFixed(field.scale ?? 2) : text
}
