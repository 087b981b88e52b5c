import dayjs from 'dayjs'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

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
