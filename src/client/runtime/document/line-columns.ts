import type { EntityModel, FieldModel } from '../../../shared/metadata/entity-model.js'
import { term } from '../../i18n/use-tr.js'
import { hasProductLines, type DocumentSection } from '../../../shared/metadata/document-model.js'
import { refLabelProperty } from '../../../shared/metadata/entity-model.js'

/** How a line table column shows and edits its value. */
export type LineCellKind = 'product' | 'integer' | 'decimal' | 'enum' | 'text' | 'flag' | 'number'

export interface LineColumnModel {
  key: string
  title: string
  kind: LineCellKind
  /** The line field behind the column (product columns read what the server attached to the line). */
  field?: FieldModel
  /** Typed in the table (quantity, price, tax rate, description), else shown. */
  editable: boolean
  width: number
  /** A reference column showing an enumeration's label (a check sheet line's 业务类型). */
  enum?: string
}

/** What a line shows of its product (line-products.ts attaches them to every answered line). */
export const PRODUCT_COLUMNS: readonly { key: string; title: string; width: number }[] = [
  { key: 'productCode', title: term('商品编号'), width: 120 },
  { key: 'productName', title: term('商品名称'), width: 160 },
  { key: 'skuCode', title: term('SKU编号'), width: 120 },
  { key: 'unit', title: term('单位'), width: 70 },
  { key: 'spec', title: term('规格'), width: 100 },
]

export interface LineColumnOptions {
  /** The table only shows (detail and approve pages). */
  readOnly: boolean
}

function kindOf(f: FieldModel): LineCellKind {
  if (f.type === 'integer') return 'integer'
  if (f.type === 'decimal') return 'decimal'
  if (f.type === 'enum') return 'enum'
  if (f.type === 'boolean') return 'flag'
  return 'text'
}

/**
 * What a line shows of what it refers to: the product's code, name, SKU, unit and spec; else the
 * file's `lines.columns`, or the label of the picked record (`lines.pick.field` → its Name property).
 */
export function referenceColumns(lines: EntityModel, section: DocumentSection): readonly { key: string; title: string; width?: number; enum?: string }[] {
  if (hasProductLines(section)) return PRODUCT_COLUMNS
  if (section.lines.columns) return section.lines.columns
  const pick = section.lines.pick!
  return [{ key: refLabelProperty(pick.field), title: lines.byName.get(pick.field)?.label ?? '', width: 180 }]
}

/**
 * The columns of a document's line table from its line entity (`<name>Detail`): what the line refers
 * to (product code, name, SKU, unit and spec for product lines), then every declared line field in order. Links to source lines and the
 * header are hidden; counters kept by the engine (received, returned) are shown only on read-only
 * pages; the gift flag is always shown, never typed (a price of 0 makes a gift).
 */
export function lineColumnModels(lines: EntityModel, section: DocumentSection, options: LineColumnOptions): LineColumnModel[] {
  const out: LineColumnModel[] = referenceColumns(lines, section).map((c) => ({ width: 140, ...c, kind: 'product' as const, editable: false }))
  const giftField = section.totals?.gift
  // A line field the reference columns already show (a check sheet line's 业务类型) is not repeated.
  const shown = new Set(out.map((c) => c.key))
  for (const f of lines.fields) {
    if (shown.has(f.name)) continue
    if (f.name === section.lines.parentField || f.name === 'orderNo' || f.name === 'productId' || f.name === section.lines.pick?.field || f.hidden || f.internal || f.builtin) continue
    if (f.type === 'ref' || f.type === 'json') continue
    const gift = f.name === giftField
    if (f.readOnly && !gift && !options.readOnly) continue
    const kind = kindOf(f)
    out.push({
      key: f.name,
      title: f.label,
      kind: f.readOnly && kind === 'integer' ? 'number' : kind,
      field: f,
      editable: !options.readOnly && !f.readOnly && !gift,
      width: kind === 'text' ? 180 : kind === 'enum' ? 110 : kind === 'flag' ? 90 : 120,
    })
  }
  return out
}

/** The field of a line that links it to a source document's line (e.g. purchaseOrderDetailId), if the document declares reservations. */
export const sourceLinkField = (section: DocumentSection): string | undefined => section.lines.reserve?.[0]?.field
