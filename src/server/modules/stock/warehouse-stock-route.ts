import type { FastifyInstance } from 'fastify'
import type { Expression, SqlBool } from 'kysely'
import { warehouseStock, WAREHOUSE_STOCK_MAX, type WarehouseStock } from '../../../shared/contracts/stock.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'
import type { Services } from '../../engine/services.js'
import { availableStock } from '../../engine/warehouse-stock.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { invalid } from '../../platform/errors.js'

/**
 * Who may ask for the stock of a line table: whoever may add, modify or approve a document whose file
 * declares `lineStock` (the pages that show it), derived from the files, never listed by hand.
 */
export function warehouseStockKeys(registry: EntityRegistry): string[] {
  return registry
    .documents()
    .filter((d) => d.file.document?.lineStock && d.file.api)
    .flatMap((d) => ['add', 'modify', 'approve'].map((action) => `${d.file.api!.permission}:${action}`))
}

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 64

/**
 * `POST /stock/product/warehouseStock {scId, productIds}`: each product's available stock in the
 * warehouse, as the product picker reports it (engine/warehouse-stock.ts). The warehouse must be one of
 * the tenant's; products outside the user's product data permission are not answered, as in every
 * product list, so their stock cannot be read by naming their ids.
 */
export function registerWarehouseStock(app: FastifyInstance, services: Services): void {
  const { registry } = services
  const product = registry.get('product')
  const warehouse = registry.get('storeCenter')
  defineCallRoute(app, warehouseStock, {
    access: warehouseStockKeys(registry),
    handler: async ({ ctx, params }): Promise<WarehouseStock[]> => {
      // The contract names the wire shape; what arrived is checked here.
      const sent: unknown = params
      const body: Record<string, unknown> = sent && typeof sent === 'object' && !Array.isArray(sent) ? (sent as Record<string, unknown>) : {}
      if (!isId(body.scId)) throw invalid('请选择仓库', 'scId')
      const ids = body.productIds
      if (!Array.isArray(ids) || !ids.every(isId)) throw invalid('请选择商品！', 'productIds')
      const wanted = [...new Set(ids)]
      if (wanted.length > WAREHOUSE_STOCK_MAX) throw invalid(`商品不能超过${WAREHOUSE_STOCK_MAX}个！`, 'productIds')
      const db = ctx.db
      if (!(await db.selectFrom(warehouse.table).select('id').where('id', '=', body.scId).executeTakeFirst())) throw invalid('仓库不存在！', 'scId')
      if (!wanted.length) return []
      let visible = db
        .selectFrom(`${product.table} as p`)
        .leftJoin(`${registry.get('productCategory').table} as c`, 'c.id', 'p.category_id')
        .leftJoin(`${registry.get('productBrand').table} as b`, 'b.id', 'p.brand_id')
        .select(['p.id', 'p.product_type'])
        .where('p.id', 'in', wanted)
      const permissionType = product.file.dataPermission?.type
      if (permissionType !== undefined && services.store.dataFilter) {
        const predicate: Expression<SqlBool> | undefined = await services.store.dataFilter(db, ctx, permissionType, { product: 'p', category: 'c', brand: 'b' })
        if (predicate) visible = visible.where(predicate)
      }
      const products = (await visible.execute()).map((r) => ({ id: String(r.id), productType: Number(r.product_type) }))
      const stock = await availableStock(db, body.scId, products)
      return products.map((p) => ({ productId: p.id, stockNum: stock.get(p.id) ?? 0 }))
    },
  })
}
