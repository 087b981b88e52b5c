import dayjs from 'dayjs'
import type { FastifyBaseLogger } from 'fastify'
import type { Db, DbKind } from '../../db/dialect.js'
import { migrate } from '../../db/migrations.js'
import { IMPORT_TASK_TABLE as TABLE, importTaskMigrations } from '../../db/import-task-migrations.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { invalid, notFound } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { ImportProgress } from '../../engine/import/runner.js'
import type { ImportTaskRunner } from '../../engine/import/routes.js'
import type { AppMetrics } from '../../platform/app-metrics.js'
import { inTransaction } from '../../platform/db-tx.js'
import { emitWebhookEvent } from '../../webhooks/webhook-outbox.js'
import { WEBHOOK_EVENT } from '../../../shared/generated/enum-codes.js'

/** Progress is written at most this often while a task runs (the client polls every 500 ms). */
const WRITE_EVERY_MS = 250
/** A task without progress for this long died with its process. */
const STALE_MINUTES = 10
/** Finished tasks are removed after a day. */
const KEEP_HOURS = 24
/** How often a running task reads its cancel flag (a cancel may arrive at any process). */
const CANCEL_POLL_MS = 250
/** How often a running task says it is alive; a task silent for 3 beats has lost its process. */
const HEARTBEAT_MS = 5000
const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_MS

export const INTERNAL_ERROR_TIP = '导入失败：系统出现内部错误，请联系系统管理员！'
export const STALE_TIP = '导入任务已中断，请重新导入！'
/** Written at start-up over every task the previous process left unfinished. */
export const RESTART_TIP =
  '导入任务因服务重启而中断：整体导入的文件未保存任何数据；逐行或按组导入的文件中断前已导入的数据已保存，请核对后重新导入其余数据！'
export const NOT_RUNNING_MESSAGE = '导入任务已结束或不存在，无法取消！'

type Row = Record<string, unknown>

const time = (minutesAgo: number) => dayjs().subtract(minutesAgo, 'minute').format('YYYY-MM-DD HH:mm:ss')

/**
 * Import tasks: started by `POST {base}/import`, run in this process without holding the request,
 * progress kept in `sys_import_task` and answered by `GET /component/import/task`.
 */
export class ImportTaskStore implements ImportTaskRunner {
  private readonly running = new Set<Promise<void>>()

  constructor(
    private readonly db: Db,
    private readonly kind: DbKind,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: AppMetrics,
  ) {}

  async migrate(schema?: string): Promise<void> {
    await migrate(this.db, { label: 'import task', migrations: importTaskMigrations(this.kind), table: 'component_migration', schema })
  }

  async start(
    ctx: RequestContext,
    name: string,
    total: number,
    work: Parameters<ImportTaskRunner['start']>[3],
  ): Promise<string> {
    await this.db.deleteFrom(TABLE).where('create_time', '<', time(KEEP_HOURS * 60)).execute()
    const id = newId()
    await this.db
      .insertInto(TABLE)
      .values({
        id,
        tenant_id: ctx.tenantId,
        user_id: ctx.userId,
        entity: name.slice(0, 64),
        total,
        process: 0,
        success_process: 0,
        tip_msgs: '[]',
        has_error: 0,
        finished: 0,
        data: null,
        cancel_requested: 0,
        heartbeat_time: time(0),
        ...auditColumns(ctx),
      })
      .execute()
    const state = { cancelled: false }
    const stopWatching = this.watch(id, state)
    const ended = this.metrics.importStarted()
    const run: Promise<void> = this.run(id, ctx, name, work, () => state.cancelled).then(ended, () => ended(true)).finally(() => {
      stopWatching()
      this.running.delete(run)
    })
    this.running.add(run)
    return id
  }

  /** Runs the work and writes its end; answers whether it ended with errors. */
  private async run(id: string, ctx: RequestContext, name: string, work: Parameters<ImportTaskRunner['start']>[3], cancelled: () => boolean): Promise<boolean> {
    // Progress writes go one after another, and the final write after all of them.
    let queue: Promise<unknown> = Promise.resolve()
    let last = 0
    const write = (patch: Partial<ImportProgress>) => {
      queue = queue.then(() => this.write(id, ctx, patch)).catch((error: unknown) => this.log.warn({ err: error, id }, 'import progress not saved'))
      return queue
    }
    let final: Partial<ImportProgress>
    try {
      const summary = await work((p) => {
        const now = Date.now()
        if (now - last < WRITE_EVERY_MS) return
        last = now
        void write(p)
      }, { cancelled })
      const written = summary.created + summary.modified
      final = summary.errors.length
        ? {
            process: 100,
            // Kinds whose rows or groups are independent keep what passed: successProcess says how much.
            successProcess: Math.floor((written * 100) / Math.max(1, summary.total)),
            tipMsgs: summary.errors,
            hasError: true,
            finished: true,
            data: written ? { total: summary.total, created: summary.created, modified: summary.modified } : null,
          }
        : {
            process: 100,
            successProcess: 100,
            tipMsgs: [],
            hasError: false,
            finished: true,
            data: { total: summary.total, created: summary.created, modified: summary.modified },
          }
    } catch (error) {
      this.log.error({ err: error, id }, 'import task failed')
      final = { process: 100, successProcess: 0, tipMsgs: [INTERNAL_ERROR_TIP], hasError: true, finished: true, data: null }
    }
    await write(final)
    await this.announce(id, ctx, name, final)
    return final.hasError === true
  }

