import type { FastifyInstance } from 'fastify'
import type { QueryParam } from '../../shared/generated/entity.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { defineRoute, type Access, type AuthedInput, type RouteSpec } from '../platform/routes.js'
import type { Services } from './services.js'
import { checkConditions, entityConditions, type ConditionField } from './condition-values.js'

/** A list, picker, report or export route and the conditions it reads. */
export interface ListRoute {
  method: string
  url: string
  conditions: readonly ConditionField[]
}

const declared = new WeakMap<Services, ListRoute[]>()

/** Every list route of the app with its conditions: the sweep of unreadable conditions walks it. */
export const listRoutes = (services: Services): readonly ListRoute[] => declared.get(services) ?? []

/** The conditions of declared query params over an entity, for `defineListRoute`. */
export const paramsOf = (services: Services, entity: EntityModel, params: readonly QueryParam[]): ConditionField[] =>
  entityConditions(entity, params, services.registry.enums)

/**
 * A route that answers rows under conditions. Its conditions are declared with it, and every value is
 * read before the handler runs: one that is not of its kind (a junk enum code, date, number, flag or
 * id) is a 400 naming the search item, so no route can drop a condition it cannot read and answer
 * every row. Values come from the query and, for exports and POST lists, from the JSON body.
 */
export function defineListRoute(
  app: FastifyInstance,
  services: Services,
  spec: RouteSpec<Exclude<Access, 'public'>> & { conditions: readonly ConditionField[] },
): void {
  const { conditions, ...route } = spec
  const routes = declared.get(services) ?? []
  declared.set(services, routes)
  routes.push({ method: spec.method, url: spec.url, conditions })
  const handler = route.handler as (input: AuthedInput) => Promise<unknown>
  defineRoute(app, {
    ...route,
    doc: { ...route.doc, conditions: conditions.map((c) => c.name) },
    handler: async (input: AuthedInput) => {
      const body = input.body && typeof input.body === 'object' && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : {}
      checkConditions(conditions, { ...input.query, ...body }, services.registry.enums)
      return handler(input)
    },
  })
}
