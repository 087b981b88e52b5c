import type { FastifyInstance } from 'fastify'
import type { CallContract } from '../../shared/contracts/call.js'
import { paramsOf, type CallRouteSpec } from '../platform/call-routes.js'
import type { Access, AuthedInput } from '../platform/routes.js'
import type { Services } from './services.js'
import type { ConditionField } from './condition-values.js'
import { defineListRoute } from './list-routes.js'

/** `defineListRoute` for a contract: its conditions are read before the handler, which the contract types. */
export function defineCallListRoute<P, R>(
  app: FastifyInstance,
  services: Services,
  contract: CallContract<P, R>,
  spec: CallRouteSpec<P, R, Exclude<Access, 'public'>> & { conditions: readonly ConditionField[] },
): void {
  defineListRoute(app, services, {
    method: contract.method,
    url: contract.path,
    access: spec.access,
    doc: { contract },
    conditions: spec.conditions,
    handler: (input: AuthedInput) => spec.handler({ ...input, params: paramsOf(contract, input) }),
  })
}
