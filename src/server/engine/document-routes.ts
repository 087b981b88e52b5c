import type { FastifyInstance } from 'fastify'
import { defineListRoute, paramsOf } from './list-routes.js'
import { defineRoute } from '../platform/routes.js'
import { inTransaction } from '../platform/db-tx.js'
import type { Services } from './services.js'
import { hasApproval, linesEntityName, type DocumentSection } from '../../shared/metadata/document-model.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { idsFrom, objectBody } from './request-values.js'
import { sendListExport } from './list-export.js'
import type { DocumentStore } from './document-store.js'
import type { DocumentModel } from './document-kind.js'
import { documentCalls } from '../../shared/contracts/document-calls.js'
import { routeOf } from '../platform/call-routes.js'

export function documentModel(services: Services, header: EntityModel): DocumentModel {
  const section = header.file.document as DocumentSection
  return { name: header.name, subject: section.subject, section, header, lines: services.registry.get(linesEntityName(header.name)) }
}

const field = (body: unknown, name: string) => (body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined)

/**
 * The shared document family (spec 000 §7 "Document APIs") for every document file with an `api`:
 * query, export, get, create, modify, delete, batch delete, approve pass / refuse (single and batch),
 * direct approve, and cancel approval where the file allows it. Keys: `{permission}:{query|add|
 * modify|delete|approve|export|cancel-approve}` as in the menu seed.
 */
export function registerDocumentRoutes(app: FastifyInstance, services: Services, documents: DocumentStore): void {
  const { store } = services
  for (const header of services.registry.documents()) {
    const api = header.file.api
    if (!api) continue
    const doc = documentModel(services, header)
    const calls = documentCalls(api.base)
    const key = (action: string) => [`${api.permission}:${action}`]
    const of = { entity: header.name }
    const list = header.file.views?.list
    const listRequest = (values: Record<string, unknown>) => ({
      params: list?.query ?? [],
      columns: list?.columns,
      values,
      paged: true,
      sort: list?.sort ?? { field: 'createTime', order: 'desc' as const },
    })

    const conditions = paramsOf(services, header, list?.query ?? [])
    defineListRoute(app, services, {
      ...routeOf(calls.query, { ...of, answer: 'page' }),
      conditions,
      access: key('query'),
      handler: async ({ ctx, query }) => store.list(ctx.db, ctx, header, listRequest(query)),
    })
    for (const method of ['POST', 'GET'] as const)
      defineListRoute(app, services, {
        method,
        url: calls.export.path,
        doc: { ...of, answer: 'file' },
        conditions,
        access: key('export'),
        // Every matching document, streamed (engine/list-export.ts).
        handler: async ({ ctx, query, body, reply }) => {
          const values = { ...query, ...(body && typeof body === 'object' ? (body as object) : {}) }
          return sendListExport(reply, services, { db: ctx.db, ctx, entity: header, req: { ...listRequest(values), paged: false }, title: doc.subject })
        },
      })
    defineRoute(app, {
      ...routeOf(calls.get, { ...of, lines: doc.lines?.name, answer: 'record' }),
      access: [...key('query'), ...key('modify'), ...key('approve')],
      handler: async ({ ctx, query }) => documents.get(ctx.db, ctx, doc, query.id),
    })
    defineRoute(app, {
      ...routeOf(calls.create, { ...of, answer: 'id', body: 'record' }),
      access: key('add'),
      handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => documents.create(trx, ctx, doc, objectBody(body))),
    })
    defineRoute(app, {
      ...routeOf(calls.modify, { ...of, answer: 'none', body: 'record' }),
      access: key('modify'),
      handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => documents.modify(trx, ctx, doc, objectBody(body))),
    })
    defineRoute(app, {
      ...routeOf(calls.remove, { ...of, answer: 'none', body: 'id' }),
      access: key('delete'),
      handler: async ({ ctx, body, query }) => inTransaction(ctx.db, (trx) => documents.remove(trx, ctx, doc, field(body, 'id') ?? query.id)),
    })
    defineRoute(app, {
      ...routeOf(calls.removeBatch, { ...of, answer: 'none', body: 'ids' }),
      access: key('delete'),
      handler: async ({ ctx, body, query }) =>
        inTransaction(ctx.db, (trx) => documents.batch(trx, doc, idsFrom(body, query), '删除', (id) => documents.remove(trx, ctx, doc, id))),
    })
    if (!hasApproval(doc.section)) continue
    defineRoute(app, {
      ...routeOf(calls.createAndApprove, { ...of, answer: 'id', body: 'record' }),
      access: key('approve'),
      handler: async ({ ctx, body }) =>
        inTransaction(ctx.db, async (trx) => {
          const id = await documents.create(trx, ctx, doc, objectBody(body))
          await documents.approvePass(trx, ctx, doc, id, field(body, 'description'))
          return id
        }),
    })
    defineRoute(app, {
      ...routeOf(calls.approvePass, { ...of, answer: 'none' }),
      access: key('approve'),
      handler: async ({ ctx, body }) =>
        inTransaction(ctx.db, (trx) => documents.approvePass(trx, ctx, doc, field(body, 'id'), field(body, 'description'))),
    })
    defineRoute(app, {
      ...routeOf(calls.approveRefuse, { ...of, answer: 'none' }),
      access: key('approve'),
      handler: async ({ ctx, body }) =>
        inTransaction(ctx.db, (trx) => documents.approveRefuse(trx, ctx, doc, field(body, 'id'), field(body, 'refuseReason'))),
    })
    defineRoute(app, {
      ...routeOf(calls.approvePassBatch, { ...of, answer: 'none' }),
      access: key('approve'),
      handler: async ({ ctx, body }) =>
        inTransaction(ctx.db, (trx) =>
          documents.batch(trx, doc, idsFrom(body), '审核通过', (id) => documents.approvePass(trx, ctx, doc, id, field(body, 'description')), {
            approving: true,
          }),
        ),
    })
    defineRoute(app, {
      ...routeOf(calls.approveRefuseBatch, { ...of, answer: 'none' }),
      access: key('approve'),
      handler: async ({ ctx, body }) =>
        inTransaction(ctx.db, (trx) =>
          documents.batch(trx, doc, idsFrom(body), '审核拒绝', (id) => documents.approveRefuse(trx, ctx, doc, id, field(body, 'refuseReason'))),
        ),
    })
    if (doc.section.cancelApprove)
      defineRoute(app, {
        ...routeOf(calls.approveCancel, { ...of, answer: 'none' }),
        access: key('cancel-approve'),
        handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => documents.cancelApprove(trx, ctx, doc, field(body, 'id'))),
      })
  }
}
