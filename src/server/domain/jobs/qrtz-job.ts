import dayjs from 'dayjs'
import { sql, type ExpressionBuilder } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { Wire } from '../../engine/record-codec.js'
import { parseQuartzCron, CronSyntaxError } from '../../../shared/cron/quartz-cron.js'
import { QRTZ_JOB_TYPE, QRTZ_RUN_STATUS, TRIGGER_STATE } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { clock, now } from '../../platform/clock.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import { updateColumns } from '../../platform/audit-columns.js'
import type { Services } from '../../engine/services.js'
import { jobHandler } from './job-handlers.js'

/**
 * Scheduled jobs (定时器, schemas/entities/qrtz-job.json): what a save must hold, and the state machine
 * the spec names (TRIGGER_STATE). WAITING: due at nextFireTime. ACQUIRED: a run is going on.
 * PAUSED: not fired (pausing during a run gives PAUSED_BLOCKED until the run ends). ERROR: the job
 * cannot run at all (its built-in handler is gone) until it is saved again. COMPLETE: the expression
 * has no fire time left. BLOCKED is not used: runs of one job never overlap (the scheduler awaits a
 * run before firing the job again), so a fire never waits behind one.
 *
 * Every change of state is one statement naming the state(s) it expects, so a run ending, a pause and
 * a save racing each other never undo one another. The job's ACQUIRED belongs to the run of its
 * prevFireTime: only that run's end (or its interruption) moves the job on.
 */
export const JOB_TABLE = 'qrtz_job'
export const RUN_TABLE = 'qrtz_job_run'
export const State = TRIGGER_STATE

const stamp = (d: Date) => dayjs(d).format('YYYY-MM-DD HH:mm:ss')
/** A datetime column as read: PostgreSQL's driver gives a Date, SQLite the stored text. */
const stampOf = (v: unknown) => (v instanceof Date ? stamp(v) : String(v))

/** 执行记录 of a run whose process stopped (killed, crashed) before it ended. */
export const RUN_INTERRUPTED = '执行进程已停止，本次执行中断'
/** A pause or resume whose job kept changing state under it (a run ending at that instant, several times over). */
export const JOB_STATE_CHANGED = '定时器状态已变化，请刷新后重试'
const PAUSED_STATES: string[] = [State.PAUSED, State.PAUSED_BLOCKED]

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
      const next = nextFireAfter(String(values.cron ?? existing?.cron), clock().toDate())
      const job = () => trx.updateTable(JOB_TABLE).where('id', '=', id)
      // by the state the row has now, not the one read before the save: a run ending meanwhile stays ended
      await job().set({ next_fire_time: null }).where('state', 'in', PAUSED_STATES).execute()
      await job().set({ next_fire_time: next }).where('state', '=', State.ACQUIRED).execute()
      await job()
        .set({ next_fire_time: next, state: State.WAITING })
        .where((eb) => eb.or([eb('state', 'is', null), eb('state', 'not in', [...PAUSED_STATES, State.ACQUIRED])]))
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

/**
 * The job once its scheduled run (fired at `fire`) has ended: paused during the run, it is now simply
 * paused; otherwise waiting for its next fire time (complete when there is none, in error when it could
 * not run at all). Guarded on the run still being the job's current one and on the states a run holds.
 */
export async function endJobRun(db: Db, jobId: string, fire: string, unrunnable: boolean): Promise<void> {
  const idle = unrunnable ? sql`${State.ERROR}` : sql`case when next_fire_time is null then ${State.COMPLETE} else ${State.WAITING} end`
  await db
    .updateTable(JOB_TABLE)
    .set({ state: sql`case when state = ${State.PAUSED_BLOCKED} then ${State.PAUSED} else ${idle} end` })
    .where('id', '=', jobId)
    .where('prev_fire_time', '=', fire)
    .where('state', 'in', [State.ACQUIRED, State.PAUSED_BLOCKED])
    .execute()
}

/** A run still RUNNING whose lease has passed at `at` (epoch ms), or that never had one (written before leases). */
const deadRun =
  (at: number) =>
  (eb: ExpressionBuilder<any, any>) =>
    eb.and([eb('status', '=', QRTZ_RUN_STATUS.RUNNING), eb.or([eb('lease_until', '<', at), eb('lease_until', 'is', null)])])

