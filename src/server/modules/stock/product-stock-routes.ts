import Decimal from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/dialect.js'
import { defineListRoute } from '../../engine/list-routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { countOf, pageArgs, productColumns, productJoinedConditions, productJoinedBase, selectProductColumns } from './product-join.js'
import { EXPORT_LIMIT, exportValues, sendWorkbook } from './xlsx-export.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const dec = (v: unknown, places: number) => new Decimal(String(v ?? 0)).toFixed(places)

/**
 * 商品库存: `GET /stock/product/query` (paged) and `GET|POST /stock/product/export` (xlsx). Filters: scId
 * (declared in product-stock.json), productCode, productName, skuCode, categoryId (with its
 * subcategories), brandId (one or several); rows are narrowed by the products' data permission.
 */
export function registerProductStockRoutes(app: FastifyInstance, services: Services): void {
  const entity = services.registry.get('productStock')
  const ownParams = entity.file.views?.list?.query ?? []

  async function list(db: Db, ctx: RequestContext, values: Record<string, unknown>, paged: boolean) {
    const base = await productJoinedBase(services, db, ctx, entity, ownParams, values)
    const { pageIndex, pageSize } = paged ? pageArgs(values) : { pageIndex: 1, pageSize: EXPORT_LIMIT }
    const totalCount = paged ? await countOf(base) : 0
    const rows = await selectProductColumns(base)
      .select(['t.stock_num', 't.tax_price', 't.tax_amount'])
      .orderBy('p.code')
      .orderBy('s.code')
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize)
      .execute()
    const datas = rows.map((r) => ({
      ...productColumns(r),
      stockNum: Number(r.stock_num ?? 0),
      taxPrice: dec(r.tax_price, 6),
      taxAmount: dec(r.tax_amount, 2),
    }))
    return { pageIndex, pageSize, totalCount: paged ? totalCount : datas.length, datas }
  }

  const conditions = productJoinedConditions(services, entity, ownParams)
  defineListRoute(app, services, {
    method: 'GET',
    url: '/stock/product/query',
    conditions,
    access: [PERMISSION.stock.product.query],
    handler: async ({ ctx, query }) => list(ctx.db, ctx, query, true),
  })

  for (const method of ['GET', 'POST'] as const)
    defineListRoute(app, services, {
      method,
      url: '/stock/product/export',
      conditions,
      access: [PERMISSION.stock.product.export],
      handler: async ({ ctx, query, body, reply }) => {
        const page = await list(ctx.db, ctx, exportValues(query, body), false)
        return sendWorkbook(
          reply,
          entity.label,
          [
            { header: '仓库编号', key: 'scCode' },
            { header: '仓库名称', key: 'scName' },
            { header: '商品编号', key: 'productCode' },
            { header: '商品名称', key: 'productName' },
            { header: 'SKU', key: 'skuCode' },
            { header: '类目', key: 'categoryName' },
            { header: '品牌', key: 'brandName' },
            { header: '规格', key: 'spec' },
            { header: '单位', key: 'unit' },
            { header: '库存数量', key: 'stockNum' },
            { header: '含税成本价', key: 'taxPrice' },
            { header: '含税成本金额', key: 'taxAmount' },
          ],
          page.datas,
        )
      },
    })
}
