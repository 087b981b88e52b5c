import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import { invalid } from '../platform/errors.js'

/**
 * Leaf-only (the picker's only-final, 000 §6; a product's 类目): the field's tree picker offers leaves only,
 * and every write holds to it (EntityStore.checkRefs, the import batch), so no call or file gets around the screen.
 */
export const leafOnly = (field: FieldModel, target: EntityModel): boolean =>
  // A tree's own parent field is never leaf-only: a parent is what it names.
  Boolean((field.onlyFinal || target.file.tree?.onlyFinal) && target.parentField && target.byName.get(target.parentField) !== field)

export const notLeaf = (field: FieldModel) => invalid(`${field.label}只能选择末级`, field.name)
