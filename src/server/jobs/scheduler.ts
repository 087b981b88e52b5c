import os from 'node:os'
import dayjs from 'dayjs'
import pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/dialect.js'
import type { Wire } from '../engine/record-codec.js'
import type { Services } from '../engine/services.js'
import { QRTZ_JOB_TYPE, QRTZ_RUN_STATUS, QRTZ_RUN_TRIGGER, WEBHOOK_EVENT } from '../../shared/generated/enum-codes.js'
import { emitWebhookEvent } from '../webhooks/webhook-outbox.js'
import { clock, now } from '../platform/clock.js'
import { auditColumns } from '../platform/audit-columns.js'
import { inTransaction } from '../platform/db-tx.js'
import { newId } from '../platform/ids.js'
import { runScript } from '../sandbox/script-sandbox.js'
import { JOB_TABLE, RUN_INTERRUPTED, RUN_TABLE, State, endJobRun, hasDeadRuns, interruptDeadRuns, nextFireAfter } from '../domain/jobs/qrtz-job.js'
import { jobHandler } from '../domain/jobs/job-handlers.js'
import { RunLeases } from './run-lease.js'
import { addTodos, menuPathOf, usersHolding } from '../platform/todos.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'

/**
 * The scheduler of 定时器 (issue 15). Jobs are rows of each tenant's database with their next fire time;
 * once a second the scheduler fires the due ones of every tenant. Croner only computes fire times
 * (src/shared/cron/quartz-cron.ts): no in-memory timer per job, so a job edited, paused or created
 * by another process is seen on the next tick, and nothing is lost when the process stops.
 *
 * Exactly once: a fire is claimed by inserting its run row, unique per (job, fire time), in the same
 * transaction that moves the job's next fire time; only the inserter runs it. On PostgreSQL only the
 * holder of a session advisory lock (on a dedicated connection, retried by the others) ticks at all;
 * the unique row still decides if a paused or replaced leader races the new one. SQLite is in-process.
 *
 * Misfire: a fire time later than MISFIRE_THRESHOLD_MS (the server was down, or the job was due during
 * a long pause of the process) is not replayed N times: the job runs once (触发方式 错过补偿) and its
 * next fire time is the first one after now. Fire times a few seconds late (a slow tick) are each run.
 *
 * A process that dies during a run (kill -9, a crash, the machine gone): every run holds a lease
 * (`lease_until`, renewed by its process every quarter of SCHEDULER_RUN_LEASE_MS, 20 s by default). The
 * leader, at each tick, and every process once at start-up end the runs whose lease has passed as
 * INTERRUPTED (执行进程已停止，本次执行中断) and give their jobs back (waiting, or paused when paused
 * meanwhile): within the lease + 1 s on a live leader, + SCHEDULER_LEADER_RETRY_MS when the dead process
 * was the leader. A job due meanwhile then runs once (错过补偿) on whichever process leads.
 */
export interface SchedulerOptions {
  /** false: no loop (tests drive `tick`); the calls (trigger) still run jobs. */
  enabled: boolean
  /** PostgreSQL: how often a follower tries to become the leader. */
  leaderRetryMs: number
  /** How long a run's lease lasts without renewal (its process renews it every quarter of this). */
  runLeaseMs: number
}

export const MISFIRE_THRESHOLD_MS = 5000
/** Fire times of one job caught up in one tick (late but within the threshold). */
const MAX_CATCH_UP = 10
/** Deadline of a script job (QuickJS, besides its memory and stack limits). */
export const SCRIPT_JOB_TIMEOUT_MS = 5000
/** Any constant: advisory locks are per database, and only the scheduler takes this one. */
const LEADER_LOCK_KEY = 7_246_015_015
const SYSTEM = { userId: 'system', name: '系统' }

/** A failed run is a 待办 of whoever manages the timers: it opens 定时器管理, where 执行记录 tells why. */
async function failedRunTodo(trx: Db, job: Wire, runId: string): Promise<void> {
  const key = PERMISSION.development.qrtz.manage
  const path = await menuPathOf(trx, key)
  if (!path) return
  await addTodos(trx, await usersHolding(trx, [key]), { key: `qrtz-run:${runId}`, title: `定时器【${String(job.name ?? '')}】执行失败`, jumpUrl: path })
}
const MESSAGE_MAX = 4000

const stamp = (d: Date) => dayjs(d).format('YYYY-MM-DD HH:mm:ss')
const parseStamp = (s: string) => dayjs(s).toDate()

