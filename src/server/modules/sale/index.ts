import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { schemaAnswer } from '../../platform/call-routes.js'
import { settle, type InvoiceSheet } from '../../../shared/contracts/settle.js'
import type { Page } from '../../../shared/contracts/call.js'
import { invalid } from '../../platform/errors.js'
import { documentModel } from '../../engine/document-routes.js'
import { DocumentStatus } from '../../../shared/metadata/document-model.js'
import { ADDRESS_ENTITY_TYPE } from '../../../shared/generated/enum-codes.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const requiredId = (value: unknown, message: string, field: string) => {
  if (typeof value !== 'string' || !value) throw invalid(message, field)
  return value
}

/**
 * Sale (spec 001 §7): the calls around orders, out sheets and returns that are not the shared document
 * family.
 */
export function saleModule(app: FastifyInstance, services: Services): void {
  const { documents, registry, store } = services
  const order = documentModel(services, registry.get('saleOrder'))
  const out = documentModel(services, registry.get('saleOutSheet'))

  // The loaders of out sheets (/sale/order/out) and returns (/sale/out/sheet/return) come from the
  // files' `document.follows` (registerSourceLoaders).
  // Approved out sheets, for the customer settlement screens (same filters as the list).
  defineCallListRoute(app, services, settle.invoiceCandidates[1], {
    conditions: paramsOf(services, out.header, out.header.file.views?.list?.query ?? []),
    access: [PERMISSION.sale.out.query],
    handler: async ({ ctx, query }) =>
      schemaAnswer<Page<InvoiceSheet>>(
        await store.list(ctx.db, ctx, out.header, {
          params: [...(out.header.file.views?.list?.query ?? []), { field: 'status', op: 'eq', forced: DocumentStatus.APPROVE_PASS }],
          columns: out.header.file.views?.list?.columns,
          values: query,
          paged: true,
          sort: { field: 'createTime', order: 'desc' },
        }),
      ),
  })
  // The customer's enabled addresses (base_data_address, entity type 客户), default first.
  defineListRoute(app, services, {
    method: 'GET',
    url: '/sale/order/getAddressList',
    conditions: [{ name: 'customerId', label: '客户', kind: 'id' }],
    access: [PERMISSION.sale.order.add, PERMISSION.sale.order.modify, PERMISSION.sale.out.add, PERMISSION.sale.out.modify],
    handler: async ({ ctx, query }) => {
      const customerId = requiredId(query.customerId, '请选择客户', 'customerId')
      const page = await store.list(ctx.db, ctx, registry.get('address'), {
        params: [
          { field: 'entityType', op: 'eq', forced: ADDRESS_ENTITY_TYPE.CUSTOMER },
          { field: 'entityId', op: 'eq', forced: customerId },
          { field: 'available', op: 'eq', forced: true },
        ],
        values: {},
        paged: false,
        sort: { field: 'createTime', order: 'desc' },
      })
      return [...page.datas].sort((a, b) => Number(b.isDefault === true) - Number(a.isDefault === true))
    },
  })
  // The customer's last sale order (latest created, any status) with its lines and agreed payments, or
  // null: the order form offers to repeat it. Out sheets are not considered (orders carry the agreement).
  defineRoute(app, {
    method: 'GET',
    url: '/sale/order/getCustomerLast',
    access: [PERMISSION.sale.order.add, PERMISSION.sale.order.modify],
    handler: async ({ ctx, query }) => {
      const customerId = requiredId(query.customerId, '请选择客户', 'customerId')
      const last = await ctx.db
        .selectFrom('tbl_sale_order')
        .select('id')
        .where('customer_id', '=', customerId)
        // The last order the caller may read: one outside their data permission is not offered.
        .where(await services.store.scope(ctx.db, ctx, order.header))
        .orderBy('create_time', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst()
      return last ? documents.get(ctx.db, ctx, order, String(last.id)) : null
    },
  })
}
