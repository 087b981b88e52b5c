import dayjs from 'dayjs'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { startServerProcess, type ServerProcess } from '../support/server-process.js'

interface Run {
  fire_time: string
  status: string
  instance: string
  trigger_type: string
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const text = (v: unknown) => (v instanceof Date ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : String(v))

/**
 * Several server processes on one PostgreSQL: exactly one schedules (advisory lock), another takes over
 * when it stops, and a fire time runs once even when two schedulers tick it at the same moment.
 * On SQLite (one process by design) the same unique run row makes concurrent ticks of one app fire once.
 */
describe('scheduled jobs across server processes', () => {
  let t: TestApp
  let admin: string
  let second: FastifyInstance | undefined

  beforeAll(async () => {
    t = await startTestApp({ env: { SCHEDULER_LEADER_RETRY_MS: '300' } })
    admin = await t.login()
  })
  afterAll(async () => {
    await second?.close()
    await t?.close()
  })

  const startSecond = async () => {
    const app = await buildApp(t.app.services.config)
    await app.ready()
    return app
  }
  const create = async (name: string, cron: string) => {
    const r = await t.call<string>('POST', '/qrtz', { token: admin, body: { name, jobType: 2, cron, script: 'return job.fireTime' } })
    expect(r.status, r.raw).toBe(200)
    return r.body.data
  }
  const runsOf = async (jobId: string): Promise<Run[]> =>
    (
      await t.app.services.databases
        .tenant('1000')
        .selectFrom('qrtz_job_run')
        .select(['fire_time', 'status', 'instance', 'trigger_type'])
        .where('job_id', '=', jobId)
        .orderBy('fire_time')
        .execute()
    ).map((r) => ({ ...r, fire_time: text(r.fire_time) }) as Run)

  if (process.env.TEST_DB === 'postgres')
    it('runs a job due every second exactly once per fire time across two processes for 10 s, through a leader change', { timeout: 60_000 }, async () => {
      second = await startSecond()
      const id = await create('每秒任务', '* * * * * ?')
      await sleep(5500)
      const before = await runsOf(id)
      const leaders = new Set(before.map((r) => r.instance))
      expect(leaders.size, JSON.stringify(before)).toBe(1)
      const [leader] = [...leaders]
      // stop the leading process: the other one takes the lock over and carries on
      if (leader === t.app.scheduler.instance) await t.restart()
      else {
        await second.close()
        second = await startSecond()
      }
      await sleep(5000)
      await t.call('PATCH', '/qrtz/pause', { token: admin, body: { id } })
      await sleep(1200)
      const runs = await runsOf(id)
      expect(runs.length).toBeGreaterThanOrEqual(9)
      expect(new Set(runs.map((r) => r.fire_time)).size).toBe(runs.length)
      // one run per second, none skipped (a fire a few seconds late at the hand-over is still run)
      const seconds = runs.map((r) => dayjs(r.fire_time).unix())
      for (let i = 1; i < seconds.length; i++) expect(seconds[i] - seconds[i - 1], runs[i].fire_time).toBe(1)
      expect(runs.every((r) => r.status === 'SUCCESS')).toBe(true)
      const after = runs.filter((r) => dayjs(r.fire_time).unix() > seconds[before.length - 1] + 2)
      expect(after.length).toBeGreaterThan(0)
      expect(after.every((r) => r.instance !== leader)).toBe(true)
    })

  it('fires one fire time once when schedulers tick it at the same moment', async () => {
    const id = await create('每日任务', '0 0 0 * * ?')
    const job = await t.app.services.databases.tenant('1000').selectFrom('qrtz_job').select('next_fire_time').where('id', '=', id).executeTakeFirstOrThrow()
    const due = dayjs(text(job.next_fire_time)).toDate()
    const schedulers = process.env.TEST_DB === 'postgres' ? [t.app.scheduler, (second ??= await startSecond()).scheduler] : [t.app.scheduler]
    const ticks = await Promise.all([0, 1, 2, 3].map((i) => schedulers[i % schedulers.length].tick(due)))
    expect(ticks.reduce((a, b) => a + b, 0)).toBe(1)
    const runs = await runsOf(id)
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ fire_time: text(job.next_fire_time), status: 'SUCCESS', trigger_type: 'SCHEDULE' })
  })
})