export interface RunOutcome {
  runId: string
  status: string
  message: string
}

/** The job cannot run at all (its built-in handler is missing or not allowed): the job goes to ERROR. */
class UnrunnableJob extends Error {}
/** The claim lost its race (the job moved on meanwhile): roll the run row back. */
class LostClaim extends Error {}

/** Who may tick: always on SQLite; on PostgreSQL the holder of the advisory lock. */
interface Leadership {
  isLeader(): Promise<boolean>
  release(): Promise<void>
}

const alwaysLeader: Leadership = { isLeader: async () => true, release: async () => {} }

/**
 * A session-level advisory lock on its own connection: a pooled connection would carry the lock into
 * unrelated queries. The lock dies with the connection, so losing the connection ends leadership at
 * once; the next try opens a new one.
 */
class AdvisoryLeadership implements Leadership {
  private client?: pg.Client
  private held = false
  private nextTry = 0
  private released = false

  constructor(
    private readonly connectionString: string,
    private readonly retryMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async isLeader(): Promise<boolean> {
    if (this.held) return true
    if (this.released || Date.now() < this.nextTry) return false
    this.nextTry = Date.now() + this.retryMs
    try {
      if (!this.client) {
        const client = new pg.Client({ connectionString: this.connectionString })
        client.on('error', (error) => this.lost(client, error))
        client.on('end', () => this.lost(client))
        await client.connect()
        this.client = client
      }
      const result = await this.client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [LEADER_LOCK_KEY])
      this.held = result.rows[0]?.ok === true
      if (this.held) this.log.info('scheduler: this process is the leader')
    } catch (error) {
      if (this.client) this.lost(this.client, error)
    }
    return this.held
  }

  private lost(client: pg.Client, error?: unknown) {
    if (client !== this.client) return
    if (this.held) this.log.warn({ err: error }, 'scheduler: leader connection lost, no longer scheduling')
    this.held = false
    this.client = undefined
    client.end().catch(() => {})
  }

  async release(): Promise<void> {
    this.released = true
    const client = this.client
    this.client = undefined
    this.held = false
    // ending the session releases the lock
    if (client) await client.end().catch(() => {})
  }
}

export class JobScheduler {
  /** Written into each run row (执行进程), so the history shows which process ran it. */
  readonly instance = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
  private readonly leadership: Leadership
  private readonly leases: RunLeases
  /** Runs left behind by dead processes are ended once at start-up, leader or not. */
  private reapedAtStart = false
  private timer?: NodeJS.Timeout
  private stopped = true
  /** stop() was called: a tick in progress ends after the tenant it is on. */
  private closing = false
  private ticking?: Promise<void>

  constructor(
    private readonly services: Services,
    private readonly options: SchedulerOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.leadership =
      services.databases.kind === 'postgres'
        ? new AdvisoryLeadership(services.config.databaseUrl, options.leaderRetryMs, log)
        : alwaysLeader
    this.leases = new RunLeases(options.runLeaseMs, log)
  }

  start(): void {
    if (!this.options.enabled || !this.stopped) return
    this.stopped = false
    this.schedule(0)
  }

  /** Stops ticking, waits for the tick (and its runs) in progress, and gives up leadership. */
  async stop(): Promise<void> {
    this.stopped = true
    this.closing = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    await this.ticking
    await this.leadership.release()
  }

  private schedule(delay: number) {
    this.timer = setTimeout(() => {
      this.ticking = this.loop().finally(() => {
        this.ticking = undefined
        // just after the next whole second, when second-precision fire times fall due
        if (!this.stopped) this.schedule(1000 - (Date.now() % 1000) + 20)
      })
    }, delay)
    this.timer.unref()
  }

  private async loop(): Promise<void> {
    try {
      if (!this.reapedAtStart) {
        this.reapedAtStart = true
        await this.interruptDeadRuns()
      }
      if (await this.leadership.isLeader()) await this.tick()
    } catch (error) {
      this.log.error({ err: error }, 'scheduler tick failed')
    }
  }

  /** Ends the runs of dead processes in every tenant (see the class note); answers how many. */
  async interruptDeadRuns(): Promise<number> {
    let ended = 0
    for (const tenantId of await this.services.tenantIds()) {
      try {
        ended += await this.interruptDeadRunsOf(this.services.databases.tenant(tenantId))
      } catch (error) {
        this.log.error({ err: error, tenantId }, 'scheduler: dead runs of the tenant not ended')
      }
    }
    return ended
  }

