import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { writableFields } from '../../shared/metadata/validate-record.js'
import { auditColumns, type Actor } from '../platform/audit-columns.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from './services.js'
import type { EntityRegistry } from './entity-registry.js'
import { afterCommit } from '../platform/db-tx.js'
import type { RecordCodec, Wire } from './record-codec.js'

/** The default values of a configuration entity's one row (its fields' `default`s). */
export function singletonDefaults(entity: EntityModel): Wire {
  const defaults: Wire = {}
  for (const f of writableFields(entity)) if (f.default !== undefined) defaults[f.name] = f.default
  return defaults
}

/** The id of a configuration entity's one row. */
export const SINGLETON_ID = '1'

/**
 * Stores the defaults of a configuration entity unless its row exists: run when a tenant is created
 * or migrated (engine/provision.ts), and by a write that finds no row, never by a read.
 */
export async function ensureSingleton(codec: RecordCodec, db: Db, actor: Actor, entity: EntityModel): Promise<void> {
  const row = await db.selectFrom(entity.table).select('id').limit(1).executeTakeFirst()
  if (row) return
  await db
    .insertInto(entity.table)
    .values({ ...codec.toRow(singletonDefaults(entity), writableFields(entity)), id: SINGLETON_ID, ...auditColumns(actor) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

/**
 * The one row of a configuration entity. A read never writes: a tenant gets the row when it is
 * provisioned; until then (or if it was removed) the field defaults answer. Through the process's settings
 * cache when the call is a request's (`ctx.settings`; a job's read reads the row), as a copy.
 */
export async function readSingleton(services: Services, db: Db, ctx: RequestContext | null, entity: EntityModel): Promise<Wire> {
  const read = async (): Promise<Wire> => {
    const row = await db.selectFrom(entity.table).selectAll().limit(1).executeTakeFirst()
    if (row) return services.codec.fromRow(entity, row)
    return { id: SINGLETON_ID, ...singletonDefaults(entity) }
  }
  return { ...(ctx?.settings ? await ctx.settings.read(entity.table, read) : await read()) }
}

/** What every process keeps of a tenant (platform/settings-cache.ts): the configurations and the entities declared `kept`. */
export const keptEntities = (registry: EntityRegistry): EntityModel[] =>
  registry.all().filter((e) => e.scope === 'tenant' && (e.file.singleton === true || e.file.kept === true))

/**
 * A write to a kept entity (a configuration's save included) drops this process's copy when it commits, so this
 * process reads the new values at once; the other processes drop theirs when the trigger's notification reaches them.
 */
export function dropKeptOnWrite(services: Services): void {
  const changed = async ({ trx }: { trx: Db }) => afterCommit(trx, () => services.settings.invalidate())
  for (const entity of keptEntities(services.registry))
    services.hooks.on(entity.name, { afterSave: changed, beforeDelete: changed, beforeAvailable: changed })
}
