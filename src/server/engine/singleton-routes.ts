import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { writableFields } from '../../shared/metadata/validate-record.js'
import { operationKeys } from '../../shared/metadata/operation-keys.js'
import { defineRoute } from '../platform/routes.js'
import { inTransaction } from '../platform/db-tx.js'
import { auditColumns, type Actor } from '../platform/audit-columns.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import { objectBody } from './request-values.js'
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
 * or migrated (db/provision.ts), and by a write that finds no row, never by a read.
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
 * provisioned; until then (or if it was removed) the field defaults answer.
 */
export async function readSingleton(services: Services, db: Db, _ctx: RequestContext, entity: EntityModel): Promise<Wire> {
  const row = await db.selectFrom(entity.table).selectAll().limit(1).executeTakeFirst()
  if (row) return services.codec.fromRow(entity, row)
  return { id: SINGLETON_ID, ...singletonDefaults(entity) }
}

/**
 * `GET {base}` and `PUT {base}` of a configuration (`singleton` entity: purchase, sale, retail,
 * take-stock parameters). Reading is for whoever may change them and for the screens that follow them:
 * the documents whose `follows.config` names the entity (add, modify and query keys).
 */
function readKeys(services: Services, entity: EntityModel): string[] {
  const keys = new Set([...operationKeys(entity, 'query'), ...operationKeys(entity, 'modify')])
  for (const doc of services.registry.documents())
    if (doc.file.document?.follows?.config.entity === entity.name)
      for (const op of ['query', 'create', 'modify'] as const) for (const k of operationKeys(doc, op)) keys.add(k)
  return [...keys]
}

export function registerSingletonRoutes(app: FastifyInstance, services: Services, entity: EntityModel): void {
  const api = entity.file.api
  if (!api) return
  defineRoute(app, {
    method: 'GET',
    url: api.base,
    access: readKeys(services, entity),
    handler: async ({ ctx }) => readSingleton(services, ctx.db, ctx, entity),
  })
  defineRoute(app, {
    method: 'PUT',
    url: api.base,
    access: [`${api.permission}:modify`],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, async (trx) => {
        await ensureSingleton(services.codec, trx, ctx, entity)
        const current = await readSingleton(services, trx, ctx, entity)
        await services.store.modify(trx, ctx, entity, { ...objectBody(body), id: current.id })
      }),
  })
}
