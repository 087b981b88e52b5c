import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { EntityHooks } from '../../engine/entity-hooks.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { sendPersonalNotice } from '../../platform/notices.js'
import { publishToUser } from '../../realtime/publish.js'

/** A batch send reaches at most this many colleagues at once. */
export const MAX_RECEIVERS = 200

/**
 * 便捷办公 records (online spreadsheets, file box files) belong to one user, `owner_id`: the store puts
 * this predicate under every list, get and write, so someone else's record answers 不存在 exactly like
 * a missing one. A create is the caller's.
 */
export function ownedRows(): EntityHooks {
  return {
    restrictRows: ({ ctx }) => sql<SqlBool>`${sql.ref('t.owner_id')} = ${ctx.userId}`,
    // ownerId is read-only to clients: set here, after the store's insert.
    async afterSave({ trx, ctx, entity, mode, id }) {
      if (mode === 'create') await trx.updateTable(entity.table).set({ owner_id: ctx.userId }).where('id', '=', id).execute()
    },
  }
}

/**
 * The receivers of a send: `userId` (send) or `userIds` (send/batch), distinct, not the sender, at most
 * MAX_RECEIVERS, each an enabled user of the tenant.
 */
export async function receiversOf(services: Services, trx: Db, ctx: RequestContext, body: Record<string, unknown>, batch: boolean): Promise<{ id: string; name: string }[]> {
  const raw = batch ? body.userIds : body.userId
  const ids = batch ? (Array.isArray(raw) ? raw : []) : typeof raw === 'string' && raw.trim() ? [raw] : []
  if (!ids.length || ids.some((u) => typeof u !== 'string' || !u.trim())) throw invalid('请选择接收人', batch ? 'userIds' : 'userId')
  const wanted = [...new Set((ids as string[]).map((u) => u.trim()))]
  if (wanted.includes(ctx.userId)) throw invalid('不能发送给自己', batch ? 'userIds' : 'userId')
  if (wanted.length > MAX_RECEIVERS) throw invalid(`一次最多发送给${MAX_RECEIVERS}人`, 'userIds')
  const user = services.registry.get('user')
  const enabled = services.codec.toColumn(user.byName.get('available') as FieldModel, true)
  const found = await trx.selectFrom('sys_user').select(['id', 'name']).where('id', 'in', wanted).where('available', '=', enabled).execute()
  if (found.length !== wanted.length) throw invalid('接收人不存在或已停用', batch ? 'userIds' : 'userId')
  return found.map((u) => ({ id: String(u.id), name: String(u.name) }))
}

/**
 * Tells a receiver what arrived, in the same transaction as the copy (a rolled-back send tells nobody):
 * a personal notice the header bell shows. Keyed by the copy's id, so it is sent once.
 */
export async function notifyReceiver(services: Services, trx: Db, ctx: RequestContext, receiverId: string, copyId: string, what: string, name: string) {
  const place = what === '文件' ? '文件收纳箱' : '在线Excel'
  await sendPersonalNotice(services, trx, receiverId, `sw:${copyId}`, `${ctx.name}发送了${what}：${name}`, `${ctx.name}向您发送了${what}「${name}」，请在${place}中查看。`)
  // And at once on the bus (after the commit): the bell's 消息 tab lists it and leads to the list.
  await publishToUser(services, ctx.tenantId, receiverId, 'sw.received', {
    title: `${ctx.name}发送了${what}：${name}`,
    jumpUrl: what === '文件' ? '/smart-work/file-box' : '/smart-work/online-excel',
    id: copyId,
  }, { trx })
}
