import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { BizError } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { defineRoute } from '../../platform/routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../services.js'
import type { ImportColumn } from './columns.js'
import type { ImportSummary } from './runner.js'
import { maxImportRows, receiveImport, sendTemplate, type ImportTaskRunner } from './routes.js'
import { importTemplate, type ImportRow } from './workbook.js'

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
   *  the error's `line` (rowError) if the kind sets one, else the unit's first row. A unit of several
   *  rows checks all of them (RowProblems) and is refused with every row's reasons (ImportRowsError). */
  write(trx: Db, ctx: RequestContext, rows: ImportRow[]): Promise<'create' | 'modify' | void>
  /** A refusal that holds for the whole file (e.g. a setting forbids the import): checked before the
   *  upload is read, so it is answered once (400) instead of once per unit. */
  precheck?(ctx: RequestContext): Promise<void>
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

/** A unit refused for the problems of several of its rows: the task shows `第{line}行：{message}` for each. */
export class ImportRowsError extends BizError {
  constructor(readonly problems: { line: number; message: string }[]) {
    super(400, problems[0]?.message ?? '')
  }
}

/**
 * What is wrong with the rows of one unit, collected so that a group or file is refused with every row
 * in error and every reason of each (as the template's 说明 promises), not only the first one found:
 * `each` checks every row, going on past a row that fails.
 */
export class RowProblems {
  private readonly list: { line: number; message: string }[] = []

  add(line: number, message: string): void {
    this.list.push({ line, message })
  }

  /**
   * Runs `check` on every item: it reports each problem of its row with `problem` and goes on; a BizError
   * it throws is its row's last problem (an ImportRowError names its own row). Answers what each check
   * answered (undefined for a row that threw).
   */
  each<R, T>(items: R[], line: (item: R) => number, check: (item: R, problem: (message: string) => void) => T): (T | undefined)[] {
    return items.map((item) => {
      try {
        return check(item, (message) => this.add(line(item), message))
      } catch (error) {
        if (!(error instanceof BizError)) throw error
        this.add(error instanceof ImportRowError ? error.line : line(item), error.message)
        return undefined
      }
    })
  }

  get found(): boolean {
    return this.list.length > 0
  }

  /** Refuses the unit when a problem was found: every one, by row (in the order found within a row). */
  raise(): void {
    if (this.list.length) throw new ImportRowsError([...this.list].sort((a, b) => a.line - b.line))
  }
}

export const lineMessage = (line: number, message: string) => `第${line}行：${message}`

/** The units of a file in the order their first row appears ('group' collects the whole file). */
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

/** Rows written per transaction ('group' / 'row'), and between two cancel checks and progress reports. */
export const BATCH_ROWS = 1000
/** tipMsgs keeps the first messages and a count of the rest: a million failing rows must not fill memory. */
export const MAX_TIPS = 1000

const pause = () => new Promise((resolve) => setImmediate(resolve))

/** What a running import may be told: to stop at the next batch boundary. */
export interface ImportSignal {
  cancelled(): boolean
}
export const NEVER_CANCELLED: ImportSignal = { cancelled: () => false }

/** One import run, whatever writes it (an entity's rows or an import kind). */
export interface UnitRun {
  ctx: RequestContext
  db: Db
  /** Where the op log goes (the tenant database, also for platform entities). */
  opLogDb?: Db
  label: string
  atomicity: ImportKind['atomicity']
  total: number
  units: AsyncIterable<ImportRow[]> | Iterable<ImportRow[]>
  write(trx: Db, unit: ImportRow[]): Promise<'create' | 'modify' | void>
  /**
   * 'row' only: writes a whole batch of rows at once (set-based) and answers each row's outcome in row
   * order, with the messages `write` would give; used instead of `write` when present.
   */
  writeBatch?(trx: Db, rows: ImportRow[]): Promise<RowOutcome[]>
  report(p: { process: number; successProcess: number }): void
  signal?: ImportSignal
}

/** What became of one row of a batch written set-based (UnitRun.writeBatch). */
export type RowOutcome = { line: number; mode: 'create' | 'modify' } | { line: number; error: BizError }

/** Thrown inside the 'all' transaction to roll it back. */
class RolledBack extends Error {}

/**
 * Runs the units of one import, each in a savepoint, in streaming fashion (only the current batch is
 * held; messages are capped at MAX_TIPS plus a count):
 * - 'all': one transaction; every unit is still tried (so every failing row is listed), and when any
 *   failed, or the import is cancelled, everything is rolled back;
 * - 'group' / 'row': a transaction per BATCH_ROWS rows; a refused unit is rolled back to its savepoint
 *   and reported, the others are committed batch by batch; a cancel stops at the next batch boundary
 *   and keeps what was committed.
 * Errors that are not BizError are not a row's fault: they end the task (the open batch rolled back).
 */
