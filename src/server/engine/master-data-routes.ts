import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import type { ApiPath } from '../../shared/generated/entity.js'
import { defineRoute, type AuthedInput } from '../platform/routes.js'
import { forbidden } from '../platform/errors.js'
import { inTransaction } from '../platform/db-tx.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from './services.js'
import { hasOperation, operationKeys } from '../../shared/metadata/operation-keys.js'
import { idsFrom, objectBody } from './request-values.js'
import { sendListExport } from './list-export.js'
import { exportCell, exportFields } from './export-cells.js'
import { registerSingletonRoutes } from './singleton-routes.js'
import { loadExcelJs } from '../platform/heavy-modules.js'
import { defineListRoute, paramsOf } from './list-routes.js'
import { entityCalls } from '../../shared/contracts/entity-calls.js'

/** The database an entity lives in for this caller; platform objects only for the operator tenant. */
export function dbFor(services: Services, ctx: RequestContext, entity: EntityModel): Db {
  if (entity.scope === 'tenant') return ctx.db
  if (ctx.tenantId !== services.operatorTenantId) throw forbidden()
  return services.databases.platform
}

/** Registers the master-data family of every entity that declares an `api`. */
export function registerMasterDataRoutes(app: FastifyInstance, services: Services): void {
  const { store } = services
  for (const entity of services.registry.all()) {
    const api = entity.file.api
    if (!api || entity.file.document) continue
    if (entity.file.singleton) {
      registerSingletonRoutes(app, services, entity)
      continue
    }
    const list = entity.file.views?.list
    const listRequest = (values: Record<string, unknown>) => ({
      params: list?.query ?? [],
      columns: list?.columns,
      values,
      paged: list?.paged !== false,
      sort: list?.sort,
    })
    const conditions = paramsOf(services, entity, list?.query ?? [])

    const db = (ctx: RequestContext) => dbFor(services, ctx, entity)
    /** The generic call of each operation: served under base and under every path the file declares. */
    const calls: Record<ApiPath['operation'], (input: AuthedInput) => Promise<unknown>> = {
      query: async ({ ctx, query }) => {
        const page = await store.list(db(ctx), ctx, entity, listRequest(query))
        return list?.paged === false ? page.datas : page
      },
      get: async ({ ctx, query }) => store.get(db(ctx), ctx, entity, query.id),
      create: async ({ ctx, body }) => inTransaction(db(ctx), (trx) => store.create(trx, ctx, entity, objectBody(body))),
      modify: async ({ ctx, body }) => inTransaction(db(ctx), (trx) => store.modify(trx, ctx, entity, objectBody(body))),
      delete: async ({ ctx, body, query }) => inTransaction(db(ctx), (trx) => store.remove(trx, ctx, entity, idsFrom(body, query))),
    }
    const answers = { query: list?.paged === false ? 'rows' : 'page', get: 'record', create: 'id', modify: 'none', delete: 'none' } as const
    const bodies = { create: 'record', modify: 'record', delete: 'ids' } as const
    const serve = (operation: ApiPath['operation'], method: ApiPath['method'], url: string) => {
      const doc = { entity: entity.name, answer: answers[operation], ...(operation in bodies ? { body: bodies[operation as keyof typeof bodies] } : {}) }
      const route = { method, url, access: operationKeys(entity, operation), handler: calls[operation], doc }
      if (operation === 'query') defineListRoute(app, services, { ...route, conditions })
      else defineRoute(app, route)
    }
    // Method and path of each call from the contract family the browser calls through.
    const family = entityCalls(api.base)
    for (const operation of ['query', 'get', 'create', 'modify', 'delete'] as const)
      if (hasOperation(entity, operation)) serve(operation, family[operation].method, family[operation].path)
    for (const path of api.paths ?? []) serve(path.operation, path.method, path.path)
    if (hasOperation(entity, 'trees'))
      defineListRoute(app, services, {
        method: family.trees.method,
        url: family.trees.path,
        doc: { entity: entity.name, answer: 'rows' },
        conditions,
        access: operationKeys(entity, 'trees'),
        handler: async ({ ctx, query }) => (await store.list(db(ctx), ctx, entity, { ...listRequest(query), paged: false })).datas,
      })
    for (const op of ['enable', 'unable'] as const) {
      if (!hasOperation(entity, op)) continue
      defineRoute(app, {
        method: family[op].method,
        url: family[op].path,
        doc: { entity: entity.name, answer: 'none', body: 'ids' },
        access: operationKeys(entity, op),
        handler: async ({ ctx, body }) => inTransaction(db(ctx), (trx) => store.setAvailable(trx, ctx, entity, idsFrom(body), op === 'enable')),
      })
    }
    if (hasOperation(entity, 'export'))
      // The same query also as a GET (a plain link to the file).
      for (const method of [family.export.method, 'GET'] as const)
        defineListRoute(app, services, {
          method,
          url: family.export.path,
          doc: { entity: entity.name, answer: 'file' },
          conditions,
          access: operationKeys(entity, 'export'),
          // Every matching row, streamed (engine/list-export.ts).
          handler: async ({ ctx, query, body, reply }) => {
            const values = { ...query, ...(body && typeof body === 'object' ? (body as object) : {}) }
            const req = { ...listRequest(values), paged: false }
            return sendListExport(reply, services, { db: db(ctx), ctx, entity, req, title: entity.label })
          },
        })
  }
}

/** Export columns (or the list columns) with labels; cells as people read them (import-columns.ts). */
export async function exportWorkbook(services: Services, entity: EntityModel, rows: Record<string, unknown>[]) {
  const fields = exportFields(entity)
  const book = new (await loadExcelJs()).Workbook()
  const sheet = book.addWorksheet(entity.label)
  sheet.columns = fields.map((f) => ({ header: f.label, key: f.name, width: 18 }))
  for (const row of rows) {
    const out: Record<string, unknown> = {}
    for (const f of fields) out[f.name] = exportCell(f, row, services.registry.enums)
    sheet.addRow(out)
  }
  return Buffer.from(await book.xlsx.writeBuffer())
}
