import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { webhook } from '../../../shared/contracts/webhooks.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { WEBHOOK_DELIVERY_STATUS as STATUS } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { auditColumns } from '../../platform/audit-columns.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid, notFound } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import { OpLogType, writeOpLog } from '../../platform/op-log.js'
import { checkTarget } from '../../webhooks/webhook-target.js'
import { DELIVERY_TABLE, SUBSCRIPTION_TABLE, wakeAfterCommit } from '../../webhooks/webhook-outbox.js'
import { newWebhookSecret } from '../../webhooks/webhook-signature.js'

export const DELIVERY_MISSING = '投递记录不存在！'
export const DELIVERY_RUNNING = '该投递尚未结束，不能重新投递'
export const SUBSCRIPTION_MISSING = '订阅已删除，不能重新投递'

/**
 * 事件订阅: the subscription's URL is checked when saved (the same check runs again at every delivery),
 * and its secret is made by the server on create. 投递记录 › 重新投递: a new delivery of the same event
 * (same event id, same body) to the subscription's current URL, sent after this commit.
 */
export function webhookRoutes(app: FastifyInstance, services: Services): void {
  const policy = { allowPrivate: services.config.webhookAllowPrivate }
  services.hooks.on('webhookSubscription', {
    beforeSave: async ({ values }) => {
      // The record's own validation (required, length) has run: a URL is there on create.
      if (!isBlank(values.url)) {
        const target = await checkTarget(String(values.url), policy)
        values.url = target.url.href
      }
    },
    afterSave: async ({ trx, mode, id }) => {
      if (mode === 'create') await trx.updateTable(SUBSCRIPTION_TABLE).set({ secret: newWebhookSecret() }).where('id', '=', id).execute()
    },
  })

  defineCallRoute(app, webhook.replay, {
    access: [PERMISSION.system.webhookDelivery.replay],
    handler: async ({ ctx, params }) => {
      const id = params?.id
      if (isBlank(id) || typeof id !== 'string') throw invalid('请选择投递记录', 'id')
      return inTransaction(ctx.db, async (trx) => {
        const delivery = await trx.selectFrom(DELIVERY_TABLE).selectAll().where('id', '=', id).executeTakeFirst()
        if (!delivery) throw notFound(DELIVERY_MISSING)
        if (delivery.status !== STATUS.DELIVERED && delivery.status !== STATUS.FAILED) throw invalid(DELIVERY_RUNNING)
        const subscription = await trx.selectFrom(SUBSCRIPTION_TABLE).select(['id', 'name', 'url']).where('id', '=', String(delivery.subscription_id)).executeTakeFirst()
        if (!subscription) throw invalid(SUBSCRIPTION_MISSING)
        const replayId = newId()
        await trx
          .insertInto(DELIVERY_TABLE)
          .values({
            id: replayId,
            subscription_id: String(subscription.id),
            subscription_name: String(subscription.name ?? '').slice(0, 100),
            event: delivery.event,
            event_id: delivery.event_id,
            url: String(subscription.url),
            payload: delivery.payload,
            status: STATUS.PENDING,
            attempts: 0,
            next_attempt_at: Date.now(),
            replay_of: id,
            ...auditColumns(ctx),
          })
          .execute()
        await writeOpLog(trx, ctx, `重新投递事件，事件ID：${String(delivery.event_id)}`, OpLogType.OTHER, { id: replayId })
        wakeAfterCommit(trx)
        return replayId
      })
    },
  })
}
