import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/dialect.js'
import { BizError } from '../../platform/errors.js'
import { defineRoute } from '../../platform/routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../services.js'
import type { ImportColumn } from './columns.js'
import { importUnits, mapRows, runUnits, type Atomicity, type ImportRow, type ImportSignal, type ImportSummary } from './units.js'
import { maxImportRows, receiveImport, sendTemplate, type ImportTaskRunner } from './routes.js'
import { importTemplate } from './workbook.js'

/**
 * The seam between the import engine and the import kinds that are not "one entity's rows" (logistics
 * sheets, delivery updates, purchase orders, agreed payments, receive sheets). A kind says what its
 * file holds and how one unit is written; the engine does everything else: the upload checks, the
 * template, reading the file, the row cap, the units and their transactions, progress, op log.
 */
export interface ImportKind {
  /** POST url of the upload, e.g. '/purchase/order/import/paytype'; the template is GET `${url}/template`. */
  url: string
  /** Permission keys (any of) that may call both. */
  access: string[]
  /** Names the template file (`${label}导入模板.xlsx`), its sheet, the task and the op log (`导入${label}`). */
  label: string
  /** Columns of the template and of the upload (`field` may be a FieldModel of a document's header or
   *  line entity, `header` the column title). */
  columns: ImportColumn[]
  /** Extra lines for the template's 说明 sheet (grouping rule, all-or-nothing rule, ...). */
  rules: string[]
  /** 'all': the whole file or nothing; 'group': each group (rows with the same `groupKey`) all or nothing;
   *  'row': each row on its own (a failing row gets its message, the others are written). */
  atomicity: Atomicity
  groupKey?: (row: ImportRow) => string
  /** Writes one unit (the whole file, one group, or one row) inside the given transaction; throws
   *  BizError (invalid(...)) with a Chinese message to refuse it; the engine prefixes `第N行：` using
   *  the error's `line` (rowError) if the kind sets one, else the unit's first row. A unit of several
   *  rows checks all of them (RowProblems) and is refused with every row's reasons (ImportRowsError). */
  write(trx: Db, ctx: RequestContext, rows: ImportRow[]): Promise<'create' | 'modify' | void>
  /** A refusal that holds for the whole file (e.g. a setting forbids the import): checked before the
   *  upload is read, so it is answered once (400) instead of once per unit. */
  precheck?(ctx: RequestContext): Promise<void>
}

/** Runs the rows of one file through an import kind (the kind decides the units). */
export function runImportKind(
  db: Db,
  ctx: RequestContext,
  kind: ImportKind,
  rows: ImportRow[],
  report: (p: { process: number; successProcess: number }) => void,
  signal?: ImportSignal,
): Promise<ImportSummary> {
  return runUnits({
    ctx,
    db,
    label: kind.label,
    atomicity: kind.atomicity,
    total: rows.length,
    units: importUnits(kind, rows),
    write: (trx, unit) => kind.write(trx, ctx, unit),
    report,
    signal,
  })
}

const runners = new WeakMap<Services, ImportTaskRunner>()

/** The component module hands the engine its task store (kinds register before it starts). */
export function useImportTasks(services: Services, runner: ImportTaskRunner): void {
  runners.set(services, runner)
}

function tasksOf(services: Services): ImportTaskRunner {
  const runner = runners.get(services)
  if (!runner) throw new Error('import task store not set up (modules/component)')
  return runner
}

/**
 * Registers `GET {url}/template` and `POST {url}` (multipart `file`) of one import kind. The upload is
 * checked at once (type, size, columns, row cap: 400 with the message), then a task is started and its
 * id answered; progress at `GET /component/import/task?id`. Rows go to the caller's tenant database.
 */
export function registerImportKind(app: FastifyInstance, services: Services, kind: ImportKind): void {
  if (kind.atomicity === 'group' && !kind.groupKey) throw new Error(`import kind ${kind.url}: atomicity 'group' needs groupKey`)
  defineRoute(app, {
    method: 'GET',
    url: `${kind.url}/template`,
    access: kind.access,
    handler: async ({ ctx, reply }) => {
      return sendTemplate(reply, kind.label, await importTemplate(kind, services.registry.enums, await maxImportRows(ctx)))
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: kind.url,
    access: kind.access,
    handler: async ({ ctx, req }) => {
      await kind.precheck?.(ctx)
      // Streamed for every kind: the upload is answered once the file's checks hold, not once all of it is read.
      const spool = await receiveImport(req, kind.columns, await maxImportRows(ctx), { stream: true })
      return tasksOf(services).start(ctx, kind.label, spool.total, async (report, signal) => {
        try {
          // 'row' kinds write their rows as they are read; groups and whole files need all rows together,
          // read in the task (a file found unreadable further on is refused whole: nothing was written).
          let units: AsyncIterable<ImportRow[]> | ImportRow[][]
          let total = spool.total
          if (kind.atomicity === 'row') units = mapRows(spool.rows(), (r) => [r])
          else {
            let rows: ImportRow[]
            try {
              rows = await spool.all()
            } catch (error) {
              if (!(error instanceof BizError)) throw error
              return { total: 0, created: 0, modified: 0, errors: [error.message] }
            }
            units = importUnits(kind, rows)
            total = rows.length
          }
          return await runUnits({
            ctx,
            db: ctx.db,
            label: kind.label,
            atomicity: kind.atomicity,
            total,
            units,
            write: (trx, unit) => kind.write(trx, ctx, unit),
            report,
            signal,
          })
        } finally {
          spool.dispose()
        }
      })
    },
  })
}
