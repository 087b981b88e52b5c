import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { candidateConditions } from '../../domain/settle/candidates.js'
import { uncheckedDocuments } from '../../domain/settle/settle-check-sheet.js'
import { unsettledCheckSheets } from '../../domain/settle/settle-sheet.js'
import { settleSides } from '../../domain/settle/parties.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { declaredCallOf } from '../../engine/declared-call-routes.js'

/** The `api` of a document file: its base path and permission (the candidates calls live under them). */
function apiOf(services: Services, name: string) {
  const api = services.registry.get(name).file.api
  if (!api) throw new Error(`${name} has no api`)
  return api
}

/**
 * Settlement (spec 000 §7, domain-rules §2.7): the calls around the fee, pre, check and settle sheets of
 * both sides (their families come from the files in schemas/documents, their hooks from domain/documents/document-hooks.ts).
 */
export function settleModule(app: FastifyInstance, services: Services): void {
  for (const side of settleSides(services.registry)) {
    // Candidates of a sheet's lines: whoever may add or modify that sheet.
    const check = apiOf(services, side.check.doc)
    defineCallListRoute(app, services, declaredCallOf.candidates(services, side.check.doc), {
      conditions: candidateConditions(side),
      access: [`${check.permission}:add`, `${check.permission}:modify`],
      handler: async ({ ctx, params }) => uncheckedDocuments(ctx.db, ctx, services.store, side, params),
    })
    const settle = apiOf(services, side.settle.doc)
    defineCallListRoute(app, services, declaredCallOf.candidates(services, side.settle.doc), {
      conditions: candidateConditions(side),
      access: [`${settle.permission}:add`, `${settle.permission}:modify`],
      handler: async ({ ctx, params }) => unsettledCheckSheets(ctx.db, ctx, services.store, side, params),
    })
  }
}
