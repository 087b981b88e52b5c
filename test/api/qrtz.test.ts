import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userWithMenus } from '../support/access-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { nextFireTimes } from '../../src/shared/cron/quartz-cron.js'

interface Job {
  id: string
  name: string
  jobType: number
  targetClassName: string | null
  params: string | null
  script: string | null
  cron: string
  state: string
  prevFireTime: string | null
  nextFireTime: string | null
}
interface Run {
  id: string
  jobId: string
  fireTime: string | null
  triggerType: string
  status: string
  startTime: string
  endTime: string | null
  message: string | null
}
interface Page<T> {
  totalCount: number
  datas: T[]
}

const fmt = (d: Date) => dayjs(d).format('YYYY-MM-DD HH:mm:ss')
const at = (s: string) => dayjs(s).toDate()

/**
 * 定时器管理 on SQLite and PostgreSQL (TEST_DB). The automatic loop is off here (SCHEDULER=off), so
 * the tests fire jobs by calling the app's scheduler with an explicit time: deterministic, no waiting.
 * The loop itself is proven below (a missed run at start-up) and in qrtz-cluster.test.ts.
 */
describe('scheduled jobs /qrtz', () => {
  let t: TestApp
  let admin: string
  let jobId: string

  const job = async (id: string) => (await t.call<Job>('GET', '/qrtz', { token: admin, query: { id } })).body.data
  const runs = async (id: string) =>
    (await t.call<Page<Run>>('GET', '/qrtz/run/query', { token: admin, query: { jobId: id, pageIndex: 1, pageSize: 100 } })).body.data.datas
  const create = async (body: Record<string, unknown>, token = admin) => t.call<string>('POST', '/qrtz', { token, body })

  beforeAll(async () => {
    t = await startTestApp({ env: { SCHEDULER: 'off' } })
    admin = await t.login()
  })
  afterAll(async () => t?.close())

  it('creates a script job, waiting for the next fire time croner gives', async () => {
    const r = await create({ name: '脚本任务', jobType: 2, cron: ' 0 0/5 * * * ? ', script: 'return job.name + "@" + job.fireTime', description: '每5分钟' })
    expect(r.status, r.raw).toBe(200)
    jobId = r.body.data
    const got = await job(jobId)
    expect(got).toMatchObject({ name: '脚本任务', jobType: 2, cron: '0 0/5 * * * ?', state: 'WAITING', prevFireTime: null, targetClassName: null })
    const [expected] = nextFireTimes('0 0/5 * * * ?', 1, new Date())
    expect(got.nextFireTime).toBe(fmt(expected))
    const list = await t.call<Page<Job>>('GET', '/qrtz/query', { token: admin, query: { pageIndex: 1, pageSize: 20, name: '脚本', state: 'WAITING' } })
    expect(list.body.data.datas.map((j) => j.id)).toEqual([jobId])
  })

  it('refuses what Quartz or the job type cannot run, writing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ jobType: 2, cron: '0 * * * * ?', script: 'return 1' }, '请输入名称'],
      [{ name: 'x1', jobType: 2, script: 'return 1' }, '请输入Cron表达式'],
      [{ name: 'x2', jobType: 2, cron: '0 * * * *', script: 'return 1' }, 'Cron表达式应为6或7个字段（秒 分 时 日 月 周 [年]）'],
      [{ name: 'x3', jobType: 2, cron: '0 0 0 * * *', script: 'return 1' }, '日和周必须有且只有一个为“?”'],
      [{ name: 'x4', jobType: 2, cron: '0 0 0 ? * ?', script: 'return 1' }, '日和周必须有且只有一个为“?”'],
      [{ name: 'x5', jobType: 2, cron: '0 0 0 ? * * 2300', script: 'return 1' }, '年份必须在1970到2199之间'],
      [{ name: 'x6', jobType: 2, cron: '0 0 0 1 1 ? 2021', script: 'return 1' }, 'Cron表达式没有下一次执行时间'],
      [{ name: 'x7', jobType: 2, cron: '0 0 0 32 * ?', script: 'return 1' }, 'Cron表达式格式错误：Invalid value for day: 31'],
      [{ name: 'x8', jobType: 2, cron: '0 0 0 * * ?' }, '请输入脚本'],
      [{ name: 'x9', jobType: 1, cron: '0 0 0 * * ?' }, '请选择内置任务'],
      [{ name: 'x10', jobType: 1, cron: '0 0 0 * * ?', targetClassName: 'java.lang.Runtime' }, '内置任务不存在'],
      [{ name: 'x11', jobType: 1, cron: '0 0 0 * * ?', targetClassName: 'noticePublish', params: "1' or '1'='1" }, '任务参数应为通知ID，多个用逗号分隔'],
      [{ name: 'x12', jobType: 3, cron: '0 0 0 * * ?', script: 'return 1' }, '任务类型取值不正确'],
      [{ name: '脚本任务', jobType: 2, cron: '0 0 0 * * ?', script: 'return 1' }, '名称重复，请重新输入'],
    ]
    for (const [body, msg] of cases) {
      const r = await create(body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.msg, JSON.stringify(body)).toBe(msg)
    }
    const all = await t.call<Page<Job>>('GET', '/qrtz/query', { token: admin, query: { pageIndex: 1, pageSize: 50 } })
    expect(all.body.data.totalCount).toBe(1)
  })

  it('modifies a job: the new expression gives the next fire time, and a type change drops the other type\'s fields', async () => {
    const r = await t.call('PUT', '/qrtz', { token: admin, body: { id: jobId, cron: '0 0 3 L * ?' } })
    expect(r.status, r.raw).toBe(200)
    const got = await job(jobId)
    expect(got.nextFireTime).toBe(fmt(nextFireTimes('0 0 3 L * ?', 1, new Date())[0]))
    const bad = await t.call('PUT', '/qrtz', { token: admin, body: { id: jobId, cron: '0 0 3 L-40 * ?' } })
    expect(bad.body.msg).toBe('月末前天数必须在1到30之间')
    expect((await job(jobId)).cron).toBe('0 0 3 L * ?')
    const missing = await t.call('PUT', '/qrtz', { token: admin, body: { id: 'nope', cron: '0 0 3 L * ?' } })
    expect(missing.status).toBe(404)
    expect(missing.body.msg).toBe('定时器不存在！')
    // Far from every tick of the tests below: on a month's last days a last-day job is due within their day.
    expect((await t.call('PUT', '/qrtz', { token: admin, body: { id: jobId, cron: '0 0 3 1 1 ? 2199' } })).status).toBe(200)
  })

  it('fires a due job once per fire time, and a fire missed long ago once, not once per missed time', async () => {
    const id = (await create({ name: '每十秒', jobType: 2, cron: '0/10 * * * * ?', script: 'return "ok " + job.fireTime' })).body.data
    const first = (await job(id)).nextFireTime as string
    expect(await t.app.scheduler.tick(new Date(at(first).getTime() - 1000))).toBe(0)
    expect(await t.app.scheduler.tick(at(first))).toBe(1)
    // the same instant again: already claimed
    expect(await t.app.scheduler.tick(at(first))).toBe(0)
    let history = await runs(id)
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ fireTime: first, triggerType: 'SCHEDULE', status: 'SUCCESS', message: `ok ${first}` })
    const afterFirst = await job(id)
    expect(afterFirst).toMatchObject({ state: 'WAITING', prevFireTime: first, nextFireTime: fmt(new Date(at(first).getTime() + 10_000)) })

    // a fire time a few seconds late (a slow tick) is an ordinary run
    const second = new Date(at(first).getTime() + 10_000)
    expect(await t.app.scheduler.tick(new Date(second.getTime() + 3000))).toBe(1)
    // a day later (the server was down): one run, marked as a missed fire, then the next time after now
    const dayLater = new Date(at(first).getTime() + 86_400_000 + 3000)
    expect(await t.app.scheduler.tick(dayLater)).toBe(1)
    history = await runs(id)
    expect(history).toHaveLength(3)
    expect(history.map((r) => r.triggerType).sort()).toEqual(['MISFIRE', 'SCHEDULE', 'SCHEDULE'])
    expect(new Set(history.map((r) => r.fireTime)).size).toBe(3)
    const now = await job(id)
    expect(now.nextFireTime).toBe(fmt(nextFireTimes('0/10 * * * * ?', 1, dayLater)[0]))
    await t.call('DELETE', '/qrtz', { token: admin, body: { id } })
  })

  it('pauses, resumes and refuses the wrong transition', async () => {
    const pause = await t.call('PATCH', '/qrtz/pause', { token: admin, body: { id: jobId } })
    expect(pause.status, pause.raw).toBe(200)
    expect(await job(jobId)).toMatchObject({ state: 'PAUSED', nextFireTime: null })
    const again = await t.call('PATCH', '/qrtz/pause', { token: admin, query: { id: jobId } })
    expect(again.status).toBe(400)
    expect(again.body.msg).toBe('定时器已暂停')
    // a paused job is never due
    expect(await t.app.scheduler.tick(new Date(Date.now() + 400 * 86_400_000))).toBe(0)
    // modifying a paused job keeps it paused
    await t.call('PUT', '/qrtz', { token: admin, body: { id: jobId, cron: '0 0 4 * * ?' } })
    expect((await job(jobId)).state).toBe('PAUSED')
    const resume = await t.call('PATCH', '/qrtz/resume', { token: admin, body: { id: jobId } })
    expect(resume.status, resume.raw).toBe(200)
    const resumed = await job(jobId)
    expect(resumed).toMatchObject({ state: 'WAITING', nextFireTime: fmt(nextFireTimes('0 0 4 * * ?', 1, new Date())[0]) })
    const twice = await t.call('PATCH', '/qrtz/resume', { token: admin, body: { id: jobId } })
    expect(twice.body.msg).toBe('定时器未暂停，无需恢复')
    for (const url of ['/qrtz/pause', '/qrtz/resume', '/qrtz/trigger']) {
      const none = await t.call('PATCH', url, { token: admin, body: {} })
      expect(none.status, url).toBe(400)
      const missing = await t.call('PATCH', url, { token: admin, body: { id: 'no-such-job' } })
      expect(missing.status, url).toBe(404)
      expect(missing.body.msg, url).toBe('定时器不存在！')
      const two = await t.call('PATCH', url, { token: admin, body: { ids: [jobId, jobId] } })
      expect(two.body.msg, url).toBe('请选择一个定时器')
    }
  })

  /**
   * A run whose process died (a kill -9) is left RUNNING with a lease nobody renews: here written as
   * that process would have left it, for a job fired at `fire`, with its lease `leaseMs` from now.
   */
  let deadRuns = 0
  const leftRunning = async (id: string, state: string, leaseMs: number) => {
    const tenant = t.app.services.databases.tenant('1000')
    const fire = fmt(new Date(Date.now() - 60_000 * ++deadRuns))
    await tenant.updateTable('qrtz_job').set({ state, prev_fire_time: fire }).where('id', '=', id).execute()
    const runId = `dead-run-${Math.random().toString(36).slice(2)}`
    await tenant
      .insertInto('qrtz_job_run')
      .values({ id: runId, job_id: id, job_name: '长任务', fire_time: fire, trigger_type: 'SCHEDULE', status: 'RUNNING', start_time: fire, instance: 'gone-host:4242:dead00', lease_until: Date.now() + leaseMs })
      .execute()
    return runId
  }
  const runOf = async (id: string, runId: string) => (await runs(id)).find((r) => r.id === runId)

  it('ends a run left 执行中 by a dead process as interrupted, and pause and resume work from every state', async () => {
    const id = (await create({ name: '长任务', jobType: 2, cron: '0 0 2 * * ?', script: 'return 1' })).body.data
    const next = fmt(nextFireTimes('0 0 2 * * ?', 1, new Date())[0])
    const pause = (body = { id }) => t.call('PATCH', '/qrtz/pause', { token: admin, body })
    const resume = () => t.call('PATCH', '/qrtz/resume', { token: admin, body: { id } })

    // the job stuck ACQUIRED behind a dead run: pausing ends that run and the pause sticks
    const dead = await leftRunning(id, 'ACQUIRED', -1000)
    expect((await pause()).status).toBe(200)
    expect(await job(id)).toMatchObject({ state: 'PAUSED', nextFireTime: null })
    expect(await runOf(id, dead)).toMatchObject({ status: 'INTERRUPTED', message: '执行进程已停止，本次执行中断' })
    expect((await runOf(id, dead))?.endTime).toMatch(/^\d{4}-/)
    expect((await resume()).status).toBe(200)
    expect(await job(id)).toMatchObject({ state: 'WAITING', nextFireTime: next })

    // a run still going on elsewhere (its lease renewed): paused meanwhile, resumed while it runs
    const live = await leftRunning(id, 'ACQUIRED', 60_000)
    expect((await pause()).status).toBe(200)
    expect((await job(id)).state).toBe('PAUSED_BLOCKED')
    expect((await resume()).status).toBe(200)
    expect(await job(id)).toMatchObject({ state: 'ACQUIRED', nextFireTime: next })
    expect((await runOf(id, live))?.status).toBe('RUNNING')
    // paused again, then its process dies: resuming does not bring back a dead ACQUIRED
    expect((await pause()).status).toBe(200)
    await t.app.services.databases.tenant('1000').updateTable('qrtz_job_run').set({ lease_until: Date.now() - 1 }).where('id', '=', live).execute()
    expect((await resume()).status).toBe(200)
    expect(await job(id)).toMatchObject({ state: 'WAITING', nextFireTime: next })
    expect((await runOf(id, live))?.status).toBe('INTERRUPTED')

    // the leader's tick ends a dead run by itself: the job waits again, no pause needed
    const another = await leftRunning(id, 'ACQUIRED', -1000)
    await t.app.scheduler.tick()
    expect((await runOf(id, another))?.status).toBe('INTERRUPTED')
    expect((await job(id)).state).toBe('WAITING')
    // and a live one is left alone
    const running = await leftRunning(id, 'ACQUIRED', 60_000)
    await t.app.scheduler.tick()
    expect((await runOf(id, running))?.status).toBe('RUNNING')
    expect((await job(id)).state).toBe('ACQUIRED')
    await t.app.services.databases.tenant('1000').updateTable('qrtz_job_run').set({ lease_until: Date.now() - 1 }).where('id', '=', running).execute()
    await t.app.scheduler.tick()
    expect((await job(id)).state).toBe('WAITING')

    // in error (its built-in job gone): paused and resumed like any other
    await t.app.services.databases.tenant('1000').updateTable('qrtz_job').set({ state: 'ERROR' }).where('id', '=', id).execute()
    expect((await pause()).status).toBe(200)
    expect((await job(id)).state).toBe('PAUSED')
    expect((await resume()).status).toBe(200)
    expect((await job(id)).state).toBe('WAITING')
    // complete: nothing to pause, and nothing changes
    await t.app.services.databases.tenant('1000').updateTable('qrtz_job').set({ state: 'COMPLETE', next_fire_time: null }).where('id', '=', id).execute()
    const complete = await pause()
    expect(complete.status).toBe(400)
    expect(complete.body.msg).toBe('定时器已执行完成，无法暂停')
    expect(await job(id)).toMatchObject({ state: 'COMPLETE', nextFireTime: null })
    await t.call('DELETE', '/qrtz', { token: admin, body: { id } })
  })

  it('runs a script job now in the sandbox, keeping its result, its error or its timeout', async () => {
    const ok = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: jobId } })
    expect(ok.status, ok.raw).toBe(200)
    expect(ok.body.data.status).toBe('SUCCESS')
    expect(ok.body.data.message).toMatch(/^脚本任务@\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    const failing = (await create({ name: '出错脚本', jobType: 2, cron: '0 0 0 * * ?', script: 'throw new Error("库存不足")' })).body.data
    const failed = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: failing } })
    expect(failed.body.data).toMatchObject({ status: 'ERROR' })
    expect(failed.body.data.message).toContain('库存不足')
    const host = (await create({ name: '越权脚本', jobType: 2, cron: '0 0 0 * * ?', script: 'return typeof process + typeof require + typeof fetch' })).body.data
    expect((await t.call<{ message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: host } })).body.data.message).toBe('undefinedundefinedundefined')
    const loop = (await create({ name: '死循环', jobType: 2, cron: '0 0 0 * * ?', script: 'while (true) {}' })).body.data
    const slow = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: loop } })
    expect(slow.body.data).toEqual(expect.objectContaining({ status: 'ERROR', message: '脚本执行超时' }))
    const history = await runs(loop)
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ triggerType: 'MANUAL', status: 'ERROR', fireTime: null, message: '脚本执行超时' })
    expect(history[0].endTime).not.toBeNull()
    // a manual run leaves the schedule alone, and is its 上次执行时间
    expect((await job(loop)).state).toBe('WAITING')
    expect((await job(loop)).prevFireTime).toBe(history[0].startTime)
  })

  it('runs the built-in jobs: notice publishing, take-stock auto-cancel, CRM sea return, session cleanup', async () => {
    const handlers = await t.call<{ key: string; label: string }[]>('GET', '/qrtz/handlers', { token: admin })
    expect(handlers.body.data.map((h) => h.key)).toEqual(['takeStockPlanAutoCancel', 'crmSeaReturn', 'noticePublish', 'clearExpiredSessions', 'systemBackup'])

    const draft = (await t.call<string>('POST', '/system/notice', { token: admin, body: { title: '定时通知', content: '<p>九点发布</p>' } })).body.data
    const other = (await t.call<string>('POST', '/system/notice', { token: admin, body: { title: '另一草稿', content: '<p>不发布</p>' } })).body.data
    const publish = (await create({ name: '九点发布通知', jobType: 1, cron: '0 0 9 * * ?', targetClassName: 'noticePublish', params: draft })).body.data
    const fire = (await job(publish)).nextFireTime as string
    // Jobs of the tests before (hourly, daily) may fall due by then too, depending on the time of day: count this one's runs.
    expect(await t.app.scheduler.tick(at(fire))).toBeGreaterThanOrEqual(1)
    expect(await runs(publish)).toHaveLength(1)
    const published = await t.call<{ published: boolean; publishTime: string | null }>('GET', '/system/notice', { token: admin, query: { id: draft } })
    expect(published.body.data.published).toBe(true)
    expect(published.body.data.publishTime).not.toBeNull()
    const untouched = await t.call<{ published: boolean }>('GET', '/system/notice', { token: admin, query: { id: other } })
    expect(untouched.body.data.published).toBe(false)
    expect((await runs(publish))[0]).toMatchObject({ status: 'SUCCESS', message: '发布通知1条' })

    const cancel = (await create({ name: '盘点超时取消', jobType: 1, cron: '0 0 * * * ?', targetClassName: 'takeStockPlanAutoCancel' })).body.data
    const c = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: cancel } })
    expect(c.body.data).toEqual({ runId: expect.any(String), status: 'SUCCESS', message: '取消盘点任务0个' })

    const sea = (await create({ name: '公海回收', jobType: 1, cron: '0 0 2 * * ?', targetClassName: 'crmSeaReturn' })).body.data
    const s = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: sea } })
    expect(s.body.data).toMatchObject({ status: 'SUCCESS', message: '回收客户0个，提醒负责人0人' })

    // an expired session and an idle one go, the live one (admin's) stays
    const platform = t.app.services.databases.platform
    const stamp = (minutes: number) => dayjs().add(minutes, 'minute').format('YYYY-MM-DD HH:mm:ss')
    const audit = { create_by: 's', create_by_id: 's', create_time: stamp(0), update_by: 's', update_by_id: 's', update_time: stamp(0) }
    await platform
      .insertInto('sys_session')
      .values([
        { token: 'expired-session', tenant_id: '1000', user_id: 'u1', ip: '', last_active_time: stamp(-5), expire_time: stamp(-1), ...audit },
        { token: 'idle-session', tenant_id: '1000', user_id: 'u1', ip: '', last_active_time: stamp(-10_000), expire_time: stamp(60), ...audit },
      ])
      .execute()
    await platform.insertInto('sys_captcha').values({ sn: 'old-captcha', code: '1234', expire_time: stamp(-1), ...audit }).execute()
    const clean = (await create({ name: '清理会话', jobType: 1, cron: '0 0 * * * ?', targetClassName: 'clearExpiredSessions' })).body.data
    const cl = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: clean } })
    expect(cl.body.data.status).toBe('SUCCESS')
    expect(cl.body.data.message).toMatch(/^清理会话2个，图形验证码1个，验证码0个$/)
    const left = await platform.selectFrom('sys_session').select('token').where('token', 'in', ['expired-session', 'idle-session']).execute()
    expect(left).toEqual([])
    expect((await t.call('GET', '/qrtz/handlers', { token: admin })).status).toBe(200)
  })

  it('deletes a job with its run history', async () => {
    const id = (await create({ name: '待删除', jobType: 2, cron: '* * * * * ?', script: 'return 1' })).body.data
    await t.call('PATCH', '/qrtz/trigger', { token: admin, body: { id } })
    expect(await runs(id)).toHaveLength(1)
    const r = await t.call('DELETE', '/qrtz', { token: admin, body: { id } })
    expect(r.status, r.raw).toBe(200)
    expect(await runs(id)).toHaveLength(0)
    expect((await t.call('GET', '/qrtz', { token: admin, query: { id } })).status).toBe(404)
    const again = await t.call('DELETE', '/qrtz', { token: admin, body: { id } })
    expect(again.status).toBe(404)
  })

  it('answers a user without the keys 403 and one with the page only what the page allows', async () => {
    const nobody = await userWithMenus(t, admin, 'qrtznone', [])
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', '/qrtz/query'],
      ['GET', `/qrtz?id=${jobId}`],
      ['POST', '/qrtz', { name: 'n', jobType: 2, cron: '0 0 0 * * ?', script: 'return 1' }],
      ['PUT', '/qrtz', { id: jobId, name: 'n2' }],
      ['DELETE', '/qrtz', { id: jobId }],
      ['PATCH', '/qrtz/pause', { id: jobId }],
      ['PATCH', '/qrtz/resume', { id: jobId }],
      ['PATCH', '/qrtz/trigger', { id: jobId }],
      ['GET', '/qrtz/run/query'],
      ['GET', '/qrtz/handlers'],
    ]
    const before = (await runs(jobId)).length
    for (const [method, url, body] of calls) {
      const r = await t.call(method as 'GET', url, { token: nobody, body })
      expect(r.status, `${method} ${url}`).toBe(403)
    }
    expect((await runs(jobId)).length).toBe(before)
    expect((await job(jobId)).name).toBe('脚本任务')

    const viewer = await userWithMenus(t, admin, 'qrtzview', ['development:qrtz:manage'])
    expect((await t.call('GET', '/qrtz/query', { token: viewer })).status).toBe(200)
    expect((await t.call('GET', '/qrtz/run/query', { token: viewer, query: { jobId } })).status).toBe(200)
    expect((await t.call('PATCH', '/qrtz/trigger', { token: viewer, body: { id: jobId } })).status).toBe(403)
    expect((await t.call('PATCH', '/qrtz/pause', { token: viewer, body: { id: jobId } })).status).toBe(403)
    const runner = await userWithMenus(t, admin, 'qrtzrun', ['development:qrtz:manage', 'development:qrtz:trigger'])
    expect((await t.call('PATCH', '/qrtz/trigger', { token: runner, body: { id: jobId } })).status).toBe(200)
  })

  it('keeps tenants apart: another tenant neither sees nor touches the jobs, nor runs platform jobs', { timeout: 120_000 }, async () => {
    const operator = await t.login('1000@admin')
    expect((await t.call('POST', '/system/tenant', { token: operator, body: { id: '2300', name: '定时租户', available: true } })).status).toBe(200)
    const other = await t.login('2300@admin')
    const list = await t.call<Page<Job>>('GET', '/qrtz/query', { token: other, query: { pageIndex: 1, pageSize: 50 } })
    expect(list.body.data.totalCount).toBe(0)
    for (const [method, url] of [['GET', '/qrtz'], ['PUT', '/qrtz'], ['DELETE', '/qrtz'], ['PATCH', '/qrtz/pause'], ['PATCH', '/qrtz/resume'], ['PATCH', '/qrtz/trigger']] as const) {
      const r = await t.call(method, url, { token: other, ...(method === 'GET' ? { query: { id: jobId } } : { body: { id: jobId, name: '偷改' } }) })
      expect(r.status, `${method} ${url}`).toBe(404)
    }
    expect((await t.call<Page<Run>>('GET', '/qrtz/run/query', { token: other, query: { jobId } })).body.data.totalCount).toBe(0)
    const handlers = await t.call<{ key: string }[]>('GET', '/qrtz/handlers', { token: other })
    expect(handlers.body.data.map((h) => h.key)).not.toContain('clearExpiredSessions')
    const platformJob = await create({ name: '清理', jobType: 1, cron: '0 0 * * * ?', targetClassName: 'clearExpiredSessions' }, other)
    expect(platformJob.body.msg).toBe('该内置任务只能由平台租户使用')
    // its own job fires in its own database
    const own = (await create({ name: '租户任务', jobType: 2, cron: '0 0 1 * * ?', script: 'return job.tenantId' }, other)).body.data
    const fired = await t.call<{ message: string }>('PATCH', '/qrtz/trigger', { token: other, body: { id: own } })
    expect(fired.body.data.message).toBe('2300')
    expect((await job(jobId)).name).toBe('脚本任务')
  })
})

