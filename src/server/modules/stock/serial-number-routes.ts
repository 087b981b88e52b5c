import type { FastifyInstance } from 'fastify'
import { PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid } from '../../platform/errors.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import type { Services } from '../../engine/services.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const KEY = PERMISSION.stock.product.serialize

/**
 * 商品序列号 (menu button 维护商品序列号): serial numbers of a product in a warehouse, kept in
 * tbl_product_serialize (product-serial.json: required, unique and length messages). The spec names the
 * calls `querySerialize`, `delSerialize` and `saveOrUpdateSerialize` under /stock/product only; v3 has no
 * such feature, so the shape is ours: one record per serial number, saved through the generic store
 * (validation, uniqueness per tenant database, references, op log). Only NORMAL products carry serial
 * numbers, as only they hold stock.
 */
export function registerSerialNumberRoutes(app: FastifyInstance, services: Services): void {
  const { store, registry, hooks } = services
  const entity = registry.get('productSerial')
  const product = registry.get('product')
  const list = entity.file.views?.list

  hooks.on(entity.name, {
    async beforeSave({ trx, values, existing }) {
      const productId = values.productId ?? existing?.productId
      if (isBlank(productId)) return
      const row = await trx.selectFrom(product.table).select(['code', 'name', 'product_type']).where('id', '=', String(productId)).executeTakeFirst()
      if (row && Number(row.product_type) !== PRODUCT_TYPE.NORMAL)
        throw invalid(`商品（${row.code}）${row.name}是组合商品，不能维护序列号！`, 'productId')
    },
  })

  defineListRoute(app, services, {
    method: 'GET',
    url: '/stock/product/querySerialize',
    conditions: paramsOf(services, entity, list?.query ?? []),
    access: [KEY, PERMISSION.stock.product.query],
    handler: async ({ ctx, query }) =>
      store.list(ctx.db, ctx, entity, { params: list?.query ?? [], columns: list?.columns, values: query, paged: true, sort: list?.sort }),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/stock/product/saveOrUpdateSerialize',
    access: [KEY],
    handler: async ({ ctx, body }) => {
      const values = objectBody(body)
      return inTransaction(ctx.db, async (trx) => {
        if (isBlank(values.id)) return store.create(trx, ctx, entity, values)
        await store.modify(trx, ctx, entity, values)
        return String(values.id)
      })
    },
  })

  defineRoute(app, {
    method: 'DELETE',
    url: '/stock/product/delSerialize',
    access: [KEY],
    handler: async ({ ctx, body, query }) => {
      const ids = idsFrom(body, query)
      await inTransaction(ctx.db, (trx) => store.remove(trx, ctx, entity, ids))
      return null
    },
  })
}
