import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { defineRoute } from '../platform/routes.js'
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

    if (hasOperation(entity, 'query'))
      defineListRoute(app, services, {
        method: 'GET',
        url: `${api.base}/query`,
        conditions,
        access: operationKeys(entity, 'query'),
        handler: async ({ ctx, query }) => {
          const page = await store.list(dbFor(services, ctx, entity), ctx, entity, listRequest(query))
          return list?.paged === false ? page.datas : page
        },
      })
    if (hasOperation(entity, 'trees'))
      defineListRoute(app, services, {
        method: 'GET',
        url: `${api.base}/trees`,
        conditions,
        access: operationKeys(entity, 'trees'),
        handler: async ({ ctx, query }) =>
          (await store.list(dbFor(services, ctx, entity), ctx, entity, { ...listRequest(query), paged: false })).datas,
      })
    if (hasOperation(entity, 'get'))
      defineRoute(app, {
        method: 'GET',
        url: api.base,
        access: operationKeys(entity, 'get'),
        handler: async ({ ctx, query }) => store.get(dbFor(services, ctx, entity), ctx, entity, query.id),
      })
    if (hasOperation(entity, 'create'))
      defineRoute(app, {
        method: 'POST',
        url: api.base,
        access: operationKeys(entity, 'create'),
        handler: async ({ ctx, body }) =>
          inTransaction(dbFor(services, ctx, entity), (trx) => store.create(trx, ctx, entity, objectBody(body))),
      })
    if (hasOperation(entity, 'modify'))
      defineRoute(app, {
        method: 'PUT',
        url: api.base,
        access: operationKeys(entity, 'modify'),
        handler: async ({ ctx, body }) =>
          inTransaction(dbFor(services, ctx, entity), (trx) => store.modify(trx, ctx, entity, objectBody(body))),
      })
    if (hasOperation(entity, 'delete'))
      defineRoute(app, {
        method: 'DELETE',
        url: api.base,
        access: operationKeys(entity, 'delete'),
        handler: async ({ ctx, body, query }) =>
          inTransaction(dbFor(services, ctx, entity), (trx) => store.remove(trx, ctx, entity, idsFrom(body, query))),
      })
    for (const op of ['enable', 'unable'] as const) {
      if (!hasOperation(entity, op)) continue
      defineRoute(app, {
        method: 'PATCH',
        url: `${api.base}/${op}/batch`,
        access: operationKeys(entity, op),
        handler: async ({ ctx, body }) =>
          inTransaction(dbFor(services, ctx, entity), (trx) =>
            store.setAvailable(trx, ctx, entity, idsFrom(body), op === 'enable'),
          ),
      })
    }
    if (hasOperation(entity, 'export'))
      for (const method of ['POST', 'GET'] as const)
        defineListRoute(app, services, {
          method,
          url: `${api.base}/export`,
          conditions,
          access: operationKeys(entity, 'export'),
          // Every matching row, streamed (engine/list-export.ts).
          handler: async ({ ctx, query, body, reply }) => {
            const values = { ...query, ...(body && typeof body === 'object' ? (body as object) : {}) }
            const req = { ...listRequest(values), paged: false }
            return sendListExport(reply, services, { db: dbFor(services, ctx, entity), ctx, entity, req, title: entity.label })
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
