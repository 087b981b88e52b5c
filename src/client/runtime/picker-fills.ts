import { onFieldInputValueChange, type Field, type Form } from '@formily/core'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import { pickerCalls } from '../../shared/contracts/picker-calls.js'
import { call } from '../api/call.js'

/**
 * What choosing a row of a ref field fills in its form, {row property: form field}: the field's own
 * `copies`, else what its picker declares it fills (`views.picker.fills`, spec 000 §3: a contract fills
 * customerId and salerId), so every form that offers the picker gets the same fills.
 */
export function pickerFills(field: FieldModel, pickerKind: string | undefined, pickerEntity: (kind: string) => EntityModel | undefined) {
  if (!pickerKind || field.type !== 'ref') return undefined
  return field.copies ?? pickerEntity(pickerKind)?.file.views?.picker?.fills
}

/**
 * The form effect of the fills: when the user chooses a row, it is loaded through the picker's `/load`
 * and its properties are set on the named fields that the form has and the user may edit.
 */
export function pickerFillEffects(
  form: Form,
  items: readonly { field: FieldModel; pickerKind?: string }[],
  pickerEntity: (kind: string) => EntityModel | undefined,
): void {
  for (const { field, pickerKind } of items) {
    const fills = pickerFills(field, pickerKind, pickerEntity)
    if (!fills || !pickerKind) continue
    onFieldInputValueChange(field.name, async (source) => {
      const id: unknown = source.value
      if (typeof id !== 'string' || !id) return
      const rows = await call(pickerCalls(pickerKind).load, [id], { hideError: true }).catch(() => [])
      const row = rows[0]
      if (!row || source.value !== id) return
      for (const [from, to] of Object.entries(fills)) {
        const target = form.query(to).take() as Field | undefined
        if (!target || !target.editable || row[from] === undefined || row[from] === null) continue
        target.setValue(row[from])
        if (target.selfErrors.length) void target.validate()
      }
    })
  }
}
