import type { EntityModel } from '../../../shared/metadata/entity-model.js'

type Row = Record<string, unknown> & { id: string }

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v))

/** The row field a picker input shows: `picker.labelField`, by default the code (000 §9). */
export function labelFieldOf(entity: EntityModel | undefined): string {
  return entity?.file.views?.picker?.labelField ?? 'code'
}

/**
 * One chosen row as the input shows it; the id when the row has no such field. A single pick's code is
 * followed by the row's name (仓库 “CK01 主仓库”, 供应商 “GYS001 某某公司”), so a clerk sees what was
 * chosen; several picks stay codes, joined.
 */
export function pickerLabel(row: Row | undefined, labelField: string, named = true): string {
  if (!row) return ''
  const label = text(row[labelField]) || text(row.name) || text(row.code) || row.id
  const name = text(row.name)
  return named && labelField === 'code' && name && name !== label ? `${label} ${name}` : label
}

/** Single picks show one label; multiple picks join them with a full-width comma. */
export function joinLabels(labels: readonly string[]): string {
  return labels.filter(Boolean).join('，')
}

/** A row in lists of chosen rows: code and name when both exist. */
export function describeRow(row: Row): string {
  return [text(row.code), text(row.name ?? row.title ?? row.address)].filter(Boolean).join(' ') || row.id
}
