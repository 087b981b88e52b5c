import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { checkField } from '../../../shared/metadata/validate-record.js'
import { paymentsMatch } from '../../../shared/metadata/document-totals.js'
import { invalid } from '../../platform/errors.js'
import { auditColumns } from '../../platform/audit-columns.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'
import type { Wire } from '../../engine/record-codec.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { Services } from '../../engine/services.js'

/**
 * Agreed payments (约定支付) of purchase and sale orders, `payTypes: [{id, payAmount, text}]` on the
 * wire (`id` is the pay type), kept in tbl_order_pay_type. Their amounts must add up to the order's
 * total exactly; an order with a total needs at least one before it can be approved (domain-rules §2.1).
 */
export function readPayTypes(registry: EntityRegistry, body: unknown, totalAmount: string): Wire[] {
  const entity = registry.get('orderPayType')
  const raw = body && typeof body === 'object' ? (body as Wire).payTypes : undefined
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) throw invalid('请求参数格式错误', 'payTypes')
  const items = ((raw as unknown[] | undefined) ?? []).map((item, i) => {
    const p = (item && typeof item === 'object' ? item : {}) as Wire
    const line = { payTypeId: p.payTypeId ?? p.id, payAmount: p.payAmount, text: p.text }
    for (const name of ['payTypeId', 'payAmount', 'text']) {
      const message = checkField(entity.byName.get(name)!, line[name as keyof typeof line], registry.enums, 'create')
      if (message) throw invalid(`第${i + 1}个支付方式：${message}`, 'payTypes')
    }
    return line as Wire
  })
  if (items.length && !paymentsMatch(items, totalAmount)) throw invalid('所有支付方式的支付金额不等于含税总金额，请检查！', 'payTypes')
  return items
}

export async function savePayTypes(trx: Db, ctx: RequestContext, orderId: string, items: Wire[]) {
  await trx.deleteFrom('tbl_order_pay_type').where('order_id', '=', orderId).execute()
  const ids = [...new Set(items.map((p) => String(p.payTypeId)))]
  if (ids.length) {
    const found = await trx.selectFrom('base_data_pay_type').select('id').where('id', 'in', ids).execute()
    if (found.length !== ids.length) throw invalid('支付方式不存在', 'payTypes')
  }
  if (!items.length) return
  await trx
    .insertInto('tbl_order_pay_type')
    .values(
      items.map((p) => ({
        id: newId(),
        order_id: orderId,
        pay_type_id: String(p.payTypeId),
        pay_amount: new Decimal(String(p.payAmount)).toFixed(2),
        text: isBlank(p.text) ? null : String(p.text),
        ...auditColumns(ctx),
      })),
    )
    .execute()
}

export async function removePayTypes(trx: Db, orderId: string) {
  await trx.deleteFrom('tbl_order_pay_type').where('order_id', '=', orderId).execute()
}

/** `[{id, payTypeId, payTypeName, payAmount, text}]`, as the detail answer carries them. */
export async function payTypesOf(db: Db, orderId: string): Promise<Wire[]> {
  const rows = await db
    .selectFrom('tbl_order_pay_type as o')
    .leftJoin('base_data_pay_type as p', 'p.id', 'o.pay_type_id')
    .select(['o.pay_type_id', 'p.name', 'o.pay_amount', 'o.text'])
    .where('o.order_id', '=', orderId)
    .orderBy('o.create_time')
    .orderBy('o.id')
    .execute()
  return rows.map((r) => ({ id: r.pay_type_id, payTypeId: r.pay_type_id, payTypeName: r.name, payAmount: new Decimal(String(r.pay_amount)).toFixed(2), text: r.text }))
}

/** Approval needs agreed payments when the order has a total. */
export async function requirePayTypes(db: Db, orderId: string, totalAmount: unknown) {
  if (new Decimal(String(totalAmount ?? 0)).isZero()) return
  const one = await db.selectFrom('tbl_order_pay_type').select('id').where('order_id', '=', orderId).executeTakeFirst()
  if (!one) throw invalid('单据没有约定支付，请检查！')
}

/** The hooks of an order with agreed payments (purchase and sale orders): saved with it, removed with it, required to approve it, answered with it. */
export function agreedPaymentHooks(services: Services): DocumentHooks {
  return {
    async saved({ trx, ctx, id, header, body }) {
      await savePayTypes(trx, ctx, id, readPayTypes(services.registry, body, String(header.totalAmount)))
    },
    async release({ trx, id }) {
      await removePayTypes(trx, id)
    },
    async beforeApprove({ trx, id, header }) {
      await requirePayTypes(trx, id, header.totalAmount)
    },
    async decorate(db, _ctx, _doc, answer) {
      answer.payTypes = await payTypesOf(db, String(answer.id))
    },
  }
}
