import type { EntityFile, RowAction } from '../../../shared/generated/entity.js'

/**
 * What a document screen offers beyond its fields, read from the `document` section of its entity file
 * (schemas/documents/*.json, delivered by the meta bundle): nothing here is kept by hand.
 */

type DocumentSection = NonNullable<EntityFile['document']>
const sectionOf = (file: EntityFile): Partial<DocumentSection> => file.document ?? {}

/** Whether the document has 约定支付 (`agreedPayments`: its answer carries `payTypes`; the amounts must add up to the total). */
export const hasAgreedPayments = (file: EntityFile): boolean => sectionOf(file).agreedPayments === true

/** The line table's quick product search (`?scId&condition`, `productSearch`), where the server has one. */
export const productSearchUrl = (file: EntityFile): string | undefined => sectionOf(file).productSearch

/** The header field whose warehouse the product search reports stock for (`searchWarehouseField`, a transfer's goods leave the source). */
export const warehouseFieldOf = (file: EntityFile): string => sectionOf(file).searchWarehouseField ?? 'scId'

/** `GET path?{party}=` answers `{paymentDate, allowModify}` for the header's 付款日期 (the party's payment terms). */
export type PaymentDateRule = NonNullable<DocumentSection['paymentDate']>
export const paymentDateRuleOf = (file: EntityFile): PaymentDateRule | undefined => sectionOf(file).paymentDate

/** A row action of a document list beyond modify/approve/delete (`rowActions`), shown only in some statuses and with its key. */
export type ListRowAction = RowAction

/** The extra row actions of a document that apply to this row: its status, and the values its `where` names. */
export function rowActionsFor(file: EntityFile, row: Record<string, unknown>): ListRowAction[] {
  return (sectionOf(file).rowActions ?? []).filter(
    (a) => a.statuses.includes(Number(row.status)) && Object.entries(a.where ?? {}).every(([field, values]) => values.includes(Number(row[field]))),
  )
}

/** The header field some line fields depend on (`lineVisibility`: a pre-take sheet's 盘点状态), if any. */
export const lineVisibilityField = (file: EntityFile): string | undefined => sectionOf(file).lineVisibility?.field

/**
 * Line fields a document shows only under a header value (`lineVisibility`: a pre-take sheet counts one
 * number, the one of its 盘点状态). Answers the line fields to hide: all of them while the value is empty.
 */
export function hiddenLineFields(file: EntityFile, header: Record<string, unknown>): ReadonlySet<string> {
  const rule = sectionOf(file).lineVisibility
  if (!rule) return new Set()
  const value = header[rule.field]
  const wanted = value === undefined || value === null || value === '' ? undefined : rule.show[String(value)]
  return new Set(Object.values(rule.show).filter((n) => n !== wanted))
}
