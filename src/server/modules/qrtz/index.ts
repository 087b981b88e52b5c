import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { qrtz } from '../../../shared/contracts/qrtz.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { defineRoute } from '../../platform/routes.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid } from '../../platform/errors.js'
import { idsFrom } from '../../engine/request-values.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { pauseJob, qrtzJobHooks, qrtzJobOf, resumeJob } from '../../domain/jobs/qrtz-job.js'
import { JOB_HANDLERS } from '../../domain/jobs/job-handlers.js'
import type { JobScheduler } from '../../jobs/scheduler.js'

/**
 * 定时器管理 (`/qrtz`, spec 001 §7): query, get, create, modify and delete are the engine's family of
 * schemas/entities/qrtz-job.json (validated by the hooks of domain/jobs/qrtz-job.ts); pause, resume and
 * trigger are here, each with its own key of the seeded menu. The run history is the engine's
 * `/qrtz/run/query` (qrtz-job-run.json). `GET /qrtz/handlers` lists the built-in jobs for the form.
 */
export function qrtzModule(app: FastifyInstance, services: Services, scheduler: JobScheduler): void {
  qrtzJobHooks(services)
  const job = services.registry.get('qrtzJob')
  const PERMISSION = 'development:qrtz'
  /** One id: `{id}` in the body or `?id=`. */
  const oneId = (body: unknown, query: Record<string, unknown>) => {
    const ids = idsFrom(body, query)
    if (ids.length !== 1) throw invalid('请选择一个定时器', 'id')
    return ids[0]
  }

  defineRoute(app, {
    method: 'PATCH',
    url: '/qrtz/pause',
    access: [`${PERMISSION}:pause`],
    handler: async ({ ctx, body, query }) => inTransaction(ctx.db, (trx) => pauseJob(services, trx, ctx, oneId(body, query))),
  })

  defineRoute(app, {
    method: 'PATCH',
    url: '/qrtz/resume',
    access: [`${PERMISSION}:resume`],
    handler: async ({ ctx, body, query }) => inTransaction(ctx.db, (trx) => resumeJob(services, trx, ctx, oneId(body, query))),
  })

  // Runs now and answers the run (its outcome and message); a paused job may be run by hand too.
  defineRoute(app, {
    method: 'PATCH',
    url: '/qrtz/trigger',
    access: [`${PERMISSION}:trigger`],
    handler: async ({ ctx, body, query }) => {
      const row = await qrtzJobOf(services, ctx.db, ctx, oneId(body, query))
      return scheduler.runNow(ctx.tenantId, ctx.db, row)
    },
  })

  defineCallRoute(app, qrtz.handlers, {
    access: [...operationKeys(job, 'create'), ...operationKeys(job, 'modify'), ...operationKeys(job, 'query')],
    handler: async ({ ctx }) =>
      JOB_HANDLERS.filter((h) => !h.platform || ctx.tenantId === services.operatorTenantId).map((h) => ({ key: h.key, label: h.label })),
  })
}
