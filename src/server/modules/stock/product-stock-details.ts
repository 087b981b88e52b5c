import Decimal from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import { PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid, notFound } from '../../platform/errors.js'
import { defineRoute } from '../../platform/routes.js'
import type { Services } from '../../engine/services.js'
import { productJoinedBase } from './product-join.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

interface WarehouseStock {
  scId: string
  scCode: string
  scName: string
  stockNum: number
  taxPrice?: string
  taxAmount?: string
}

/**
 * `GET /stock/product/stockProductDetails?productId[&scId]`: a product's stock in every warehouse (or the
 * one given). A BUNDLE holds no stock of its own (domain rules §2.2): its available quantity in a
 * warehouse is min over its components of ⌊component stock ÷ bundleNum⌋, and 0 when any component has
 * no stock there. Rows go through the products' data permission like the stock list.
 */
export function registerProductStockDetails(app: FastifyInstance, services: Services): void {
  const { registry } = services
  const stock = registry.get('productStock')
  const product = registry.get('product')
  const bundle = registry.get('productBundle')

  defineRoute(app, {
    method: 'GET',
    url: '/stock/product/stockProductDetails',
    access: [PERMISSION.stock.product.query],
    handler: async ({ ctx, query }) => {
      const productId = query.productId
      if (isBlank(productId) || typeof productId !== 'string') throw invalid('请选择商品！', 'productId')
      const scId = typeof query.scId === 'string' && query.scId.trim() ? query.scId.trim() : undefined
      const db = ctx.db
      const main = await db
        .selectFrom(product.table)
        .select(['id', 'code', 'name', 'product_type'])
        .where('id', '=', productId)
        .executeTakeFirst()
      if (!main) throw notFound('商品不存在！')
      const isBundle = Number(main.product_type) === PRODUCT_TYPE.BUNDLE
      const components = isBundle
        ? await db
            .selectFrom(`${bundle.table} as x`)
            .innerJoin(`${product.table} as p`, 'p.id', 'x.product_id')
            .select(['x.product_id', 'x.bundle_num', 'p.code', 'p.name'])
            .where('x.main_product_id', '=', productId)
            .orderBy('x.order_no')
            .execute()
        : []
      const ids = isBundle ? components.map((c) => String(c.product_id)) : [productId]
      const rows = ids.length
        ? await (
            await productJoinedBase(services, db, ctx, stock, [{ field: 'productId', op: 'in' }, { field: 'scId', op: 'eq' }], {
              productId: ids,
              scId,
            })
          )
            .select(['t.product_id', 't.sc_id', 's.code as sc_code', 's.name as sc_name', 't.stock_num', 't.tax_price', 't.tax_amount'])
            .orderBy('s.code')
            .execute()
        : []

      const head = { productId, productCode: main.code, productName: main.name, productType: Number(main.product_type) }
      if (!isBundle) {
        const stocks: WarehouseStock[] = rows.map((r) => ({
          scId: String(r.sc_id),
          scCode: String(r.sc_code),
          scName: String(r.sc_name),
          stockNum: Number(r.stock_num ?? 0),
          taxPrice: new Decimal(String(r.tax_price ?? 0)).toFixed(6),
          taxAmount: new Decimal(String(r.tax_amount ?? 0)).toFixed(2),
        }))
        return { ...head, stockNum: stocks.reduce((n, s) => n + s.stockNum, 0), stocks }
      }

      const warehouses = new Map<string, { scCode: string; scName: string; byProduct: Map<string, number> }>()
      for (const r of rows) {
        const w = warehouses.get(String(r.sc_id)) ?? { scCode: String(r.sc_code), scName: String(r.sc_name), byProduct: new Map() }
        w.byProduct.set(String(r.product_id), Number(r.stock_num ?? 0))
        warehouses.set(String(r.sc_id), w)
      }
      const available = (byProduct: Map<string, number>) =>
        components.length
          ? Math.min(...components.map((c) => Math.floor((byProduct.get(String(c.product_id)) ?? 0) / Math.max(1, Number(c.bundle_num)))))
          : 0
      const stocks: WarehouseStock[] = [...warehouses].map(([id, w]) => ({ scId: id, scCode: w.scCode, scName: w.scName, stockNum: available(w.byProduct) }))
      return {
        ...head,
        stockNum: stocks.reduce((n, s) => n + s.stockNum, 0),
        stocks,
        bundles: components.map((c) => ({
          productId: String(c.product_id),
          productCode: c.code,
          productName: c.name,
          bundleNum: Number(c.bundle_num),
          stockNum: rows.filter((r) => r.product_id === c.product_id).reduce((n, r) => n + Number(r.stock_num ?? 0), 0),
        })),
      }
    },
  })
}
