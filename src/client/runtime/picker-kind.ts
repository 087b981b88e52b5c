import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'

/** Finds an entity model by name, or undefined (the meta bundle throws for unknown names). */
export type EntityLookup = (name: string) => EntityModel | undefined

/**
 * The `/selector/{kind}` that chooses a ref field's value: the field's own `picker`, else the
 * referenced entity's picker view. Undefined when nothing can choose it (the value is then shown
 * read-only from its label).
 */
export function pickerKindOf(field: FieldModel, lookup: EntityLookup): string | undefined {
  if (field.type !== 'ref') return undefined
  if (field.picker) return field.picker
  return field.ref ? lookup(field.ref)?.file.views?.picker?.kind : undefined
}
