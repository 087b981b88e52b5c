import type { Db } from '../../db/dialect.js'
import { invalid } from '../../platform/errors.js'
import { productInfo } from '../../engine/line-products.js'
import { pageArgs } from '../../platform/page-args.js'
import type { ConditionField } from '../../engine/condition-values.js'
import type { Page } from '../../../shared/contracts/call.js'

const MAX_SEARCH = 20

/** What the line table's product search reads besides its text. */
export const PRODUCT_SEARCH_CONDITIONS: readonly ConditionField[] = [
  { name: 'scId', label: '仓库', kind: 'id' },
  { name: 'productType', label: '商品类型', kind: 'enum', enum: 'PRODUCT_TYPE' },
]

/** A product as the search answers it: what a new line takes from it, its stock and unit cost in the warehouse. */
export type ProductHit = Record<string, unknown> & { productId: string; stockNum: number; taxCostPrice: string | null }

/**
 * The document line table's product search (`…/product/search?scId&condition`: code, name, SKU code
 * or external code contains the text) and paged list (`…/product/list`), enabled products only, each
 * with its prices and tax rates (what a new line takes from it) and its stock and unit cost in the chosen warehouse. LIKE wildcards in the text are escaped.
 */
export function searchProducts(db: Db, query: Record<string, unknown>, paged: false, enabled: unknown): Promise<ProductHit[]>
export function searchProducts(db: Db, query: Record<string, unknown>, paged: true, enabled: unknown): Promise<Page<ProductHit>>
export async function searchProducts(db: Db, query: Record<string, unknown>, paged: boolean, enabled: unknown): Promise<ProductHit[] | Page<ProductHit>> {
  const scId = typeof query.scId === 'string' ? query.scId : ''
  const text = typeof query.condition === 'string' ? query.condition.trim() : ''
  const { pageIndex, pageSize } = pageArgs(query, 100, MAX_SEARCH)
  if (!paged && !text) return []
  if (query.scId !== undefined && typeof query.scId !== 'string') throw invalid('请选择仓库', 'scId')
  let base = db.selectFrom('base_data_product as p').where('p.available', '=', enabled)
  if (text) {
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    base = base.where((eb) =>
      eb.or(['p.code', 'p.name', 'p.sku_code', 'p.external_code'].map((c) => eb(eb.ref(c), 'like', like))),
    )
  }
  if (typeof query.productType === 'string' && query.productType) base = base.where('p.product_type', '=', Number(query.productType))
  const totalCount = paged ? Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0) : 0
  const rows = await base
    .select('p.id')
    .orderBy('p.code')
    .limit(paged ? pageSize : MAX_SEARCH)
    .offset(paged ? (pageIndex - 1) * pageSize : 0)
    .execute()
  const ids = rows.map((r) => String(r.id))
  const info = await productInfo(db, ids)
  const stock = scId && ids.length
    ? await db.selectFrom('tbl_product_stock').select(['product_id', 'stock_num', 'tax_price']).where('sc_id', '=', scId).where('product_id', 'in', ids).execute()
    : []
  const stockOf = new Map(stock.map((s) => [String(s.product_id), s]))
  // The tax rates a new line takes from its product (`defaultFrom`); not in productInfo, which is spread over stored lines that have their own taxRate.
  const rates = ids.length ? await db.selectFrom('base_data_product').select(['id', 'tax_rate', 'sale_tax_rate']).where('id', 'in', ids).execute() : []
  const rateOf = new Map(rates.map((r) => [String(r.id), { taxRate: Number(r.tax_rate), saleTaxRate: Number(r.sale_tax_rate) }]))
  const datas = ids.map((id) => ({
    productId: id,
    ...info.get(id),
    ...rateOf.get(id),
    stockNum: Number(stockOf.get(id)?.stock_num ?? 0),
    taxCostPrice: stockOf.get(id)?.tax_price == null ? null : String(stockOf.get(id)?.tax_price),
  }))
  return paged ? { pageIndex, pageSize, totalCount, datas } : datas
}