  /**
   * The webhook event of a finished import, into the tenant's outbox. The task row lives in the platform
   * database, so this is a transaction of its own right after the task's end is written; a failure here
   * is logged and leaves the task as it ended.
   */
  private async announce(id: string, ctx: RequestContext, name: string, final: Partial<ImportProgress>) {
    const data = { taskId: id, entity: name, hasError: final.hasError === true, result: final.data ?? null, errors: (final.tipMsgs ?? []).length }
    await inTransaction(ctx.db, (trx) => emitWebhookEvent(trx, WEBHOOK_EVENT.IMPORT_FINISHED, data, ctx)).catch((error: unknown) =>
      this.log.warn({ err: error, id }, 'import finished event not written'),
    )
  }

  /** Reads the task's cancel flag every CANCEL_POLL_MS and beats every HEARTBEAT_MS while it runs. */
  private watch(id: string, state: { cancelled: boolean }): () => void {
    let lastBeat = Date.now()
    let busy = false
    const timer = setInterval(() => {
      if (busy) return
      busy = true
      void (async () => {
        const row = await this.db.selectFrom(TABLE).select('cancel_requested').where('id', '=', id).executeTakeFirst()
        if (Number(row?.cancel_requested) === 1) state.cancelled = true
        if (Date.now() - lastBeat >= HEARTBEAT_MS) {
          lastBeat = Date.now()
          await this.db.updateTable(TABLE).set({ heartbeat_time: time(0) }).where('id', '=', id).execute()
        }
      })()
        .catch((error: unknown) => this.log.warn({ err: error, id }, 'import task watch failed'))
        .finally(() => {
          busy = false
        })
    }, CANCEL_POLL_MS)
    return () => clearInterval(timer)
  }

  private async write(id: string, ctx: RequestContext, p: Partial<ImportProgress>) {
    const set: Row = { ...updateColumns(ctx) }
    if (p.process !== undefined) set.process = p.process
    if (p.successProcess !== undefined) set.success_process = p.successProcess
    if (p.tipMsgs !== undefined) set.tip_msgs = JSON.stringify(p.tipMsgs)
    if (p.hasError !== undefined) set.has_error = p.hasError ? 1 : 0
    if (p.finished !== undefined) set.finished = p.finished ? 1 : 0
    if (p.data !== undefined) set.data = p.data === null ? null : JSON.stringify(p.data)
    await this.db.updateTable(TABLE).set(set).where('id', '=', id).execute()
  }

  /**
   * Asks the caller's own running task to stop; it stops at its next batch boundary (what was committed
   * stays for 'row'/'group' imports, nothing for 'all') and says so in its tipMsgs.
   */
  async cancel(ctx: RequestContext, id: unknown): Promise<void> {
    const taskId = typeof id === 'string' ? id.trim() : ''
    if (!taskId) throw invalid(NOT_RUNNING_MESSAGE, 'id')
    // Whichever process runs it reads the flag within CANCEL_POLL_MS; a task whose process is gone is not running.
    const result = await this.db
      .updateTable(TABLE)
      .set({ cancel_requested: 1 })
      .where('id', '=', taskId)
      .where('tenant_id', '=', ctx.tenantId)
      .where('user_id', '=', ctx.userId)
      .where('finished', '=', 0)
      .where('heartbeat_time', '>=', dayjs().subtract(HEARTBEAT_STALE_MS, 'millisecond').format('YYYY-MM-DD HH:mm:ss'))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) throw invalid(NOT_RUNNING_MESSAGE, 'id')
  }

  /**
   * At start-up, tasks left unfinished by a process that is gone say so (instead of waiting STALE_MINUTES
   * or polling forever). On SQLite (one process) that is every unfinished task; on PostgreSQL other
   * processes may be running theirs, so only tasks without a heartbeat for HEARTBEAT_STALE_MS.
   */
  async failUnfinished(): Promise<number> {
    let query = this.db
      .updateTable(TABLE)
      .set({ finished: 1, has_error: 1, process: 100, tip_msgs: JSON.stringify([RESTART_TIP]), update_time: time(0) })
      .where('finished', '=', 0)
    if (this.kind === 'postgres') {
      const stale = dayjs().subtract(HEARTBEAT_STALE_MS, 'millisecond').format('YYYY-MM-DD HH:mm:ss')
      query = query.where((eb) => eb.or([eb('heartbeat_time', 'is', null), eb('heartbeat_time', '<', stale)]))
    }
    const result = await query.executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /** The caller's own task (same tenant and user), as the spec's progress shape. */
  async progress(ctx: RequestContext, id: unknown): Promise<ImportProgress> {
    const row = typeof id === 'string' && id.trim()
      ? await this.db
          .selectFrom(TABLE)
          .selectAll()
          .where('id', '=', id.trim())
          .where('tenant_id', '=', ctx.tenantId)
          .where('user_id', '=', ctx.userId)
          .executeTakeFirst()
      : undefined
    if (!row) throw notFound('导入任务不存在！')
    const finished = Number(row.finished) === 1
    if (!finished && String(row.update_time ?? '') < time(STALE_MINUTES)) {
      return { process: Number(row.process), successProcess: 0, tipMsgs: [STALE_TIP], hasError: true, finished: true, data: null }
    }
    const parse = (v: unknown) => {
      try {
        return v === null || v === undefined ? null : JSON.parse(String(v))
      } catch {
        return null
      }
    }
    return {
      process: Number(row.process),
      successProcess: Number(row.success_process),
      tipMsgs: (parse(row.tip_msgs) as string[] | null) ?? [],
      hasError: Number(row.has_error) === 1,
      finished,
      data: parse(row.data),
    }
  }

  /** Waits for the tasks of this process (the app closes its databases after this). */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running])
  }
}
