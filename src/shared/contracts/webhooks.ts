import { defineCall } from './call.js'

/**
 * Webhooks (系统管理 › 事件订阅 / 投递记录): subscriptions and the delivery lists are the generic calls of
 * the webhookSubscription, webhookDelivery and webhookAttempt entities; only 重新投递 is its own call.
 */
export const webhook = {
  /** Sends the event of a delivered or failed delivery again, as a new delivery to the subscription's URL; answers its id. */
  replay: defineCall<{ id: string }, string>('POST', '/system/webhook/delivery/replay'),
}