/** Whether any run is left by a dead process: a read, so that the leader's every-second look writes nothing. */
export async function hasDeadRuns(db: Db): Promise<boolean> {
  return (await db.selectFrom(RUN_TABLE).select('id').where(deadRun(Date.now())).limit(1).executeTakeFirst()) !== undefined
}

/**
 * Ends as interrupted every run (of one job, or all) whose lease has passed: its process died without
 * ending it (a run carried out renews its lease, jobs/run-lease.ts; a run written before leases existed
 * has none). Its job goes back to waiting, or paused. Answers how many runs were ended.
 */
export async function interruptDeadRuns(trx: Db, jobId?: string): Promise<number> {
  let dead = trx
    .updateTable(RUN_TABLE)
    .set({ status: QRTZ_RUN_STATUS.INTERRUPTED, end_time: now(), message: RUN_INTERRUPTED })
    .where(deadRun(Date.now()))
  if (jobId) dead = dead.where('job_id', '=', jobId)
  const ended = await dead.returning(['job_id', 'fire_time']).execute()
  for (const run of ended) if (run.fire_time !== null) await endJobRun(trx, String(run.job_id), stampOf(run.fire_time), false)
  return ended.length
}

async function stateOf(trx: Db, id: string): Promise<string> {
  const row = await trx.selectFrom(JOB_TABLE).select('state').where('id', '=', id).executeTakeFirst()
  return String(row?.state ?? '')
}

/**
 * Moves a job from the state it has now to `to(state)` with one statement guarded on that state; read
 * again and retried when a run ended in between. `to` throws the refusal of a state it does not leave.
 */
async function transition(
  trx: Db,
  ctx: RequestContext,
  id: string,
  to: (state: string) => { state: unknown; next_fire_time: string | null },
): Promise<void> {
  // a run left behind by a dead process is ended first: its job is not running any more
  await interruptDeadRuns(trx, id)
  for (let attempt = 0; attempt < 3; attempt++) {
    const state = await stateOf(trx, id)
    const changed = await trx
      .updateTable(JOB_TABLE)
      .set({ ...to(state), ...updateColumns(ctx) })
      .where('id', '=', id)
      .where('state', '=', state)
      .executeTakeFirst()
    if (Number(changed.numUpdatedRows)) return
  }
  throw invalid(JOB_STATE_CHANGED)
}

/** 暂停: from any state but paused and complete; a running job finishes its run first (PAUSED_BLOCKED), then stays paused. */
export async function pauseJob(services: Services, trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const job = await jobRow(services, trx, ctx, id)
  await transition(trx, ctx, String(job.id), (state) => {
    if (PAUSED_STATES.includes(state)) throw invalid('定时器已暂停')
    if (state === State.COMPLETE) throw invalid('定时器已执行完成，无法暂停')
    return { state: state === State.ACQUIRED ? State.PAUSED_BLOCKED : State.PAUSED, next_fire_time: null }
  })
}

/**
 * 恢复: fires again from the next fire time after now (the paused period is not made up). Paused during
 * a run, the job is running again only while that run really goes on (a live lease); otherwise waiting.
 */
export async function resumeJob(services: Services, trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const job = await jobRow(services, trx, ctx, id)
  const jobId = String(job.id)
  const next = nextFireAfter(String(job.cron), clock().toDate())
  const idle = next ? State.WAITING : State.COMPLETE
  const liveRun = trx
    .selectFrom(RUN_TABLE)
    .select(sql`1`.as('one'))
    .where('job_id', '=', jobId)
    .where('status', '=', QRTZ_RUN_STATUS.RUNNING)
    .where('fire_time', 'is not', null)
  await transition(trx, ctx, jobId, (state) => {
    if (!PAUSED_STATES.includes(state)) throw invalid('定时器未暂停，无需恢复')
    return {
      state: state === State.PAUSED_BLOCKED ? sql`case when exists ${liveRun} then ${State.ACQUIRED} else ${idle} end` : idle,
      next_fire_time: next,
    }
  })
}

export { jobRow as qrtzJobOf }
