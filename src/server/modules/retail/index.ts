import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import { invalid } from '../../platform/errors.js'
import { documentModel } from '../../engine/document-routes.js'
import { retailPaymentDate } from '../../domain/sale/customer-terms.js'
import { PRODUCT_SEARCH_CONDITIONS, searchProducts } from '../../domain/product/search.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { declaredCallOf } from '../../engine/declared-call-routes.js'

/**
 * Retail (spec 001 §7): the calls around retail out sheets and returns that are not the shared document
 * family.
 */
export function retailModule(app: FastifyInstance, services: Services): void {
  const { documents, registry } = services
  const out = documentModel(services, registry.get('retailOutSheet'))
  const enabled = services.codec.toFilter(registry.get('product').byName.get('available')!, true)
  const lineEditors = [PERMISSION.retail.out.add, PERMISSION.retail.out.modify, PERMISSION.retail.return.add, PERMISSION.retail.return.modify]

  // `isReturn` (return screens) changes nothing here: the search never hides products without stock.
  defineCallListRoute(app, services, declaredCallOf.productSearch(services, 'retailOutSheet'), {
    conditions: PRODUCT_SEARCH_CONDITIONS,
    access: lineEditors,
    handler: async ({ ctx, params }) => searchProducts(ctx.db, params, false, enabled),
  })
  defineListRoute(app, services, {
    method: 'GET',
    url: '/retail/out/sheet/product/list',
    conditions: PRODUCT_SEARCH_CONDITIONS,
    access: lineEditors,
    handler: async ({ ctx, query }) => searchProducts(ctx.db, query, true, enabled),
  })
  // The retail return's loader (/retail/out/sheet/return) comes from its file's `document.follows` (registerSourceLoaders).
  defineRoute(app, {
    method: 'GET',
    url: '/retail/out/sheet/print',
    access: [PERMISSION.retail.out.query],
    handler: async ({ ctx, query }) => documents.get(ctx.db, ctx, out, query.id),
  })
  // Members have no payment terms: today, and the user may change it.
  defineRoute(app, {
    method: 'GET',
    url: '/retail/out/sheet/paymentdate',
    access: lineEditors,
    handler: async ({ ctx, query }) => {
      if (query.memberId !== undefined && typeof query.memberId !== 'string') throw invalid('请选择会员', 'memberId')
      if (query.memberId) {
        const member = await ctx.db.selectFrom('base_data_member').select('id').where('id', '=', query.memberId).executeTakeFirst()
        if (!member) throw invalid('会员不存在', 'memberId')
      }
      return { allowModify: true, paymentDate: retailPaymentDate(undefined) }
    },
  })
}