/**
 * kill -9 of the process running a job (PostgreSQL: SQLite is one process by design; its start-up end of
 * dead runs is in qrtz.test.ts). The job runs in a real server process started here; the test kills it
 * during the run and the app of this test, the other process, ends that run as interrupted and runs
 * the job itself. Leases of 2 s make it quick; a script busy for 4 s (the sandbox's deadline is 5 s)
 * is the long job, and its run on the surviving process proves the lease is renewed while a run lasts.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')('a process killed during a job run', () => {
  const LEASE_MS = 2000
  const knobs = { SCHEDULER_LEADER_RETRY_MS: '300', SCHEDULER_RUN_LEASE_MS: String(LEASE_MS) }
  let t: TestApp
  let child: ServerProcess | undefined
  let survivor: FastifyInstance | undefined

  beforeAll(async () => {
    t = await startTestApp({ env: { ...knobs, SCHEDULER: 'off' } })
  })
  afterAll(async () => {
    await child?.kill()
    await survivor?.close()
    await t?.close()
  })

  const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const got = await probe()
      if (got !== undefined) return got
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${child?.output().slice(-3000) ?? ''}`)
      await sleep(100)
    }
  }

  it('ends the run as interrupted with its message and runs the job again on the other process', { timeout: 240_000 }, async () => {
    const admin = await t.login()
    child = await startServerProcess(t.app.services.config.databaseUrl, t.dataDir, { ...knobs, SCHEDULER: 'on' })
    // the other process, started after the child (which leads from its start-up): a follower until the kill
    survivor = await buildApp({ ...t.app.services.config, scheduler: true })
    await survivor.ready()
    const survivorInstance = survivor.scheduler.instance
    const script = 'var end = Date.now() + 4000; while (Date.now() < end) {} return "跑完"'
    const created = await t.call<string>('POST', '/qrtz', { token: admin, body: { name: '长任务', jobType: 2, cron: '* * * * * ?', script } })
    expect(created.status, created.raw).toBe(200)
    const id = created.body.data
    const tenant = t.app.services.databases.tenant('1000')
    const runs = async () =>
      (
        await tenant
          .selectFrom('qrtz_job_run')
          .select(['id', 'status', 'instance', 'message', 'end_time', 'start_time'])
          .where('job_id', '=', id)
          .orderBy('start_time')
          .execute()
      ).map((r) => ({ ...r, id: String(r.id), status: String(r.status), instance: String(r.instance), message: r.message === null ? null : String(r.message) }))

    const killed = await until('a run in the child process', async () => (await runs()).find((r) => r.status === 'RUNNING' && r.instance.includes(`:${child!.pid}:`)), 60_000)
    await child.kill()
    const killedAt = Date.now()

    const interrupted = await until('the killed run ended', async () => (await runs()).find((r) => r.id === killed.id && r.status !== 'RUNNING'), 30_000)
    expect(interrupted).toMatchObject({ status: 'INTERRUPTED', message: '执行进程已停止，本次执行中断' })
    expect(interrupted.end_time).not.toBeNull()
    // within the lease, the leader hand-over and a tick (generous for a loaded machine)
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 8000)

    const again = await until('a run on the other process', async () => (await runs()).find((r) => r.instance === survivorInstance && r.status === 'SUCCESS'), 30_000)
    expect(again.message).toBe('跑完')
    // nothing stays 执行中 for the dead process, and the job is not stuck: a pause sticks once the run in progress ends
    expect((await runs()).filter((r) => r.instance.includes(`:${child!.pid}:`) && r.status === 'RUNNING')).toEqual([])
    const pause = await t.call('PATCH', '/qrtz/pause', { token: admin, body: { id } })
    expect(pause.status, pause.raw).toBe(200)
    await until('the job paused', async () => {
      const job = await tenant.selectFrom('qrtz_job').select('state').where('id', '=', id).executeTakeFirstOrThrow()
      return job.state === 'PAUSED' ? true : undefined
    }, 15_000)
  })
})
