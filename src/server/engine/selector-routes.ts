import type { FastifyInstance } from 'fastify'
import type { QueryParam } from '../../shared/generated/entity.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { defineRoute, type Access } from '../platform/routes.js'
import type { Services } from './services.js'
import { dbFor } from './master-data-routes.js'
import { idsFrom } from './request-values.js'
import { pickerKeys } from './picker-access.js'
import { availableStock } from './warehouse-stock.js'
import { followablePredicate } from './followable-rows.js'
import { defineListRoute, paramsOf } from './list-routes.js'
import { pickerCalls, pickerTypeCall } from '../../shared/contracts/picker-calls.js'
import { routeOf } from '../platform/call-routes.js'

/**
 * `available` of a picker defaults to enabled (spec 000 §7); the status filter's 全部 option sends
 * `available=all` to see both.
 */
function selectorValues(entity: EntityModel, query: Record<string, unknown>) {
  const values = { ...query }
  if (entity.byName.has('available')) {
    if (values.available === undefined || values.available === '') values.available = 'true'
    if (values.available === 'all') delete values.available
  }
  return values
}

function selectorParams(entity: EntityModel): QueryParam[] {
  const declared = entity.file.views?.picker?.filters ?? []
  const params = [...declared]
  if (entity.byName.has('available') && !params.some((p) => p.field === 'available')) params.push({ field: 'available', op: 'eq' })
  return params
}

/**
 * `GET /selector/{kind}` and `POST /selector/{kind}/load` for every entity with a picker view, and the
 * GET of each of its `types`. Who may
 * call them is derived from the schemas (engine/picker-access.ts); a kind no screen offers is the admin's.
 */
export function registerSelectorRoutes(app: FastifyInstance, services: Services): void {
  for (const entity of services.registry.all()) {
    const picker = entity.file.views?.picker
    if (!picker) continue
    const access: Access = pickerKeys(services.registry, picker.kind)
    const calls = pickerCalls(picker.kind)
    const tree = Boolean(entity.parentField)
    // 全部 sends `available=all` (selectorValues).
    const stockAt = picker.warehouseStock ? [{ name: picker.warehouseStock.param, label: '仓库', kind: 'id' as const }] : []
    // A source other documents follow offers only what may still be taken from it (engine/followable-rows.ts).
    const followable = followablePredicate(services.registry, entity)
    const conditions = [...paramsOf(services, entity, selectorParams(entity)).map((c) => (c.name === 'available' ? { ...c, also: ['all'] } : c)), ...stockAt]
    defineListRoute(app, services, {
      ...routeOf(calls.page, { entity: entity.name, answer: 'page' }),
      access,
      conditions,
      handler: async ({ ctx, query }) => {
        const db = dbFor(services, ctx, entity)
        const page = await services.store.list(db, ctx, entity, {
          params: selectorParams(entity),
          columns: picker.columns,
          values: selectorValues(entity, query),
          paged: !tree,
          sort: entity.file.views?.list?.sort,
          where: followable,
        })
        // Sale and retail entry pass their warehouse: each product row says what it has there.
        const stock = picker.warehouseStock
        const scId = stock ? query[stock.param] : undefined
        if (stock && typeof scId === 'string' && scId) {
          const available = await availableStock(db, scId, page.datas.map((r) => ({ id: String(r.id), productType: Number(r.productType) })))
          for (const row of page.datas) row[stock.field] = available.get(String(row.id)) ?? 0
        }
        return page
      },
    })
    // The view's other users (`types`): the same filters and columns over every row, the type's defaults
    // where the request names no value (000 §9: the sale side's purchase orders, status 3 unless asked).
    for (const typed of Object.values(picker.types ?? {})) {
      defineListRoute(app, services, {
        ...routeOf(pickerTypeCall(typed.path), { entity: entity.name, answer: 'page' }),
        access,
        conditions,
        handler: async ({ ctx, query }) => {
          const values = selectorValues(entity, query)
          for (const [name, value] of Object.entries(typed.defaults ?? {})) if (values[name] === undefined || values[name] === '') values[name] = value
          return services.store.list(dbFor(services, ctx, entity), ctx, entity, {
            params: selectorParams(entity),
            columns: picker.columns,
            values,
            paged: !tree,
            sort: entity.file.views?.list?.sort,
          })
        },
      })
    }
    defineRoute(app, {
      ...routeOf(calls.load, { entity: entity.name, answer: 'rows', body: 'ids' }),
      access,
      handler: async ({ ctx, body, query }) =>
        services.store.loadByIds(dbFor(services, ctx, entity), ctx, entity, idsFrom(body, query), picker.columns),
    })
  }
}
