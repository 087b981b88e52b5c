import type { EntityModel } from '../../shared/metadata/entity-model.js'

type Row = Record<string, unknown> & { id: string }

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v))

/** The row field a picker input shows: `picker.labelField`, by default the code (000 §9). */
export function labelFieldOf(entity: EntityModel | undefined): string {
  return entity?.file.views?.picker?.labelField ?? 'code'
}

/** One chosen row as the input shows it; the id when the row has no such field. */
export function pickerLabel(row: Row | undefined, labelField: string, id?: string): string {
  if (!row) return id ?? ''
  return text(row[labelField]) || text(row.name) || text(row.code) || row.id
}

/** Single picks show one label; multiple picks join them with a full-width comma. */
export function joinLabels(labels: readonly string[]): string {
  return labels.filter(Boolean).join('，')
}

/** A row in lists of chosen rows: code and name when both exist. */
export function describeRow(row: Row): string {
  return [text(row.code), text(row.name ?? row.title ?? row.address)].filter(Boolean).join(' ') || row.id
}
