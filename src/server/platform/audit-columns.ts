import { now } from './clock.js'

export interface Actor {
  userId: string
  name: string
}

/** The audit columns of a new row: created and last updated by the actor, now. */
export function auditColumns(actor: Actor) {
  const time = now()
  return {
    create_by: actor.name,
    create_by_id: actor.userId,
    create_time: time,
    update_by: actor.name,
    update_by_id: actor.userId,
    update_time: time,
  }
}

/** The audit columns of an update. */
export function updateColumns(actor: Actor) {
  return { update_by: actor.name, update_by_id: actor.userId, update_time: now() }
}