describe('scheduled jobs: the loop that starts with the server', () => {
  let t: TestApp
  afterAll(async () => t?.close())

  it('ends at start-up a run its dead process left 执行中, and the job waits again', { timeout: 120_000 }, async () => {
    t ??= await startTestApp()
    const admin = await t.login()
    const id = (await t.call<string>('POST', '/qrtz', { token: admin, body: { name: '中断任务', jobType: 2, cron: '0 0 1 * * ?', script: 'return 1' } })).body.data
    await t.app.scheduler.stop()
    // the process running it was killed: the job ACQUIRED, its run RUNNING with a lease that ran out
    const tenant = t.app.services.databases.tenant('1000')
    const fire = dayjs().subtract(1, 'minute').format('YYYY-MM-DD HH:mm:ss')
    await tenant.updateTable('qrtz_job').set({ state: 'ACQUIRED', prev_fire_time: fire }).where('id', '=', id).execute()
    await tenant
      .insertInto('qrtz_job_run')
      .values({ id: 'killed-run', job_id: id, job_name: '中断任务', fire_time: fire, trigger_type: 'SCHEDULE', status: 'RUNNING', start_time: fire, instance: 'gone-host:4242:dead00', lease_until: Date.now() - 5000 })
      .execute()
    await t.restart()
    const token = await t.login()
    let history: Run[] = []
    for (let i = 0; i < 100 && history[0]?.status !== 'INTERRUPTED'; i++) {
      await new Promise((r) => setTimeout(r, 100))
      history = (await t.call<Page<Run>>('GET', '/qrtz/run/query', { token, query: { jobId: id } })).body.data.datas
    }
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ id: 'killed-run', status: 'INTERRUPTED', message: '执行进程已停止，本次执行中断', fireTime: fire })
    expect(history[0].endTime).toMatch(/^\d{4}-/)
    const got = (await t.call<Job>('GET', '/qrtz', { token, query: { id } })).body.data
    expect(got).toMatchObject({ state: 'WAITING', nextFireTime: fmt(nextFireTimes('0 0 1 * * ?', 1, new Date())[0]) })
  })

  it('runs a fire time missed while the server was down once at start-up, then waits for the next', { timeout: 120_000 }, async () => {
    t ??= await startTestApp()
    const admin = await t.login()
    const id = (await t.call<string>('POST', '/qrtz', { token: admin, body: { name: '每日任务', jobType: 2, cron: '0 0 0 * * ?', script: 'return "补跑"' } })).body.data
    await t.app.scheduler.stop()
    // the server is down for three days: the job's next fire time is three days old when it comes back
    const tenant = t.app.services.databases.tenant('1000')
    const missed = dayjs().subtract(3, 'day').startOf('day').format('YYYY-MM-DD HH:mm:ss')
    await tenant.updateTable('qrtz_job').set({ next_fire_time: missed }).where('id', '=', id).execute()
    await t.restart()
    const token = await t.login()
    let history: Run[] = []
    // the run row appears when the fire is claimed and is finished when the script answers
    for (let i = 0; i < 60 && (!history.length || history[0].status === 'RUNNING'); i++) {
      await new Promise((r) => setTimeout(r, 100))
      history = (await t.call<Page<Run>>('GET', '/qrtz/run/query', { token, query: { jobId: id } })).body.data.datas
    }
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ fireTime: missed, triggerType: 'MISFIRE', status: 'SUCCESS', message: '补跑' })
    await new Promise((r) => setTimeout(r, 1500))
    expect((await t.call<Page<Run>>('GET', '/qrtz/run/query', { token, query: { jobId: id } })).body.data.totalCount).toBe(1)
    const got = (await t.call<Job>('GET', '/qrtz', { token, query: { id } })).body.data
    expect(got.nextFireTime).toBe(fmt(nextFireTimes('0 0 0 * * ?', 1, new Date())[0]))
    expect(got.state).toBe('WAITING')
  })
})
