import type { Db } from '../db/dialect.js'
import { now } from './clock.js'
import { newId } from './ids.js'

/** OP_LOG_TYPE codes of the spec. */
export const OpLogType = { AUTH: 1, OTHER: 99 } as const

export interface OpLogActor {
  userId: string
  name: string
  ip?: string
}

/**
 * Writes one operation-log row into the tenant database, inside the caller's transaction so a
 * rolled-back write leaves no log either. Table and columns come from schemas/entities/op-log.json.
 */
export async function writeOpLog(db: Db, actor: OpLogActor, name: string, logType: number, extra?: unknown) {
  const time = now()
  await db
    .insertInto('op_logs')
    .values({
      id: newId(),
      name: name.slice(0, 200),
      log_type: logType,
      ip: actor.ip ?? null,
      extra: extra === undefined ? null : JSON.stringify(extra).slice(0, 4000),
      create_by: actor.name,
      create_by_id: actor.userId,
      create_time: time,
      update_by: actor.name,
      update_by_id: actor.userId,
      update_time: time,
    })
    .execute()
}
