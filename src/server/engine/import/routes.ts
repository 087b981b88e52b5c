import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasOperation, operationKeys } from '../../../shared/metadata/operation-keys.js'
import { defineRoute } from '../../platform/routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../services.js'
import { parameter } from '../../platform/parameters.js'
import { dbFor } from '../master-data-routes.js'
import { importColumns } from './columns.js'
import { runImport } from './runner.js'
import type { ImportAdapter } from './batch.js'
import type { ImportSignal, ImportSummary } from './units.js'
import { templateWorkbook } from './workbook.js'
import { DEFAULT_MAX_ROWS, receiveUpload, spoolImportFile, type ImportSpool } from './file.js'
import type { ImportColumn } from './columns.js'

export const MAX_ROWS_PARAMETER = 'excel-import.max-size'

/** Where import work runs and its progress is kept (modules/component/import-tasks.ts). */
export interface ImportTaskRunner {
  /** Records a task, starts `work` without waiting for it and answers the task id. */
  start(
    ctx: RequestContext,
    /** What is imported (an entity's name or a kind's label), kept with the task. */
    name: string,
    total: number,
    work: (report: (p: { process: number; successProcess: number }) => void, signal: ImportSignal) => Promise<ImportSummary>,
  ): Promise<string>
}

/** Rows one file may hold: the tenant's parameter `excel-import.max-size`, default DEFAULT_MAX_ROWS. */
export async function maxImportRows(ctx: RequestContext): Promise<number> {
  const n = Math.floor(Number(await parameter(ctx.db, MAX_ROWS_PARAMETER, String(DEFAULT_MAX_ROWS))))
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_MAX_ROWS
}

/**
 * The uploaded file of a multipart request (field `file`) received to disk and its rows read
 * (import-file.ts): name, size, content type, columns, row cap checked, 400 with the message.
 * `stream`: the rows may reach the import while the file is still read (imports whose rows are each on
 * their own). The caller owns the spool: dispose it when the task ends (the upload goes with it).
 */
export async function receiveImport(req: FastifyRequest, columns: ImportColumn[], maxRows: number, options: { stream?: boolean } = {}): Promise<ImportSpool> {
  const upload = await receiveUpload(req)
  try {
    const spool = await spoolImportFile(upload, columns, maxRows, options)
    return {
      ...spool,
      dispose: () => {
        spool.dispose()
        upload.dispose()
      },
    }
  } catch (error) {
    upload.dispose()
    throw error
  }
}

/** Sends an import template as the download `{label}导入模板.xlsx`. */
export function sendTemplate(reply: FastifyReply, label: string, buffer: Buffer): FastifyReply {
  reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${label}导入模板.xlsx`)}`)
  reply.send(buffer)
  return reply
}

/**
 * The Excel import of every entity whose list toolbar has `import` (permission `{api.permission}:import`):
 * - `GET {base}/import/template`: the template (import-workbook.ts);
 * - `POST {base}/import` (multipart `file`, .xls/.xlsx): checks the file at once (type by content, size,
 *   columns, row cap: 400 with the message), then starts a task and answers its id; the rows are
 *   imported each on its own by runner.ts and the progress is read at `GET /component/import/task?id`.
 */
export function registerImportRoutes(
  app: FastifyInstance,
  services: Services,
  tasks: ImportTaskRunner,
  adapters: ReadonlyMap<string, ImportAdapter> = new Map(),
): void {
  for (const entity of services.registry.all()) {
    const api = entity.file.api
    // A document's rows are lines of documents: its import is a kind of its own (registerImportKind).
    if (!api || entity.file.document || !hasOperation(entity, 'import')) continue
    const columns = importColumns(services.registry, entity)
    if (!columns.length) continue
    const access = operationKeys(entity, 'import')

    defineRoute(app, {
      method: 'GET',
      url: `${api.base}/import/template`,
      access,
      handler: async ({ ctx, reply }) => {
        return sendTemplate(reply, entity.label, await templateWorkbook(entity, columns, services.registry.enums, await maxImportRows(ctx)))
      },
    })

    defineRoute(app, {
      method: 'POST',
      url: `${api.base}/import`,
      access,
      handler: async ({ ctx, req }) => {
        const db = dbFor(services, ctx, entity)
        const spool = await receiveImport(req, columns, await maxImportRows(ctx), { stream: true })
        return tasks.start(ctx, entity.name, spool.total, async (report, signal) => {
          try {
            return await runImport(services, ctx, db, entity, columns, spool.rows(), spool.total, report, adapters.get(entity.name), signal)
          } finally {
            spool.dispose()
          }
        })
      },
    })
  }
}