  private async interruptDeadRunsOf(db: Db): Promise<number> {
    if (!(await hasDeadRuns(db))) return 0
    const ended = await inTransaction(db, (trx) => interruptDeadRuns(trx))
    if (ended) this.log.warn({ ended }, 'scheduler: runs of a stopped process ended as interrupted')
    return ended
  }

  /** One pass over every tenant at `at` (the server clock by default); answers how many runs it made. */
  async tick(at: Date = clock().toDate()): Promise<number> {
    let runs = 0
    for (const tenantId of await this.services.tenantIds()) {
      if (this.closing) break
      try {
        runs += await this.tickTenant(tenantId, this.services.databases.tenant(tenantId), at)
      } catch (error) {
        // one tenant's trouble (a tenant still being provisioned has no tables yet) does not stop the others
        this.log.error({ err: error, tenantId }, 'scheduler: tenant skipped this tick')
      }
    }
    return runs
  }

  private async tickTenant(tenantId: string, db: Db, at: Date): Promise<number> {
    await this.interruptDeadRunsOf(db)
    const entity = this.services.registry.get('qrtzJob')
    const rows = await db
      .selectFrom(JOB_TABLE)
      .selectAll()
      .where('state', '=', State.WAITING)
      .where('next_fire_time', '<=', stamp(at))
      .orderBy('next_fire_time')
      .execute()
    let runs = 0
    for (const row of rows) {
      const job = this.services.codec.fromRow(entity, row)
      let fire = job.nextFireTime ? String(job.nextFireTime) : null
      for (let i = 0; i < MAX_CATCH_UP && fire && parseStamp(fire) <= at; i++) {
        const misfire = at.getTime() - parseStamp(fire).getTime() > MISFIRE_THRESHOLD_MS
        let next: string | null
        try {
          next = nextFireAfter(String(job.cron), misfire ? at : parseStamp(fire))
        } catch {
          await this.markError(db, String(job.id))
          break
        }
        const trigger = misfire ? QRTZ_RUN_TRIGGER.MISFIRE : QRTZ_RUN_TRIGGER.SCHEDULE
        const runId = await this.claim(db, job, fire, next, trigger)
        if (!runId) break
        await this.execute(tenantId, db, job, runId, fire, true, trigger)
        runs++
        fire = next
      }
    }
    return runs
  }

  /** Inserts the run row of (job, fire) and moves the job on, or answers null when another claim won. */
  private async claim(db: Db, job: Wire, fire: string, next: string | null, trigger: string): Promise<string | null> {
    const runId = newId()
    try {
      await inTransaction(db, async (trx) => {
        const inserted = await trx
          .insertInto(RUN_TABLE)
          .values(this.runRow(runId, job, fire, trigger))
          .onConflict((oc) => oc.columns(['job_id', 'fire_time']).doNothing())
          .executeTakeFirst()
        if (!Number(inserted.numInsertedOrUpdatedRows ?? 0)) throw new LostClaim()
        const moved = await trx
          .updateTable(JOB_TABLE)
          .set({ prev_fire_time: fire, next_fire_time: next, state: State.ACQUIRED })
          .where('id', '=', String(job.id))
          .where('state', '=', State.WAITING)
          .where('next_fire_time', '=', String(job.nextFireTime))
          .executeTakeFirst()
        if (!Number(moved.numUpdatedRows)) throw new LostClaim()
        job.nextFireTime = next
      })
      return runId
    } catch (error) {
      if (error instanceof LostClaim) return null
      throw error
    }
  }

  private runRow(id: string, job: Wire, fire: string | null, trigger: string) {
    return {
      id,
      job_id: String(job.id),
      job_name: String(job.name ?? ''),
      fire_time: fire,
      trigger_type: trigger,
      status: QRTZ_RUN_STATUS.RUNNING,
      start_time: now(),
      instance: this.instance.slice(0, 100),
      lease_until: this.leases.until(),
      ...auditColumns(SYSTEM),
    }
  }

