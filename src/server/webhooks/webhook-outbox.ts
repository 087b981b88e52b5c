import type { Db } from '../db/dialect.js'
import { WEBHOOK_DELIVERY_STATUS as STATUS, WEBHOOK_EVENT } from '../../shared/generated/enum-codes.js'
import { afterCommit } from '../platform/db-tx.js'
import { auditColumns, type Actor } from '../platform/audit-columns.js'
import { now } from '../platform/clock.js'
import { newId } from '../platform/ids.js'
import type { TenantSettings } from '../platform/settings-cache.js'

export type WebhookEvent = (typeof WEBHOOK_EVENT)[keyof typeof WEBHOOK_EVENT]

export const SUBSCRIPTION_TABLE = 'webhook_subscription'
export const DELIVERY_TABLE = 'webhook_delivery'
export const ATTEMPT_TABLE = 'webhook_attempt'

/** Who writes deliveries of events that have no user (a scheduled job, the automatic return). */
export const WEBHOOK_ACTOR: Actor = { userId: 'system', name: '系统' }

/** Dispatchers of this process, woken when a transaction that wrote deliveries commits. */
const wakers = new Set<() => void>()

/** Calls `wake` after each commit that wrote deliveries; answers the function that stops it. */
export function onDeliveriesWritten(wake: () => void): () => void {
  wakers.add(wake)
  return () => wakers.delete(wake)
}

/** Wakes the dispatchers of this process once `trx` has committed (at once outside a transaction). */
export function wakeAfterCommit(trx: Db): void {
  afterCommit(trx, () => {
    for (const wake of wakers) wake()
  })
}

/** One event: what happened and the facts a receiver gets as `data`. */
export interface WebhookEventItem {
  event: WebhookEvent
  data: Record<string, unknown>
}

/** Rows of one INSERT (well below both databases' limit of bound values). */
const ROWS_PER_INSERT = 500

/**
 * Writes events into the outbox: one delivery per event and enabled subscription of its kind, inside
 * `trx`, the transaction of the change the events tell of. A rolled-back change therefore leaves no
 * delivery, and a committed one always has its deliveries, whatever happens to this process after the
 * commit (another process sends them). The payload is `{id, event, occurredAt, data}`; `id` is the same
 * for every subscription and every replay, so a receiver can drop what it has seen. The subscriptions
 * are read once for all the events (an automatic return of many customers); with a request's kept reads
 * (`settings`), once per process until a subscription changes (its entity file declares it `kept`).
 */
export async function emitWebhookEvents(trx: Db, items: WebhookEventItem[], actor: Actor = WEBHOOK_ACTOR, settings?: TenantSettings): Promise<void> {
  if (!items.length) return
  const kinds = new Set(items.map((i) => i.event))
  const subscriptions = settings ? await settings.read(SUBSCRIPTION_TABLE, () => liveSubscriptions(trx)) : await liveSubscriptions(trx, [...kinds])
  const live = subscriptions.filter((s) => kinds.has(s.event as WebhookEvent))
  if (!live.length) return
  const audit = auditColumns(actor)
  const due = Date.now()
  const occurredAt = now()
  const rows = items.flatMap(({ event, data }) => {
    const eventId = newId()
    const payload = JSON.stringify({ id: eventId, event, occurredAt, data })
    return live
      .filter((s) => s.event === event)
      .map((s) => ({
        id: newId(),
        subscription_id: String(s.id),
        subscription_name: String(s.name ?? '').slice(0, 100),
        event,
        event_id: eventId,
        url: String(s.url),
        payload,
        status: STATUS.PENDING,
        attempts: 0,
        next_attempt_at: due,
        ...audit,
      }))
  })
  if (!rows.length) return
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await trx.insertInto(DELIVERY_TABLE).values(rows.slice(i, i + ROWS_PER_INSERT)).execute()
  wakeAfterCommit(trx)
}

/** The enabled subscriptions (of `kinds`, or all), in id order. */
async function liveSubscriptions(db: Db, kinds?: string[]) {
  let query = db.selectFrom(SUBSCRIPTION_TABLE).select(['id', 'name', 'url', 'event', 'available']).orderBy('id')
  if (kinds) query = query.where('event', 'in', kinds)
  // `available` is a boolean on PostgreSQL and 0/1 on SQLite.
  return (await query.execute()).filter((s) => s.available === true || Number(s.available) === 1)
}

/** One event into the outbox of `trx` (see emitWebhookEvents). */
export const emitWebhookEvent = (trx: Db, event: WebhookEvent, data: Record<string, unknown>, actor?: Actor, settings?: TenantSettings): Promise<void> =>
  emitWebhookEvents(trx, [{ event, data }], actor, settings)
