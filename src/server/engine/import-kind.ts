import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'
import { BizError } from '../platform/errors.js'
import { inTransaction } from '../platform/db-tx.js'
import { writeOpLog, OpLogType } from '../platform/op-log.js'
import { defineRoute } from '../platform/routes.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import type { ImportColumn } from './import-columns.js'
import type { ImportSummary } from './import-runner.js'
import { maxImportRows, uploadedWorkbook, type ImportTaskRunner } from './import-routes.js'
import { importTemplate, readImportFile, type ImportRow } from './import-workbook.js'

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
  atomicity: 'all' | 'group' | 'row'
  groupKey?: (row: ImportRow) => string
  /** Writes one unit (the whole file, one group, or one row) inside the given transaction; throws
   *  BizError (invalid(...)) with a Chinese message to refuse it; the engine prefixes `第N行：` using
   *  the error's `line` (rowError) if the kind sets one, else the unit's first row. */
  write(trx: Db, ctx: RequestContext, rows: ImportRow[]): Promise<'create' | 'modify' | void>
}

/** A refusal of one specific row of a unit: the task shows `第{line}行：{message}`. */
export class ImportRowError extends BizError {
  constructor(
    readonly line: number,
    message: string,
    field?: string,
  ) {
    super(400, message, field)
  }
}

export const rowError = (line: number, message: string, field?: string) => new ImportRowError(line, message, field)

export const lineMessage = (line: number, message: string) => `第${line}行：${message}`

/** The units of a file in the order their first row appears. */
export function importUnits(kind: Pick<ImportKind, 'atomicity' | 'groupKey' | 'label'>, rows: ImportRow[]): ImportRow[][] {
  if (kind.atomicity === 'all') return rows.length ? [rows] : []
  if (kind.atomicity === 'row') return rows.map((r) => [r])
  if (!kind.groupKey) throw new Error(`import kind ${kind.label}: atomicity 'group' needs groupKey`)
  const groups = new Map<string, ImportRow[]>()
  for (const row of rows) {
    const key = kind.groupKey(row)
    const group = groups.get(key)
    if (group) group.push(row)
    else groups.set(key, [row])
  }
  return [...groups.values()]
}

/** Units written in one transaction (each inside its own savepoint). */
const UNITS_PER_BATCH = 200

const pause = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Runs the units of one file through `kind.write`:
 * - 'all': one transaction; a refusal rolls back everything and is the task's message;
 * - 'group' / 'row': transactions of up to UNITS_PER_BATCH units, each unit in a savepoint; a refused
 *   unit is rolled back to its savepoint and reported, the other units are committed.
 * Errors that are not BizError are not a row's fault: they end the task (rolled back batch) as an
 * internal error.
 */
export async function runImportKind(
  db: Db,
  ctx: RequestContext,
  kind: ImportKind,
  rows: ImportRow[],
  report: (p: { process: number; successProcess: number }) => void,
): Promise<ImportSummary> {
  const total = rows.length
  const units = importUnits(kind, rows)
  const errors: string[] = []
  let created = 0
  let modified = 0
  let done = 0
  const count = (mode: 'create' | 'modify' | void, unit: ImportRow[]) => {
    if (mode === 'modify') modified += unit.length
    else created += unit.length
  }
  const refusal = (error: unknown, unit: ImportRow[]) => {
    if (!(error instanceof BizError)) throw error
    errors.push(lineMessage(error instanceof ImportRowError ? error.line : unit[0].line, error.message))
  }
  const opLog = (trx: Db) => writeOpLog(trx, ctx, `导入${kind.label}`, OpLogType.OTHER, { total, created, modified, failed: errors.length })

  if (kind.atomicity === 'all') {
    class RolledBack extends Error {}
    try {
      await inTransaction(db, async (trx) => {
        try {
          count(await kind.write(trx, ctx, rows), rows)
        } catch (error) {
          refusal(error, rows)
          throw new RolledBack()
        }
        await opLog(trx)
      })
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error
      return { total, created: 0, modified: 0, errors }
    }
    report({ process: 100, successProcess: 100 })
    return { total, created, modified, errors }
  }

  for (let start = 0; start < units.length; start += UNITS_PER_BATCH) {
    const batch = units.slice(start, start + UNITS_PER_BATCH)
    await inTransaction(db, async (trx) => {
      for (const unit of batch) {
        await sql`savepoint import_unit`.execute(trx)
        try {
          count(await kind.write(trx, ctx, unit), unit)
          await sql`release savepoint import_unit`.execute(trx)
        } catch (error) {
          await sql`rollback to savepoint import_unit`.execute(trx)
          await sql`release savepoint import_unit`.execute(trx)
          refusal(error, unit)
        }
        done += unit.length
      }
    })
    report({ process: Math.floor((done * 100) / total), successProcess: Math.floor(((created + modified) * 100) / total) })
    // better-sqlite3 answers synchronously: let the progress poll and other requests in between batches.
    await pause()
  }
  if (created + modified) await opLog(db)
  return { total, created, modified, errors }
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
      const buffer = await importTemplate(kind, services.registry.enums, await maxImportRows(ctx))
      reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${kind.label}导入模板.xlsx`)}`)
      reply.send(buffer)
      return reply
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: kind.url,
    access: kind.access,
    handler: async ({ ctx, req }) => {
      const bytes = await uploadedWorkbook(req)
      const rows = await readImportFile(bytes, kind.columns, await maxImportRows(ctx))
      return tasksOf(services).start(ctx, kind.label, rows.length, (report) => runImportKind(ctx.db, ctx, kind, rows, report))
    },
  })
}
