import Decimal from 'decimal.js'
import { COLUMN_DATA_TYPE, COLUMN_TYPE, PROPERTY_TYPE } from '../../../shared/generated/enum-codes.js'

/**
 * Product properties (商品属性, v3 `ProductPropertyServiceImpl`): what may change on modify, which
 * categories an appointed property covers, and how a hand-typed (CUSTOM) value is checked.
 */
export interface PropertyKind {
  columnType: number
  columnDataType?: number | null
  propertyType: number
}

const COLUMN_TYPE_LABEL: Record<number, string> = { 1: '多选', 2: '单选', 3: '手动录入' }
const PROPERTY_TYPE_LABEL: Record<number, string> = { 1: '通用属性', 2: '指定类目属性', 3: '无' }

export const isChoice = (columnType: number) => columnType === COLUMN_TYPE.MULTIPLE || columnType === COLUMN_TYPE.SINGLE

/**
 * The first change rule a modify breaks, or undefined (messages as in v3):
 * - a CUSTOM property stays CUSTOM, keeps its data type and its property type;
 * - a choice property cannot become CUSTOM;
 * - COMMON / APPOINT cannot become NONE.
 */
export function propertyChangeError(before: PropertyKind, after: PropertyKind): string | undefined {
  const CUSTOM = COLUMN_TYPE.CUSTOM
  if (before.columnType === CUSTOM) {
    if (after.columnType !== CUSTOM) return `该属性的字段类型为“${COLUMN_TYPE_LABEL[CUSTOM]}”，不允许修改！`
    if (after.columnDataType === null || after.columnDataType === undefined) return '请选择数据类型！'
    if (Number(before.columnDataType) !== Number(after.columnDataType)) return '数据类型不允许修改！'
    if (before.propertyType !== after.propertyType) return '该属性不允许修改属性类别！'
  } else if (after.columnType === CUSTOM) {
    return `该属性不允许将字段类型修改为“${COLUMN_TYPE_LABEL[CUSTOM]}”！`
  }
  if (before.propertyType !== PROPERTY_TYPE.NONE && after.propertyType === PROPERTY_TYPE.NONE)
    return `该属性的属性类别为“${PROPERTY_TYPE_LABEL[before.propertyType]}”，不允许修改为“${PROPERTY_TYPE_LABEL[PROPERTY_TYPE.NONE]}”`
  return undefined
}

/** Ancestors of a category, nearest first (cycle-safe). */
export function ancestorsOf(id: string, parentOf: ReadonlyMap<string, string | null | undefined>): string[] {
  const out: string[] = []
  let current = parentOf.get(id)
  while (current && !out.includes(current) && current !== id && out.length < 64) {
    out.push(current)
    current = parentOf.get(current)
  }
  return out
}

/**
 * v3 `calcCategoryIds`: a selection that holds a category and some of its descendants keeps only the
 * top-most ones, since an appointed category covers its whole subtree. Order and duplicates follow the input.
 */
export function topMostCategories(selected: readonly string[], parentOf: ReadonlyMap<string, string | null | undefined>): string[] {
  const chosen = new Set(selected)
  const out: string[] = []
  for (const id of selected) {
    if (out.includes(id)) continue
    if (ancestorsOf(id, parentOf).some((a) => chosen.has(a))) continue
    out.push(id)
  }
  return out
}

/** Whether a property applies to a category (itself plus its ancestors): common, or appointed to one of them. */
export function appliesTo(
  property: { propertyType: number; categoryIds?: readonly string[] | null },
  categoryChain: readonly string[],
): boolean {
  if (property.propertyType === PROPERTY_TYPE.COMMON) return true
  if (property.propertyType !== PROPERTY_TYPE.APPOINT) return false
  return (property.categoryIds ?? []).some((c) => categoryChain.includes(c))
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^\d{2}:\d{2}:\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

/** Checks a hand-typed value against the property's data type; answers the message or undefined. */
export function customValueError(name: string, dataType: number | null | undefined, text: string): string | undefined {
  switch (dataType) {
    case COLUMN_DATA_TYPE.INT:
      return /^-?\d+$/.test(text) ? undefined : `${name}必须为整数`
    case COLUMN_DATA_TYPE.FLOAT:
      try {
        return new Decimal(text).isFinite() && /^-?\d+(\.\d+)?$/.test(text) ? undefined : `${name}必须为数字`
      } catch {
        return `${name}必须为数字`
      }
    case COLUMN_DATA_TYPE.DATE:
      return DATE.test(text) ? undefined : `${name}格式不正确`
    case COLUMN_DATA_TYPE.TIME:
      return TIME.test(text) ? undefined : `${name}格式不正确`
    case COLUMN_DATA_TYPE.DATE_TIME:
      return DATETIME.test(text) ? undefined : `${name}格式不正确`
    default:
      return text.length > 200 ? `${name}长度不能超过200个字符` : undefined
  }
}

/**
 * MULTIPLE → SINGLE keeps one value per product: the one whose item comes first (item order), and
 * answers the relation ids to delete.
 */
export function collapseToSingle(
  relations: readonly { id: string; productId: string; itemOrder: number }[],
): string[] {
  const keep = new Map<string, { id: string; itemOrder: number }>()
  for (const r of relations) {
    const current = keep.get(r.productId)
    if (!current || r.itemOrder < current.itemOrder || (r.itemOrder === current.itemOrder && r.id < current.id))
      keep.set(r.productId, r)
  }
  const kept = new Set([...keep.values()].map((r) => r.id))
  return relations.filter((r) => !kept.has(r.id)).map((r) => r.id)
}
