import type { Db } from '../db/dialect.js'
import { PRODUCT_TYPE } from '../../shared/generated/enum-codes.js'

/**
 * Available stock of products in one warehouse, for the product picker of sale and retail entry
 * (`views.picker.warehouseStock`). A NORMAL product has its stock row's quantity (0 without one); a
 * BUNDLE holds no stock of its own (domain-rules §2.2): min over its components of
 * ⌊component stock ÷ bundleNum⌋, 0 when a component has none — as /stock/product/stockProductDetails.
 */
export async function availableStock(db: Db, scId: string, products: { id: string; productType: number }[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  if (!products.length) return out
  const bundleIds = products.filter((p) => p.productType === PRODUCT_TYPE.BUNDLE).map((p) => p.id)
  const components = bundleIds.length
    ? await db.selectFrom('base_data_product_bundle').select(['main_product_id', 'product_id', 'bundle_num']).where('main_product_id', 'in', bundleIds).execute()
    : []
  const wanted = [...new Set([...products.map((p) => p.id), ...components.map((c) => String(c.product_id))])]
  const rows = await db.selectFrom('tbl_product_stock').select(['product_id', 'stock_num']).where('sc_id', '=', scId).where('product_id', 'in', wanted).execute()
  const stockOf = new Map(rows.map((r) => [String(r.product_id), Number(r.stock_num ?? 0)]))
  for (const p of products) {
    if (p.productType !== PRODUCT_TYPE.BUNDLE) {
      out.set(p.id, stockOf.get(p.id) ?? 0)
      continue
    }
    const mine = components.filter((c) => String(c.main_product_id) === p.id)
    out.set(p.id, mine.length ? Math.min(...mine.map((c) => Math.floor((stockOf.get(String(c.product_id)) ?? 0) / Math.max(1, Number(c.bundle_num))))) : 0)
  }
  return out
}
