import type { EntityModel, FieldModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRegistry } from '../entity-registry.js'
import { exportFields, isRegion } from '../export-cells.js'

/**
 * The columns of an entity's spreadsheets, from `views.export` ("fields exported and imported, in
 * column order"; the list columns when absent). The export writes them as text people read (enum
 * labels, 是/否, 省/市/区, the referenced record's name); the import reads the same columns, with a
 * reference given by the referenced record's code (header `{label}编号`), since names need not be unique.
 */

export type ColumnKind = 'text' | 'integer' | 'decimal' | 'boolean' | 'enum' | 'date' | 'datetime' | 'ref' | 'region'

export interface ImportColumn {
  field: FieldModel
  kind: ColumnKind
  /** Header of the template and of an uploaded file (without the required mark). */
  header: string
  /** Has to be filled to create a record: the header carries `*`. */
  required: boolean
  /** ref: the referenced entity and the field its cells name it by (code where there is one). */
  target?: EntityModel
  key?: FieldModel
}

/** The field a reference cell names its record by: code, else a unique text field, else name. */
function refKey(target: EntityModel): FieldModel | undefined {
  const own = target.fields
  return (
    own.find((f) => f.name === 'code') ??
    own.find((f) => f.name === 'username') ??
    own.find((f) => f.uniqueMessage && (f.type === 'string' || f.type === 'text')) ??
    own.find((f) => f.name === 'name')
  )
}

function kindOf(field: FieldModel): ColumnKind | undefined {
  if (isRegion(field)) return 'region'
  switch (field.type) {
    case 'string':
    case 'text':
      return field.control === 'image' ? undefined : 'text'
    case 'integer':
    case 'decimal':
    case 'boolean':
    case 'date':
    case 'datetime':
      return field.type
    case 'enum':
      return 'enum'
    case 'ref':
      return field.multiple ? undefined : 'ref'
    default:
      // json, password: not spreadsheet material.
      return undefined
  }
}

/**
 * The import columns: exported fields a client may write (not read-only, not virtual child lines,
 * not images, json, passwords or multiple refs). A column is required when the record cannot be
 * created without it: required, with no default and not derived from another column.
 */
export function importColumns(registry: EntityRegistry, entity: EntityModel): ImportColumn[] {
  const out: ImportColumn[] = []
  for (const field of exportFields(entity)) {
    if (field.readOnly || field.builtin || field.virtual) continue
    const kind = kindOf(field)
    if (!kind) continue
    const column: ImportColumn = {
      field,
      kind,
      header: field.label,
      required: Boolean(field.requiredMessage) && field.default === undefined && !field.derive,
    }
    if (kind === 'ref') {
      const target = registry.get(field.ref as string)
      const key = target.scope === entity.scope ? refKey(target) : undefined
      if (key) {
        column.target = target
        column.key = key
        column.header = `${field.label}${key.label}`
      }
    }
    out.push(column)
  }
  return out
}
