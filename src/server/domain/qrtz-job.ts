import dayjs from 'dayjs'
import type { Db } from '../db/dialect.js'
import type { Wire } from '../engine/record-codec.js'
import { parseQuartzCron, CronSyntaxError } from '../../shared/cron/quartz-cron.js'
import { QRTZ_JOB_TYPE, TRIGGER_STATE } from '../../shared/generated/enum-codes.js'
import { isBlank } from '../../shared/metadata/validate-record.js'
import { clock } from '../platform/clock.js'
import { invalid } from '../platform/errors.js'
import type { RequestContext } from '../platform/request-context.js'
import { updateColumns } from '../platform/audit-columns.js'
import type { Services } from '../services.js'
import { jobHandler } from '../jobs/job-handlers.js'

/**
 * Scheduled jobs (定时器, schemas/entities/qrtz-job.json): what a save must hold, and the state machine
 * the spec names (TRIGGER_STATE). WAITING: due at nextFireTime. ACQUIRED: a run is going on.
 * PAUSED: not fired (pausing during a run gives PAUSED_BLOCKED until the run ends). ERROR: the job
 * cannot run at all (its built-in handler is gone) until it is saved again. COMPLETE: the expression
 * has no fire time left. BLOCKED is not used: runs of one job never overlap (the scheduler awaits a
 * run before firing the job again), so a fire never waits behind one.
 */
export const JOB_TABLE = 'qrtz_job'
export const RUN_TABLE = 'qrtz_job_run'
export const State = TRIGGER_STATE

const stamp = (d: Date) => dayjs(d).format('YYYY-MM-DD HH:mm:ss')

/** The first fire time after `after` as stored (`YYYY-MM-DD HH:mm:ss`), or null when none is left. */
export function nextFireAfter(cron: string, after: Date): string | null {
  const next = parseQuartzCron(cron).next(after)
  return next ? stamp(next) : null
}

/** Validates a job before it is written; `values` is the merged record. Answers the Chinese refusal. */
export function checkJob(services: Services, ctx: RequestContext, values: Wire): void {
  const cron = String(values.cron ?? '').trim()
  try {
    if (!nextFireAfter(cron, clock().toDate())) throw invalid('Cron表达式没有下一次执行时间', 'cron')
  } catch (error) {
    if (error instanceof CronSyntaxError) throw invalid(error.message, 'cron')
    throw error
  }
  if (Number(values.jobType) === QRTZ_JOB_TYPE.EXECUTE_CLASS) {
    if (isBlank(values.targetClassName)) throw invalid('请选择内置任务', 'targetClassName')
    const handler = jobHandler(values.targetClassName)
    if (!handler) throw invalid('内置任务不存在', 'targetClassName')
    if (handler.platform && ctx.tenantId !== services.operatorTenantId) throw invalid('该内置任务只能由平台租户使用', 'targetClassName')
    const problem = handler.checkParams?.(String(values.params ?? '').trim())
    if (problem) throw invalid(problem, 'params')
  } else if (isBlank(values.script)) {
    throw invalid('请输入脚本', 'script')
  }
}

export function qrtzJobHooks(services: Services): void {
  services.hooks.on('qrtzJob', {
    async beforeSave({ ctx, values, existing, mode }) {
      const merged = mode === 'modify' ? { ...existing, ...values } : values
      values.cron = String(merged.cron ?? '').trim()
      checkJob(services, ctx, { ...merged, cron: values.cron })
      // a job keeps only what its type runs
      if (Number(merged.jobType) === QRTZ_JOB_TYPE.EXECUTE_CLASS) values.script = null
      else Object.assign(values, { targetClassName: null, params: null })
    },
    // A saved job is due at the next fire time of its (possibly new) expression; a paused one stays paused.
    async afterSave({ trx, id, values, existing }) {
      const state = existing?.state as string | undefined
      const paused = state === State.PAUSED || state === State.PAUSED_BLOCKED
      const running = state === State.ACQUIRED
      const next = nextFireAfter(String(values.cron ?? existing?.cron), clock().toDate())
      await trx
        .updateTable(JOB_TABLE)
        .set({
          next_fire_time: paused ? null : next,
          state: paused || running ? state : State.WAITING,
        })
        .where('id', '=', id)
        .execute()
    },
    async beforeDelete({ trx, ids }) {
      await trx.deleteFrom(RUN_TABLE).where('job_id', 'in', ids).execute()
    },
  })
}

async function jobRow(services: Services, trx: Db, ctx: RequestContext, id: unknown): Promise<Wire> {
  if (isBlank(id) || typeof id !== 'string') throw invalid('请选择定时器', 'id')
  // answers 定时器不存在！ for a missing row, as every call of the family does
  return services.store.get(trx, ctx, services.registry.get('qrtzJob'), id)
}

/** 暂停: a waiting job is not fired until resumed; a running one finishes its run first. */
export async function pauseJob(services: Services, trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const job = await jobRow(services, trx, ctx, id)
  const state = job.state as string
  if (state === State.PAUSED || state === State.PAUSED_BLOCKED) throw invalid('定时器已暂停')
  if (state === State.COMPLETE) throw invalid('定时器已执行完成，无法暂停')
  await trx
    .updateTable(JOB_TABLE)
    .set({ state: state === State.ACQUIRED ? State.PAUSED_BLOCKED : State.PAUSED, next_fire_time: null, ...updateColumns(ctx) })
    .where('id', '=', String(job.id))
    .execute()
}

/** 恢复: fires again from the next fire time after now (the paused period is not made up). */
export async function resumeJob(services: Services, trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const job = await jobRow(services, trx, ctx, id)
  const state = job.state as string
  if (state !== State.PAUSED && state !== State.PAUSED_BLOCKED) throw invalid('定时器未暂停，无需恢复')
  const next = nextFireAfter(String(job.cron), clock().toDate())
  await trx
    .updateTable(JOB_TABLE)
    .set({
      state: state === State.PAUSED_BLOCKED ? State.ACQUIRED : next ? State.WAITING : State.COMPLETE,
      next_fire_time: next,
      ...updateColumns(ctx),
    })
    .where('id', '=', String(job.id))
    .execute()
}

export { jobRow as qrtzJobOf }
