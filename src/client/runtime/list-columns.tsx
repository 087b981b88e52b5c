import type { ReactNode } from 'react'
import { Image, Tag } from 'antd'
import type { ColumnType } from 'antd/es/table'
import type { ListColumn } from '../../shared/generated/entity.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import type { EntityRow } from './entity-api.js'
import { enumColor, fieldText } from './field-text.js'

export type SortOrder = 'asc' | 'desc'
export interface SortState {
  field: string
  order: SortOrder
}

/** The spec's sequence column (000 §9: sort column width 50). */
export const SEQ_WIDTH = 50

const isNumeric = (f: FieldModel) => f.type === 'integer' || f.type === 'decimal'

function defaultWidth(f: FieldModel): number {
  if (f.type === 'datetime') return 170
  if (f.type === 'date') return 120
  if (f.type === 'boolean' || f.enum) return 100
  if (isNumeric(f)) return 110
  if (f.control === 'regionCascader') return 200
  return 140
}

/**
 * Whether the server can order by the column: only stored scalar columns. A single ref would sort by
 * its id, not what the user reads, and a multiple ref has no column at all.
 */
function canSort(f: FieldModel): boolean {
  if (f.hidden || f.type === 'ref' || f.type === 'json' || f.type === 'text' || f.type === 'password') return false
  return f.control !== 'image'
}

/** The cell of one field: coloured tags for enums that declare colours (启用 green, 停用 red), thumbnails for images. */
export function renderCell(field: FieldModel, row: Record<string, unknown>, enums: EnumCatalog): ReactNode {
  const value = row[field.name]
  if (field.control === 'image') {
    return typeof value === 'string' && value ? <Image src={value} width={40} height={40} style={{ objectFit: 'contain' }} /> : null
  }
  const text = fieldText(field, row, enums)
  const color = value === null || value === undefined ? undefined : enumColor(field, value, enums)
  return color ? <Tag color={color}>{text}</Tag> : text
}

export interface ColumnOptions {
  /** Allow server sorting (lists); pickers keep their server order. */
  sortable: boolean
  sort?: SortState
}

/** antd columns of `views.list.columns` (or a picker's columns). */
export function buildColumns(
  entity: EntityModel,
  columns: readonly ListColumn[],
  enums: EnumCatalog,
  options: ColumnOptions,
): ColumnType<EntityRow>[] {
  const out: ColumnType<EntityRow>[] = []
  for (const raw of columns) {
    const col = typeof raw === 'string' ? { field: raw } : raw
    const field = entity.byName.get(col.field)
    // Internal ids are bookkeeping, not something a user reads.
    if (!field || field.hidden || field.internal) continue
    const sortable = options.sortable && (col.sortable ?? canSort(field))
    out.push({
      key: field.name,
      dataIndex: field.name,
      title: col.title ?? field.label,
      width: col.width ?? defaultWidth(field),
      fixed: col.fixed,
      align: isNumeric(field) ? 'right' : undefined,
      ellipsis: field.control !== 'image',
      sorter: sortable ? true : undefined,
      sortOrder:
        sortable && options.sort?.field === field.name ? (options.sort.order === 'asc' ? 'ascend' : 'descend') : sortable ? null : undefined,
      render: (_: unknown, row: EntityRow) => renderCell(field, row, enums),
    })
  }
  return out
}
