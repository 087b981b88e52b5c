import type { Db } from '../db/dialect.js'
import { ORDER_TIME_LINE_BIZ_TYPE } from '../../shared/generated/enum-codes.js'
import { now } from '../platform/clock.js'
import { newId } from '../platform/ids.js'
import type { RequestContext } from '../platform/request-context.js'

export { ORDER_TIME_LINE_BIZ_TYPE as TimelineType }

/** One timeline row (tbl_order_time_line, schemas/entities/order-time-line.json) per document action. */
export async function addTimeline(trx: Db, ctx: RequestContext, orderId: string, bizType: number, content: string) {
  await timelineInsert(trx, ctx, orderId, bizType, content).execute()
}

/** The INSERT of addTimeline, not yet run (to be written with other statements, db/write-together.ts). */
export function timelineInsert(trx: Db, ctx: RequestContext, orderId: string, bizType: number, content: string) {
  return trx
    .insertInto('tbl_order_time_line')
    .values({
      id: newId(),
      order_id: orderId,
      biz_type: bizType,
      content,
      create_by: ctx.name,
      create_by_id: ctx.userId,
      create_time: now(),
      update_by: ctx.name,
      update_by_id: ctx.userId,
      update_time: now(),
    })
}

/** Deleting a document deletes its timeline. */
export async function removeTimeline(trx: Db, orderId: string) {
  await trx.deleteFrom('tbl_order_time_line').where('order_id', '=', orderId).execute()
}

/** Newest first, as `/component/timeline/order` answers it. */
export async function timelineOf(db: Db, orderId: string) {
  const rows = await db
    .selectFrom('tbl_order_time_line')
    .select(['id', 'biz_type', 'content', 'create_by', 'create_time'])
    .where('order_id', '=', orderId)
    .orderBy('create_time', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map((r) => ({ id: r.id, bizType: Number(r.biz_type), content: r.content, createBy: r.create_by, createTime: String(r.create_time) }))
}