export async function runUnits(run: UnitRun): Promise<ImportSummary> {
  const { ctx, atomicity } = run
  // A streamed file gives a bound until its rows have all been read; then the rows read are the total.
  let total = run.total
  /** The file turned out unreadable while its rows were read (import-file.ts, streamed). */
  let stoppedBy: BizError | undefined
  let read = 0
  const signal = run.signal ?? NEVER_CANCELLED
  const errors: string[] = []
  let failed = 0
  let created = 0
  let modified = 0
  let done = 0
  const written = () => created + modified
  const progress = () =>
    run.report({
      process: Math.min(99, Math.floor((done * 100) / Math.max(1, total))),
      successProcess: atomicity === 'all' ? 0 : Math.floor((written() * 100) / Math.max(1, total)),
    })

  async function one(trx: Db, unit: ImportRow[]) {
    await sql`savepoint import_unit`.execute(trx)
    try {
      const mode = await run.write(trx, unit)
      await sql`release savepoint import_unit`.execute(trx)
      if (mode === 'modify') modified += unit.length
      else created += unit.length
    } catch (error) {
      await sql`rollback to savepoint import_unit`.execute(trx)
      await sql`release savepoint import_unit`.execute(trx)
      if (!(error instanceof BizError)) throw error
      refused(unit[0].line, error)
    }
    done += unit.length
  }
  function refused(line: number, error: BizError) {
    const problems = error instanceof ImportRowsError ? error.problems : [{ line: error instanceof ImportRowError ? error.line : line, message: error.message }]
    for (const p of problems) {
      failed++
      if (errors.length < MAX_TIPS) errors.push(lineMessage(p.line, p.message))
    }
  }
  async function batch(trx: Db, rows: ImportRow[]) {
    for (const outcome of await run.writeBatch!(trx, rows)) {
      if ('error' in outcome) refused(outcome.line, outcome.error)
      else if (outcome.mode === 'modify') modified++
      else created++
    }
    done += rows.length
  }

  const opLog = (db: Db) =>
    writeOpLog(run.opLogDb ?? db, ctx, `导入${run.label}`, OpLogType.OTHER, { total, created, modified, failed })
  const finish = (cancelled: boolean): ImportSummary => {
    const counted = failed > errors.length ? [...errors, `……共${failed}处错误，仅列出前${errors.length}条`] : errors
    const tips = stoppedBy ? [`${stoppedBy.message}（此前读到的${read}行已处理，其后未导入）`, ...counted] : counted
    if (!cancelled) return { total, created, modified, errors: tips }
    const message =
      atomicity === 'all'
        ? '导入已取消：本次导入的数据均未保存。'
        : `导入已取消：取消前已导入的${written()}条数据已保存，其余未导入。`
    return { total, created, modified, errors: [message, ...tips], cancelled: true }
  }

  const iterator = (Symbol.asyncIterator in run.units
    ? (run.units as AsyncIterable<ImportRow[]>)[Symbol.asyncIterator]()
    : (run.units as Iterable<ImportRow[]>)[Symbol.iterator]()) as AsyncIterator<ImportRow[]> | Iterator<ImportRow[]>
  const next = async () => {
    if (stoppedBy) return undefined
    try {
      const r = await iterator.next()
      if (r.done) total = read
      else read += r.value.length
      return r.done ? undefined : r.value
    } catch (error) {
      if (!(error instanceof BizError)) throw error
      stoppedBy = error
      total = read
      return undefined
    }
  }

  if (atomicity === 'all') {
    let cancelled = false
    try {
      await inTransaction(run.db, async (trx) => {
        let sinceCheck = 0
        for (let unit = await next(); unit; unit = await next()) {
          await one(trx, unit)
          sinceCheck += unit.length
          if (sinceCheck >= BATCH_ROWS) {
            sinceCheck = 0
            progress()
            if (signal.cancelled()) {
              cancelled = true
              throw new RolledBack()
            }
            // better-sqlite3 answers synchronously: let the progress poll and other requests in.
            await pause()
          }
        }
        if (failed || stoppedBy || signal.cancelled()) {
          cancelled = !failed && !stoppedBy
          throw new RolledBack()
        }
        await opLog(trx)
      })
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error
      created = 0
      modified = 0
      return finish(cancelled)
    }
    return finish(false)
  }

  let unit = await next()
  while (unit) {
    if (signal.cancelled()) {
      if (written()) await opLog(run.db)
      return finish(true)
    }
    await inTransaction(run.db, async (trx) => {
      if (run.writeBatch && atomicity === 'row') {
        const rows: ImportRow[] = []
        while (unit && rows.length < BATCH_ROWS) {
          rows.push(...unit)
          unit = await next()
        }
        await batch(trx, rows)
        return
      }
      let rows = 0
      while (unit && rows < BATCH_ROWS) {
        await one(trx, unit)
        rows += unit.length
        unit = await next()
      }
    })
    progress()
    await pause()
  }
  if (written()) await opLog(run.db)
  return finish(false)
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

/** Maps an async sequence lazily. */
export async function* mapRows<T, U>(source: AsyncIterable<T>, f: (t: T) => U): AsyncGenerator<U> {
  for await (const item of source) yield f(item)
}
