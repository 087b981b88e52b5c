import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { writableFields } from '../../shared/metadata/validate-record.js'
import { defineRoute } from '../platform/routes.js'
import { inTransaction } from '../platform/db-tx.js'
import { auditColumns } from '../platform/audit-columns.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import { objectBody } from './request-values.js'
import type { Wire } from './record-codec.js'

/** The one row of a configuration entity; the first read stores the field defaults. */
export async function readSingleton(services: Services, db: Db, ctx: RequestContext, entity: EntityModel): Promise<Wire> {
  const row = await db.selectFrom(entity.table).selectAll().limit(1).executeTakeFirst()
  if (row) return services.codec.fromRow(entity, row)
  const defaults: Wire = {}
  for (const f of writableFields(entity)) if (f.default !== undefined) defaults[f.name] = f.default
  const id = '1'
  await db
    .insertInto(entity.table)
    .values({ ...services.codec.toRow(defaults, writableFields(entity)), id, ...auditColumns(ctx) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  return readSingleton(services, db, ctx, entity)
}

/**
 * `GET {base}` and `PUT {base}` of a configuration (`singleton` entity: purchase, sale, retail,
 * take-stock parameters). Reading needs only a login: documents follow these rules for every user.
 */
export function registerSingletonRoutes(app: FastifyInstance, services: Services, entity: EntityModel): void {
  const api = entity.file.api
  if (!api) return
  defineRoute(app, {
    method: 'GET',
    url: api.base,
    access: 'login',
    handler: async ({ ctx }) => readSingleton(services, ctx.db, ctx, entity),
  })
  defineRoute(app, {
    method: 'PUT',
    url: api.base,
    access: [`${api.permission}:modify`],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, async (trx) => {
        const current = await readSingleton(services, trx, ctx, entity)
        await services.store.modify(trx, ctx, entity, { ...objectBody(body), id: current.id })
      }),
  })
}
