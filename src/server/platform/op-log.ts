import type { Db } from '../db/dialect.js'
import { auditColumns } from './audit-columns.js'
import { newId } from './ids.js'

/** OP_LOG_TYPE codes, from schemas/enums.json. */
export { OP_LOG_TYPE as OpLogType } from '../../shared/generated/enum-codes.js'

export interface OpLogActor {
  userId: string
  name: string
  ip?: string
  /** The API token the call came with (the op log says so). */
  apiToken?: { id: string; name: string }
}

/**
 * Writes one operation-log row into the tenant database, inside the caller's transaction so a
 * rolled-back write leaves no log either. Table and columns come from schemas/entities/op-log.json.
 */
export async function writeOpLog(db: Db, actor: OpLogActor, name: string, logType: number, extra?: unknown) {
  await opLogInsert(db, actor, name, logType, extra).execute()
}

/** The INSERT of writeOpLog, not yet run (to be written with other statements, db/write-together.ts). */
export function opLogInsert(db: Db, actor: OpLogActor, name: string, logType: number, extra?: unknown) {
  return db
    .insertInto('op_logs')
    .values({
      id: newId(),
      name: name.slice(0, 200),
      log_type: logType,
      ip: actor.ip ?? null,
      extra: withToken(extra, actor) === undefined ? null : JSON.stringify(withToken(extra, actor)).slice(0, 4000),
      ...auditColumns(actor),
    })
}

/** The extra of a row written by a call through an API token carries the token (id and name, never the token). */
function withToken(extra: unknown, actor: OpLogActor): unknown {
  if (!actor.apiToken) return extra
  const base = extra === undefined ? {} : extra && typeof extra === 'object' && !Array.isArray(extra) ? extra : { value: extra }
  return { ...base, apiToken: actor.apiToken }
}
