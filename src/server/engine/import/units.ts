import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { BizError } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'

/**
 * How the rows of one import run, whatever writes them (an entity's rows, engine/import/runner.ts, or an
 * import kind, engine/import/kind.ts): the units and their transactions, row errors, cancel and progress.
 */

/** One data row of an uploaded file: its sheet row number (the header is row 1) and cell texts by field. */
export interface ImportRow {
  line: number
  cells: Map<string, string>
}

/** 'all': the whole file or nothing; 'group': each group all or nothing; 'row': each row on its own. */
export type Atomicity = 'all' | 'group' | 'row'

export interface ImportSummary {
  total: number
  created: number
  modified: number
  /** Empty when everything was written (at most MAX_TIPS messages and a count of the rest). */
  errors: string[]
  /** Stopped by the user: errors[0] says what was kept. */
  cancelled?: boolean
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
export function importUnits(kind: { atomicity: Atomicity; groupKey?: (row: ImportRow) => string; label: string }, rows: ImportRow[]): ImportRow[][] {
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
  atomicity: Atomicity
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

/** Maps an async sequence lazily. */
export async function* mapRows<T, U>(source: AsyncIterable<T>, f: (t: T) => U): AsyncGenerator<U> {
  for await (const item of source) yield f(item)
}
