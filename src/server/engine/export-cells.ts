import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import { refLabelProperty } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { regionPath } from '../../shared/region/regions.js'

/**
 * A stored value as a spreadsheet cell people read (enum labels, 是/否, 省/市/区, the referenced record's
 * name), for the list exports; the import (engine/import/) reads the same columns back.
 */

/** What a boolean cell says unless its enumeration names it otherwise (the import accepts more words). */
export const YES = '是'
export const NO = '否'

export const REGION_SEPARATOR = '/'

const fieldName = (c: string | { field: string }) => (typeof c === 'string' ? c : c.field)

/** Field names of the spreadsheet columns, in order. */
export function transferFieldNames(entity: EntityModel): string[] {
  return entity.file.views?.export ?? entity.file.views?.list?.columns?.map(fieldName) ?? []
}

/** Exported fields (never hidden ones). */
export function exportFields(entity: EntityModel): FieldModel[] {
  return transferFieldNames(entity)
    .map((n) => entity.byName.get(n))
    .filter((f): f is FieldModel => Boolean(f && !f.hidden))
}

export const isRegion = (f: FieldModel) => f.control === 'regionCascader'

/** One exported cell: enum label, 是/否, region path or the ref's label; other values as they are. */
export function exportCell(field: FieldModel, row: Record<string, unknown>, enums: EnumCatalog): unknown {
  const v = row[field.name]
  if (field.enum && enums.codeKind(field.enum) !== 'boolean') return enums.label(field.enum, v) ?? v
  if (field.type === 'boolean' || field.enum) {
    if (v === null || v === undefined || v === '') return v
    const [yes, no] = booleanLabels(field, enums)
    return v === true || v === 1 || v === '1' || v === 'true' ? yes : no
  }
  if (field.type === 'ref') return row[refLabelProperty(field.name)] ?? v
  if (isRegion(field)) return regionText(v) || v
  return v
}

/** The words a boolean field's cells say: its enumeration's labels, else 是/否. */
export function booleanLabels(field: FieldModel, enums: EnumCatalog): [string, string] {
  if (field.enum && enums.codeKind(field.enum) === 'boolean') {
    return [enums.label(field.enum, true) ?? YES, enums.label(field.enum, false) ?? NO]
  }
  return [YES, NO]
}

/** A region code as `省/市/区` text (the export and the import template); the code itself when unknown. */
export function regionText(code: unknown): string {
  if (code === null || code === undefined || code === '') return ''
  return regionPath(String(code), REGION_SEPARATOR) || String(code)
}
