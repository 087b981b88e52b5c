import type { MessageBus, PublishOptions } from './message-bus.js'

/** What publishing needs of the app's services. */
type WithBus = { bus: MessageBus }

/**
 * Sends a bus message to one user: recorded for `/message/bus/query` and emitted as event `event` (a
 * BusMessage whose `data` is `payload`) to every socket of the user, in every server process. Pass the
 * write's transaction as `options.trx` so it goes out only if that write commits. `event` is a short
 * name (letters, digits, `_.:-`); `payload` must be JSON of at most 6,000 bytes: otherwise a BizError
 * (400) is thrown before anything is written.
 */
export function publishToUser(
  services: WithBus,
  tenantId: string,
  userId: string,
  event: string,
  payload: unknown,
  options?: PublishOptions,
): Promise<void> {
  return services.bus.publishToUser(tenantId, userId, event, payload, options)
}

/** Sends a bus message to every user of a tenant (same rules as publishToUser). */
export function publishToTenant(services: WithBus, tenantId: string, event: string, payload: unknown, options?: PublishOptions): Promise<void> {
  return services.bus.publishToTenant(tenantId, event, payload, options)
}
