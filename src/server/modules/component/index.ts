import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { envelope, type RouteSpec } from '../../platform/routes.js'
import { defineRoute } from '../../platform/routes.js'
import { relogin } from '../../platform/errors.js'
import type { ImportAdapter } from '../../engine/import/batch.js'
import { registerImportRoutes } from '../../engine/import/routes.js'
import { useImportTasks } from '../../engine/import/kind.js'
import { ImportTaskStore } from './import-tasks.js'
import { timelineOf } from '../../engine/document-timeline.js'
import { forbidden, invalid } from '../../platform/errors.js'
import { hasPermission } from '../../platform/request-context.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { registerUploads } from './uploads.js'
import { locate } from './map-location.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { component } from '../../../shared/contracts/component.js'

export const IMPORT_TASK_PATH = '/component/import/task'

/**
 * What a row of an import cannot carry by itself. A SPU is stored with its SKU lines: a SPU created
 * from one row gets one SKU whose code and SKU code are the SPU's code (name, category, brand and tax
 * rates come from the SPU through its hooks); a modify leaves the SKUs to the SPU's propagation.
 */
const ADAPTERS = new Map<string, ImportAdapter>([
  [
    'productPoly',
    {
      prepare(body, mode) {
        if (mode === 'create' && typeof body.code === 'string') body.products = [{ code: body.code, skuCode: body.code }]
      },
    },
  ],
])

/**
 * Shared components (000 §7 Components). For now the Excel import: the per-entity template and upload
 * calls (engine/import/routes.ts; other import kinds register through engine/import/kind.ts), the task
 * progress `GET /component/import/task?id` and its cancel (`DELETE`, below), which the spec
 * calls without the region prefix: it answers both there and under `/cloud-api`, signed in, and only
 * the caller's own tasks.
 */
export async function componentModule(app: FastifyInstance, services: Services): Promise<void> {
  const tasks = new ImportTaskStore(services.databases.platform, services.databases.kind, app.log, services.metrics)
  await tasks.migrate(services.databases.schemaOf('platform'))
  const interrupted = await tasks.failUnfinished()
  if (interrupted) app.log.warn({ interrupted }, 'import tasks left unfinished by the previous process marked failed')
  app.addHook('preClose', async () => tasks.drain())

  useImportTasks(services, tasks)
  registerImportRoutes(app, services, tasks, ADAPTERS)

  registerUploads(app, services)

  // Geocoding through the map service of MAP_KEY (map-location.ts); without one a clear answer
  // instead of a silent empty location.
  defineRoute(app, {
    method: 'GET',
    url: '/component/map/location',
    access: 'login',
    handler: async ({ query }) => {
      if (typeof query.address !== 'string' || !query.address.trim()) throw invalid('请输入地址', 'address')
      return locate(services.config, query.address.trim())
    },
  })

  // Timeline of a document, newest first (the page shows the latest until expanded). It follows the
  // document: whoever may open it (the keys of its get call) and whose data permission reaches it.
  const documents = services.registry.documents().filter((d) => d.file.api)
  const openKeys = (doc: EntityModel) => [...operationKeys(doc, 'query'), ...operationKeys(doc, 'modify'), `${doc.file.api!.permission}:approve`]
  defineCallRoute(app, component.orderTimeline, {
    access: [...new Set(documents.flatMap(openKeys))],
    handler: async ({ ctx, query }) => {
      if (typeof query.orderId !== 'string' || !query.orderId) throw invalid('请选择单据', 'orderId')
      const orderId = query.orderId
      let owner: EntityModel | undefined
      for (const doc of documents)
        if (await ctx.db.selectFrom(doc.table).select('id').where('id', '=', orderId).executeTakeFirst()) {
          owner = doc
          break
        }
      if (!owner) return []
      if (!hasPermission(ctx, openKeys(owner))) throw forbidden()
      // The store adds the caller's data permission: a document out of reach is not found.
      await services.store.get(ctx.db, ctx, owner, orderId)
      return timelineOf(ctx.db, orderId)
    },
  })

  const progress: RouteSpec<'login'>['handler'] = async ({ ctx, query }) => tasks.progress(ctx, query.id)
  // Cancel is not in the spec (it has no way to stop an import): `DELETE /component/import/task?id` on
  // the caller's own running task, answered like the progress call under both prefixes; the dialog's
  // 取消导入 button calls it. The task stops at its next batch boundary and its tipMsgs say what was kept.
  const cancel: RouteSpec<'login'>['handler'] = async ({ ctx, query }) => {
    await tasks.cancel(ctx, query.id)
    return null
  }
  for (const [method, handler] of [['GET', progress], ['DELETE', cancel]] as const) {
    defineRoute(app, { method, url: IMPORT_TASK_PATH, access: 'login', handler })
    app.route({
      method,
      url: IMPORT_TASK_PATH,
      config: { access: 'login' },
      handler: async (req, reply) => {
        if (!req.ctx) throw relogin()
        const data = await handler({ ctx: req.ctx, query: (req.query ?? {}) as Record<string, unknown>, body: req.body ?? {}, req, reply })
        return envelope(data)
      },
    })
  }
}
