import type { EntityModel } from '../../../shared/metadata/entity-model.js'

type Row = Record<string, unknown> & { id: string }

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v))

/** The row field a picker input shows: `picker.labelField`, by default the code (000 §9). */
export function labelFieldOf(entity: EntityModel | undefined): string {
  return entity?.file.views?.picker?.labelField ?? 'code'
}

/**
 * One chosen row as the input shows it: its label field (000 §9: a single pick shows the code), the
 * name or the id when the row has no such field. The name of a row labelled by its code is the input's
 * tooltip (`pickerTooltip`), and read-only text (a detail page, an approval) shows both.
 */
export function pickerLabel(row: Row | undefined, labelField: string): string {
  if (!row) return ''
  return text(row[labelField]) || text(row.name) || text(row.code) || row.id
}

/** A row labelled by its code with its name after it (“CK01 主仓库”): the input's tooltip and read-only text. */
export function pickerDescription(row: Row | undefined, labelField: string): string {
  const label = pickerLabel(row, labelField)
  const name = text(row?.name)
  return labelField === 'code' && name && name !== label ? `${label} ${name}` : label
}

/** Single picks show one label; multiple picks join them with a full-width comma. */
export function joinLabels(labels: readonly string[]): string {
  return labels.filter(Boolean).join('，')
}

/** A row in lists of chosen rows: code and name when both exist. */
export function describeRow(row: Row): string {
  return [text(row.code), text(row.name ?? row.title ?? row.address)].filter(Boolean).join(' ') || row.id
}
