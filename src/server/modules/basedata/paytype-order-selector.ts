import Decimal from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/dialect.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { invalid } from '../../platform/errors.js'
import { pageArgs } from '../../platform/page-args.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import { idsFrom } from '../../engine/request-values.js'
import type { Services } from '../../engine/services.js'
import { routeOf } from '../../platform/call-routes.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'

const ORDER_PAY_TYPES = pickerCalls('paytype/order')

type PayTypeRow = { id: unknown; order_id: unknown; pay_type_id: unknown; code: unknown; name: unknown; pay_amount: unknown; text: unknown }

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/** `{id, orderId, payTypeId, payTypeCode, payTypeName, payAmount, text}`: one agreed payment as the picker shows it. */
const wire = (r: PayTypeRow) => ({
  id: r.id,
  orderId: r.order_id,
  payTypeId: r.pay_type_id,
  payTypeCode: r.code,
  payTypeName: r.name,
  payAmount: new Decimal(String(r.pay_amount)).toFixed(2),
  text: r.text ?? null,
})

/**
 * The agreed payments (约定支付) of orders as a picker (000 §7 Pickers `paytype/order`):
 * - `GET /selector/paytype/order?orderId=&payTypeId=&pageIndex=&pageSize=` answers `{datas, totalCount}`
 *   of one order's agreed payments, in the order they were entered (`订单ID不能为空！` without `orderId`);
 * - `POST /selector/paytype/order/load` with ids answers those rows.
 * An agreed payment belongs to a purchase or sale order (every document file with `agreedPayments`), so
 * it follows its order: the caller needs a key that opens that kind of order (query, modify or approve)
 * and the order must be inside the caller's data permission. An order out of reach answers exactly like
 * a missing one: no rows. Who may call is derived from those files, never kept by hand.
 */
export function registerPayTypeOrderSelector(app: FastifyInstance, services: Services): void {
  const orders = services.registry.documents().filter((d) => d.file.api && d.file.document?.agreedPayments === true)
  const openKeys = (doc: EntityModel) => [...operationKeys(doc, 'query'), ...operationKeys(doc, 'modify'), `${doc.file.api!.permission}:approve`]
  const access = [...new Set(orders.flatMap(openKeys))].sort()

  /** The ids among `orderIds` whose order the caller may open and reach. */
  async function reachable(db: Db, ctx: RequestContext, orderIds: string[]): Promise<Set<string>> {
    const out = new Set<string>()
    if (!orderIds.length) return out
    for (const doc of orders) {
      if (!hasPermission(ctx, openKeys(doc))) continue
      const scope = await services.store.scope(db, ctx, doc)
      const hits = await db.selectFrom(doc.table).select('id').where('id', 'in', orderIds).where(scope).execute()
      for (const h of hits) out.add(String(h.id))
    }
    return out
  }

  const rows = (db: Db) =>
    db
      .selectFrom('tbl_order_pay_type as o')
      .leftJoin('base_data_pay_type as p', 'p.id', 'o.pay_type_id')
      .select(['o.id', 'o.order_id', 'o.pay_type_id', 'p.code', 'p.name', 'o.pay_amount', 'o.text'])

  defineListRoute(app, services, {
    ...routeOf(ORDER_PAY_TYPES.page),
    conditions: [
      { name: 'orderId', label: '订单', kind: 'id' },
      { name: 'payTypeId', label: '支付方式', kind: 'id' },
    ],
    access,
    handler: async ({ ctx, query }) => {
      const orderId = text(query.orderId)
      if (!orderId) throw invalid('订单ID不能为空！', 'orderId')
      const { pageIndex, pageSize } = pageArgs(query)
      if (!(await reachable(ctx.db, ctx, [orderId])).has(orderId)) return { pageIndex, pageSize, totalCount: 0, datas: [] }
      const payTypeId = text(query.payTypeId)
      let base = ctx.db.selectFrom('tbl_order_pay_type as o').where('o.order_id', '=', orderId)
      if (payTypeId) base = base.where('o.pay_type_id', '=', payTypeId)
      const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()
      let page = rows(ctx.db).where('o.order_id', '=', orderId)
      if (payTypeId) page = page.where('o.pay_type_id', '=', payTypeId)
      const datas = await page
        .orderBy('o.create_time')
        .orderBy('o.id')
        .limit(pageSize)
        .offset((pageIndex - 1) * pageSize)
        .execute()
      return { pageIndex, pageSize, totalCount: Number(count?.n ?? 0), datas: datas.map((r) => wire(r as PayTypeRow)) }
    },
  })

  defineRoute(app, {
    ...routeOf(ORDER_PAY_TYPES.load),
    access,
    handler: async ({ ctx, body, query }) => {
      const ids = [...new Set(idsFrom(body, query))]
      if (ids.length > 1000) throw invalid('一次最多加载1000条数据', 'ids')
      const found = (await rows(ctx.db).where('o.id', 'in', ids).execute()) as PayTypeRow[]
      const open = await reachable(ctx.db, ctx, [...new Set(found.map((r) => String(r.order_id)))])
      const byId = new Map(found.filter((r) => open.has(String(r.order_id))).map((r) => [String(r.id), r]))
      return ids.flatMap((id) => {
        const r = byId.get(id)
        return r ? [wire(r)] : []
      })
    },
  })
}
