import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { multipart, workbook } from '../support/import-files.js'
import { METRICS_REFUSED } from '../../src/server/platform/metrics-route.js'

const TOKEN = 'metrics-secret-7f3a'

/** The value of one sample of a Prometheus text: `name` with exactly `labels` (undefined when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]))
    if (Object.keys(got).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3])
  }
  return undefined
}

/**
 * GET /metrics (issue 31, Logs and health): Prometheus text of prom-client for the configured addresses
 * (loopback, and here a 10.1.0.0/16 range) or a bearer token; 403 in the envelope for anyone else.
 * Requests are counted by route pattern, job runs and import tasks by their outcome.
 */
describe('GET /metrics', () => {
  let t: TestApp
  let token: string

  beforeAll(async () => {
    t = await startTestApp({ env: { SCHEDULER: 'off', METRICS_ALLOW: '127.0.0.1, ::1, 10.1.0.0/16', METRICS_TOKEN: TOKEN } })
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const scrape = async (from = '127.0.0.1', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: from, headers })
  const text = async () => {
    const r = await scrape()
    expect(r.statusCode, r.body).toBe(200)
    return r.body
  }
  /** Metrics move after the answer is sent (onResponse, a task's end): wait for the condition, bounded. */
  const eventually = async (check: (text: string) => boolean, what: string) => {
    const until = Date.now() + 10_000
    for (;;) {
      const body = await text()
      if (check(body)) return body
      if (Date.now() > until) throw new Error(`${what} not seen in /metrics:\n${body.split('\n').filter((l) => l.startsWith('erp_')).join('\n')}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  it('answers the allowed addresses in Prometheus text, with process, database and socket metrics', async () => {
    for (const from of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.200.7']) {
      const r = await scrape(from)
      expect(r.statusCode, from).toBe(200)
      expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    }
    const body = await text()
    expect(sample(body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(sample(body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(sample(body, 'erp_realtime_sockets')).toBe(0)
    if (t.dbKind === 'postgres') {
      expect(sample(body, 'erp_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1)
      expect(sample(body, 'erp_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0)
      expect(sample(body, 'erp_db_pool_connections', { state: 'waiting' })).toBe(0)
      expect(body).not.toContain('erp_db_sqlite')
    } else {
      // the platform file and the operator tenant's
      expect(sample(body, 'erp_db_sqlite_files_open')).toBeGreaterThanOrEqual(2)
      expect(sample(body, 'erp_db_sqlite_size_bytes')).toBeGreaterThan(100_000)
      expect(body).not.toContain('erp_db_pool_connections')
    }
  })

  it('refuses other addresses with 403 in the envelope, unless they bring the token', async () => {
    const refused = [
      await scrape('203.0.113.9'),
      await scrape('10.2.0.1'),
      await scrape('203.0.113.9', { authorization: 'Bearer wrong-token' }),
      await scrape('203.0.113.9', { authorization: TOKEN }),
      // through a proxy on this machine (npm run cluster's): the address that proxy saw counts, a forged first entry does not
      await scrape('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' }),
    ]
    for (const r of refused) {
      expect(r.statusCode).toBe(403)
      expect(JSON.parse(r.body)).toEqual({ code: 403, msg: METRICS_REFUSED })
    }
    const withToken = await scrape('203.0.113.9', { authorization: `Bearer ${TOKEN}` })
    expect(withToken.statusCode).toBe(200)
    expect(withToken.body).toContain('erp_http_requests_total')
    expect((await scrape('127.0.0.1', { 'x-forwarded-for': '10.1.0.5' })).statusCode).toBe(200)
  })

  it('counts and times requests by route pattern, never by the raw URL', async () => {
    const route = { method: 'GET', route: '/cloud-api/system/role/query', status: '200' }
    const before = sample(await text(), 'erp_http_requests_total', route) ?? 0
    const timedBefore = sample(await text(), 'erp_http_request_duration_seconds_count', { method: 'GET', route: '/cloud-api/system/role/query' }) ?? 0
    for (const name of ['甲', '乙', '丙']) {
      const r = await t.call('GET', '/system/role/query', { token, query: { name, pageIndex: 1, pageSize: 10 } })
      expect(r.status).toBe(200)
    }
    const probe = `no-such-call-${Date.now()}`
    expect((await t.call('GET', `/${probe}`, { token })).status).toBe(404)
    const body = await eventually((b) => sample(b, 'erp_http_requests_total', route) === before + 3, 'three role queries')
    expect(sample(body, 'erp_http_request_duration_seconds_count', { method: 'GET', route: '/cloud-api/system/role/query' })).toBe(timedBefore + 3)
    expect(sample(body, 'erp_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(body).not.toContain(probe)
    expect(body).not.toContain('甲')
    // A refused call is counted with its status.
    expect((await t.call('GET', '/system/role/query', { token: 'not-a-session' })).status).toBe(401)
    await eventually((b) => (sample(b, 'erp_http_requests_total', { ...route, status: '401' }) ?? 0) >= 1, 'the 401')
  })

  it('counts job runs by trigger and status, and their time', async () => {
    const create = async (name: string, script: string) => {
      const r = await t.call<string>('POST', '/qrtz', { token, body: { name, jobType: 2, cron: '0 0 0 * * ?', script } })
      expect(r.status, r.raw).toBe(200)
      return r.body.data
    }
    const good = await create('指标成功任务', 'return "ok"')
    const bad = await create('指标失败任务', 'throw new Error("故意失败")')
    const runs = (b: string, status: string) => sample(b, 'erp_job_runs_total', { trigger: 'MANUAL', status }) ?? 0
    const first = await text()
    const timed = sample(first, 'erp_job_run_duration_seconds_count') ?? 0
    for (const id of [good, good, bad]) expect((await t.call('PATCH', '/qrtz/trigger', { token, body: { id } })).status).toBe(200)
    const body = await eventually((b) => runs(b, 'SUCCESS') === runs(first, 'SUCCESS') + 2 && runs(b, 'ERROR') === runs(first, 'ERROR') + 1, 'three manual runs')
    expect(sample(body, 'erp_job_run_duration_seconds_count')).toBe(timed + 3)
    expect(sample(body, 'erp_job_runs_in_progress')).toBe(0)

    // Scheduled fires (the scheduler's tick, driven here at the jobs' own fire time: both fire at midnight) count as SCHEDULE.
    const fire = (await t.call<{ nextFireTime: string }>('GET', '/qrtz', { token, query: { id: good } })).body.data.nextFireTime
    const scheduled = (b: string, status: string) => sample(b, 'erp_job_runs_total', { trigger: 'SCHEDULE', status }) ?? 0
    expect(await t.app.scheduler.tick(new Date(fire.replace(' ', 'T')))).toBe(2)
    await eventually((b) => scheduled(b, 'SUCCESS') === scheduled(body, 'SUCCESS') + 1 && scheduled(b, 'ERROR') === scheduled(body, 'ERROR') + 1, 'the scheduled runs')
  })

  it('counts import tasks by result', async () => {
    const header = ['*编号', '*名称', '助记码', '联系人', '地区', '经营方式', '*结账方式', '状态', '备注']
    const result = (b: string, r: string) => sample(b, 'erp_import_tasks_total', { result: r }) ?? 0
    const first = await text()
    const upload = async (rows: (string | null)[][]) => {
      const { payload, contentType } = multipart('导入.xlsx', await workbook(header, rows))
      const r = await t.app.inject({ method: 'POST', url: '/cloud-api/basedata/supplier/import', headers: { 'x-auth-token': token, 'content-type': contentType }, payload })
      expect(JSON.parse(r.body)).toMatchObject({ code: 200 })
    }
    await upload([['MET-001', '指标供应商', null, null, null, null, '款到发货', null, null]])
    await upload([['MET-002', '指标供应商二', null, null, null, null, '不存在的结账方式', null, null]])
    const body = await eventually((b) => result(b, 'success') === result(first, 'success') + 1 && result(b, 'error') === result(first, 'error') + 1, 'two import tasks')
    expect(sample(body, 'erp_import_tasks_in_progress')).toBe(0)
  })
})
