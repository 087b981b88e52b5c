import Decimal from 'decimal.js'
import { sql, type AliasableExpression, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { DocumentEvent } from '../../engine/document-store.js'
import type { Wire } from '../../engine/record-codec.js'
import { PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import { auditColumns } from '../../platform/audit-columns.js'
import { invalid } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import type { Services } from '../../engine/services.js'

/**
 * Bundle products (组合商品) on out sheets (domain-rules §2.4). A bundle holds no stock of its own:
 * - on save, each bundle line is broken down into its components in the `*_detail_bundle` entity, each
 *   component's price being a share of the bundle price by weight salePrice (retail: retailPrice) ×
 *   bundleNum, shares to 2 decimals with the rounding tail on the last component, divided by the
 *   component quantity per bundle (2 decimals; a remainder is lost there, as in the ancestor);
 * - on approval (`beforeApprove`), the bundle line is replaced in the DB and in `e.lines` by one line per
 *   component, so the engine posts stock per component; totalNum/totalGiftNum are recounted, totalAmount
 *   stays what was agreed.
 */
export interface BundleSpec {
  /** Breakdown entity: saleOutSheetDetailBundle / retailOutSheetDetailBundle. */
  entity: string
  /** Component price column of base_data_product_bundle used as weight. */
  weight: 'sale_price' | 'retail_price'
}

const two = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP)

/** Splits `price` over components by weight; the last one takes the tail. Answers per-component unit prices. */
function split(price: Decimal, comps: { weight: Decimal; bundleNum: number }[]): Decimal[] {
  const total = comps.reduce((s, c) => s.plus(c.weight), new Decimal(0))
  const weights = total.isZero() ? comps.map((c) => new Decimal(c.bundleNum)) : comps.map((c) => c.weight)
  const sum = weights.reduce((s, w) => s.plus(w), new Decimal(0))
  let given = new Decimal(0)
  return comps.map((c, i) => {
    const share = i === comps.length - 1 ? price.minus(given) : two(price.times(weights[i]).dividedBy(sum))
    given = given.plus(share)
    return two(share.dividedBy(c.bundleNum))
  })
}

export async function saveBundleBreakdown(services: Services, e: DocumentEvent & { id: string }, spec: BundleSpec): Promise<void> {
  const productIds = [...new Set(e.lines.map((l) => String(l.productId)))]
  if (!productIds.length) return
  const bundles = await e.trx
    .selectFrom('base_data_product')
    .select(['id', 'code', 'name'])
    .where('id', 'in', productIds)
    .where('product_type', '=', PRODUCT_TYPE.BUNDLE)
    .execute()
  if (!bundles.length) return
  const comps = await e.trx
    .selectFrom('base_data_product_bundle as b')
    .innerJoin('base_data_product as p', 'p.id', 'b.product_id')
    .select(['b.main_product_id', 'b.product_id', 'b.bundle_num', `b.${spec.weight} as weight`, 'p.sale_tax_rate'])
    .where('b.main_product_id', 'in', bundles.map((b) => String(b.id)))
    .orderBy('b.main_product_id')
    .orderBy('b.order_no')
    .orderBy('b.id')
    .execute()
  const entity = services.registry.get(spec.entity)
  const rows: Wire[] = []
  for (const line of e.lines) {
    const bundle = bundles.find((b) => String(b.id) === String(line.productId))
    if (!bundle) continue
    const parts = comps
      .filter((c) => String(c.main_product_id) === String(bundle.id))
      .map((c) => ({ productId: String(c.product_id), bundleNum: Number(c.bundle_num), weight: new Decimal(String(c.weight ?? 0)).times(Number(c.bundle_num)), taxRate: c.sale_tax_rate }))
    if (!parts.length) throw invalid(`组合商品（${bundle.code}）${bundle.name}没有单品，无法出库！`)
    const prices = split(new Decimal(String(line.taxPrice ?? 0)), parts)
    const oriPrices = split(new Decimal(String(line.oriPrice ?? line.taxPrice ?? 0)), parts)
    parts.forEach((p, i) =>
      rows.push({
        sheetId: e.id,
        detailId: String(line.id),
        mainProductId: String(bundle.id),
        orderNum: Number(line.orderNum),
        productId: p.productId,
        productOrderNum: p.bundleNum * Number(line.orderNum),
        productOriPrice: oriPrices[i].toFixed(2),
        productTaxPrice: prices[i].toFixed(2),
        productTaxRate: String(p.taxRate ?? 0),
        productDetailId: null,
      }),
    )
  }
  if (!rows.length) return
  const fields = entity.fields.filter((f) => !f.readOnly || f.name === 'sheetId')
  await e.trx
    .insertInto(entity.table)
    .values(rows.map((r) => ({ ...services.codec.toRow(r, fields), id: newId(), ...auditColumns(e.ctx) })))
    .execute()
}

/** Gives up the breakdown of a document being modified or deleted. */
export async function removeBundleBreakdown(services: Services, e: DocumentEvent & { id: string }, spec: BundleSpec): Promise<void> {
  const entity = services.registry.get(spec.entity)
  await e.trx.deleteFrom(entity.table).where(entity.byName.get('sheetId')!.column, '=', e.id).execute()
}

/** Whether document `id` has a breakdown (the hook `hasBreakdown`: read with the lines at approval). */
export function hasBreakdown(services: Services, db: Db, id: string, spec: BundleSpec): AliasableExpression<SqlBool> {
  const entity = services.registry.get(spec.entity)
  return sql<SqlBool>`exists ${db.selectFrom(entity.table).select('id').where(entity.byName.get('sheetId')!.column, '=', id)}`
}

/** Replaces each bundle line by its component lines (DB and `e.lines`) and recounts the quantities. */
export async function explodeBundles(services: Services, e: DocumentEvent & { id: string }, spec: BundleSpec): Promise<void> {
  if (e.hasBreakdown === false) return
  const entity = services.registry.get(spec.entity)
  const stored = await e.trx
    .selectFrom(entity.table)
    .selectAll()
    .where(entity.byName.get('sheetId')!.column, '=', e.id)
    .orderBy('id')
    .execute()
  if (!stored.length) return
  const breakdown: Wire[] = stored.map((r) => ({ ...services.codec.fromRow(entity, r), id: String(r.id) }))
  const lineEntity = e.doc.lines
  const parent = lineEntity.byName.get(e.doc.section.lines.parentField)!
  const storedFields = lineEntity.fields.filter((f) => f !== parent && f.name !== 'orderNo')
  const gift = e.doc.section.totals?.gift ?? 'isGift'
  const next: Wire[] = []
  const inserts: Record<string, unknown>[] = []
  for (const line of e.lines) {
    const parts = breakdown.filter((b) => String(b.detailId) === String(line.id))
    if (!parts.length) {
      next.push(line)
      continue
    }
    for (const part of parts) {
      const component: Wire = {}
      for (const f of storedFields) if (f.default !== undefined) component[f.name] = f.default
      Object.assign(component, {
        id: newId(),
        productId: part.productId,
        orderNum: Number(part.productOrderNum),
        oriPrice: part.productOriPrice,
        taxPrice: part.productTaxPrice,
        discountRate: line.discountRate,
        [gift]: line[gift] === true,
        taxRate: Number(part.productTaxRate),
        oriBundleDetailId: String(line.id),
        description: line.description ?? null,
      })
      part.productDetailId = String(component.id)
      next.push(component)
      inserts.push({ ...services.codec.toRow(component, storedFields), id: component.id, [parent.column]: e.id, order_no: 0, ...auditColumns(e.ctx) })
      await e.trx.updateTable(entity.table).set({ product_detail_id: component.id }).where('id', '=', String(part.id)).execute()
    }
  }
  const bundleLineIds = e.lines.filter((l) => !next.includes(l)).map((l) => String(l.id))
  await e.trx.deleteFrom(lineEntity.table).where('id', 'in', bundleLineIds).execute()
  await e.trx.insertInto(lineEntity.table).values(inserts).execute()
  for (const [i, line] of next.entries()) {
    line.orderNo = i + 1
    await e.trx.updateTable(lineEntity.table).set({ order_no: i + 1 }).where('id', '=', String(line.id)).execute()
  }
  e.lines.splice(0, e.lines.length, ...next)
  const num = e.doc.section.totals!.num
  const totals = { totalNum: 0, totalGiftNum: 0 }
  for (const line of next) totals[line[gift] === true ? 'totalGiftNum' : 'totalNum'] += Number(line[num])
  await e.trx.updateTable(e.doc.header.table).set({ total_num: totals.totalNum, total_gift_num: totals.totalGiftNum }).where('id', '=', e.id).execute()
  Object.assign(e.header, totals)
}
