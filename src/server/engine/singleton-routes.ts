import type { FastifyInstance } from 'fastify'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { operationKeys } from '../../shared/metadata/operation-keys.js'
import { defineRoute } from '../platform/routes.js'
import { inTransaction } from '../platform/db-tx.js'
import type { Services } from './services.js'
import { objectBody } from './request-values.js'
import { ensureSingleton, readSingleton } from './singletons.js'
import { singletonCalls } from '../../shared/contracts/singleton-calls.js'
import { routeOf } from '../platform/call-routes.js'

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
  const calls = singletonCalls(api.base)
  defineRoute(app, {
    ...routeOf(calls.read, { entity: entity.name, answer: 'record' }),
    access: readKeys(services, entity),
    handler: async ({ ctx }) => readSingleton(services, ctx.db, ctx, entity),
  })
  defineRoute(app, {
    ...routeOf(calls.save, { entity: entity.name, answer: 'none', body: 'record' }),
    access: [`${api.permission}:modify`],
    handler: async ({ ctx, body }) => {
      await inTransaction(ctx.db, async (trx) => {
        await ensureSingleton(services.codec, trx, ctx, entity)
        const current = await trx.selectFrom(entity.table).select('id').limit(1).executeTakeFirstOrThrow()
        await services.store.modify(trx, ctx, entity, { ...objectBody(body), id: String(current.id) })
      })
    },
  })
}
