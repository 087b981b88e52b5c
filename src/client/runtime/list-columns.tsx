import type { ReactNode } from 'react'
import { Image, Tag } from 'antd'
import type { ColumnType } from 'antd/es/table'
import type { ListColumn } from '../../shared/generated/entity.js'
import { refCodeProperty, type EntityModel, type FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { enumColor, fieldText, isEpochInstant } from './field-text.js'
import type { SortState, SourceColumn } from './list-source.js'


/** The spec's sequence column (000 §9: sort column width 50). */
export const SEQ_WIDTH = 50

const isNumeric = (f: FieldModel) => (f.type === 'integer' && !isEpochInstant(f)) || f.type === 'decimal'

function defaultWidth(f: FieldModel): number {
  if (f.type === 'datetime' || isEpochInstant(f)) return 170
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

/** The declared columns of an entity (`views.list.columns`, a picker's columns) with what its fields say of each. */
export function entityColumns(entity: EntityModel, columns: readonly ListColumn[], sortable: boolean): SourceColumn[] {
  const out: SourceColumn[] = []
  for (const raw of columns) {
    const col = typeof raw === 'string' ? { field: raw } : raw
    const field = entity.byName.get(col.field)
    // Internal ids are bookkeeping, not something a user reads.
    if (!field || field.hidden || field.internal) continue
    // A ref's code column reads the code the server joins beside the label (`scCode`).
    const code = col.show === 'code' && field.type === 'ref'
    out.push({
      key: code ? refCodeProperty(field.name) : field.name,
      title: col.title,
      width: col.width ?? defaultWidth(field),
      fixed: col.fixed,
      numeric: isNumeric(field),
      ellipsis: field.control !== 'image',
      sortable: !code && sortable && (col.sortable ?? canSort(field)),
    })
  }
  return out
}

/** What a table column needs besides its declaration. */
export interface ColumnContext<Row> {
  field?: FieldModel
  /** The column's title in the shown language (the declared one, or the field's label). */
  title: string
  enums: EnumCatalog
  sort?: SortState
  /** The page's own cell; else the field's. */
  cell?: (row: Row) => ReactNode
}

/** The antd column of one declared column of a list. */
export function tableColumn<Row extends Record<string, unknown>>(c: SourceColumn, { field, title, enums, sort, cell }: ColumnContext<Row>): ColumnType<Row> {
  const render = cell ?? (field ? (row: Row) => renderCell(field, row, enums) : undefined)
  const order = sort?.field === c.key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null
  return {
    key: c.key,
    dataIndex: c.key,
    title,
    width: c.width,
    minWidth: c.minWidth,
    fixed: c.fixed,
    align: c.numeric ? 'right' : undefined,
    ellipsis: c.ellipsis ?? true,
    sorter: c.sortable ? true : undefined,
    sortOrder: c.sortable ? order : undefined,
    render: render ? (_: unknown, row: Row) => render(row) : undefined,
  }
}