  /** 立即执行: one run now, beside the schedule (no fire time; the job's state and next fire stay). */
  /**
   * 立即执行: the run, and the job's 上次执行时间 (prev_fire_time) set to now, unless a scheduled run is in
   * flight: that run's end finds its job by the fire time it wrote there (endJobRun), so it is left alone.
   */
  async runNow(tenantId: string, db: Db, job: Wire): Promise<RunOutcome> {
    const runId = newId()
    const run = this.runRow(runId, job, null, QRTZ_RUN_TRIGGER.MANUAL)
    await inTransaction(db, async (trx) => {
      await trx.insertInto(RUN_TABLE).values(run).execute()
      await trx
        .updateTable(JOB_TABLE)
        .set({ prev_fire_time: run.start_time })
        .where('id', '=', String(job.id))
        .where('state', 'not in', [State.ACQUIRED, State.PAUSED_BLOCKED])
        .execute()
    })
    return this.execute(tenantId, db, job, runId, null, false, QRTZ_RUN_TRIGGER.MANUAL)
  }

  private async execute(tenantId: string, db: Db, job: Wire, runId: string, fire: string | null, scheduled: boolean, trigger: string): Promise<RunOutcome> {
    const ended = this.services.metrics.jobRunStarted(trigger)
    try {
      const outcome = await this.run(tenantId, db, job, runId, fire, scheduled)
      ended(outcome.status)
      return outcome
    } catch (error) {
      // the run row could not be ended (the database went away): it stays RUNNING until its lease passes
      ended(QRTZ_RUN_STATUS.ERROR)
      throw error
    }
  }

  private async run(tenantId: string, db: Db, job: Wire, runId: string, fire: string | null, scheduled: boolean): Promise<RunOutcome> {
    this.leases.hold(runId, db)
    let status: string = QRTZ_RUN_STATUS.SUCCESS
    let message = ''
    let unrunnable = false
    try {
      try {
        message = await this.perform(tenantId, db, job, fire)
      } catch (error) {
        status = QRTZ_RUN_STATUS.ERROR
        unrunnable = error instanceof UnrunnableJob
        message = error instanceof Error ? error.message : String(error)
        this.log.warn({ err: error, jobId: job.id, tenantId }, 'scheduled job failed')
      }
      message = message.slice(0, MESSAGE_MAX)
      const id = String(job.id)
      const ended = await inTransaction(db, async (trx) => {
        const run = await trx
          .updateTable(RUN_TABLE)
          .set({ status, end_time: now(), message })
          .where('id', '=', runId)
          .where('status', '=', QRTZ_RUN_STATUS.RUNNING)
          .executeTakeFirst()
        // ended as interrupted meanwhile (this process stalled past its lease): the job has moved on without it
        if (!Number(run.numUpdatedRows)) return false
        if (scheduled && fire) await endJobRun(trx, id, fire, unrunnable)
        else if (unrunnable)
          await trx.updateTable(JOB_TABLE).set({ state: State.ERROR }).where('id', '=', id).where('state', '=', State.WAITING).execute()
        if (status === QRTZ_RUN_STATUS.ERROR) {
          await emitWebhookEvent(trx, WEBHOOK_EVENT.JOB_FAILED, { jobId: id, jobName: String(job.name ?? ''), runId, fireTime: fire, message })
          await failedRunTodo(trx, job, runId)
        }
        return true
      })
      if (!ended) return { runId, status: QRTZ_RUN_STATUS.INTERRUPTED, message: RUN_INTERRUPTED }
      return { runId, status, message }
    } finally {
      this.leases.release(runId)
    }
  }

  private async perform(tenantId: string, db: Db, job: Wire, fire: string | null): Promise<string> {
    if (Number(job.jobType) === QRTZ_JOB_TYPE.EXECUTE_CLASS) {
      const handler = jobHandler(job.targetClassName)
      if (!handler) throw new UnrunnableJob(`内置任务不存在：${String(job.targetClassName ?? '')}`)
      if (handler.platform && tenantId !== this.services.operatorTenantId) throw new UnrunnableJob('该内置任务只能由平台租户使用')
      return handler.run({ services: this.services, tenantId, db, params: String(job.params ?? '').trim() })
    }
    const result = await runScript(
      String(job.script ?? ''),
      [{ id: String(job.id), name: String(job.name ?? ''), fireTime: fire ?? now(), tenantId }],
      { params: ['job'], timeoutMs: SCRIPT_JOB_TIMEOUT_MS },
    )
    return result === null ? '' : typeof result === 'string' ? result : JSON.stringify(result)
  }

  private async markError(db: Db, id: string) {
    await db.updateTable(JOB_TABLE).set({ state: State.ERROR }).where('id', '=', id).where('state', '=', State.WAITING).execute()
  }
}
