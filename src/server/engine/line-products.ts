import type { Db } from '../db/dialect.js'
import type { Wire } from './record-codec.js'

/** What a document line shows of its product (the line itself keeps only the id). */
export async function productInfo(db: Db, ids: string[]) {
  if (!ids.length) return new Map<string, Wire>()
  const rows = await db
    .selectFrom('base_data_product as p')
    .leftJoin('base_data_product_category as c', 'c.id', 'p.category_id')
    .leftJoin('base_data_product_brand as b', 'b.id', 'p.brand_id')
    .select([
      'p.id',
      'p.code',
      'p.name',
      'p.sku_code',
      'p.external_code',
      'p.unit',
      'p.spec',
      'p.product_type',
      'p.purchase_price',
      'p.sale_price',
      'p.retail_price',
      'c.name as category_name',
      'b.name as brand_name',
    ])
    .where('p.id', 'in', [...new Set(ids)])
    .execute()
  return new Map<string, Wire>(
    rows.map((r) => [
      String(r.id),
      {
        productCode: r.code,
        productName: r.name,
        skuCode: r.sku_code,
        externalCode: r.external_code,
        unit: r.unit,
        spec: r.spec,
        productType: Number(r.product_type),
        purchasePrice: r.purchase_price == null ? null : String(r.purchase_price),
        salePrice: r.sale_price == null ? null : String(r.sale_price),
        retailPrice: r.retail_price == null ? null : String(r.retail_price),
        categoryName: r.category_name,
        brandName: r.brand_name,
      },
    ]),
  )
}

/** Lines with their product's code, name, SKU, unit, spec, category and brand. */
export async function attachProducts(db: Db, lines: Wire[]): Promise<Wire[]> {
  const info = await productInfo(
    db,
    lines.map((l) => l.productId).filter((v): v is string => typeof v === 'string'),
  )
  return lines.map((l) => ({ ...l, ...(info.get(String(l.productId)) ?? {}) }))
}
