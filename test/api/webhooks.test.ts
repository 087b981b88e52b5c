import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { userWithMenus } from '../support/access-helpers.js'
import { startWebhookReceiver, until, type Received, type WebhookReceiver } from '../support/webhook-receiver.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { multipart, workbook } from '../support/import-files.js'

interface Delivery {
  id: string
  status: string
  attempts: number
  eventId: string
  lastStatus: number | null
  lastAnswer: string
  lastDurationMs: number
  replayOf: string | null
}
interface Attempt {
  attemptNo: number
  httpStatus: number | null
  answer: string
  durationMs: number
}
interface Payload {
  id: string
  event: string
  occurredAt: string
  data: Record<string, unknown>
}

const payload = (r: Received) => JSON.parse(r.body) as Payload

/**
 * Webhooks end to end with a receiver on this machine: subscriptions (checked targets, a server-made
 * secret), deliveries from the outbox written with the event, signed, retried, in order, listed and
 * replayable. The receiver is on 127.0.0.1, which WEBHOOK_ALLOW_PRIVATE lets through here; without that
 * setting loopback is refused (the last test takes it away).
 */
describe('webhooks', () => {
  let t: TestApp
  let admin: string
  let f: TradeFixtures
  let receiver: WebhookReceiver

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_FOR_MS: '2500', WEBHOOK_POLL_MS: '100' },
    })
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
  })
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  const db = () => t.app.services.databases.tenant(OPERATOR_TENANT_ID)
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, query?: Record<string, string>, token = admin) => {
    const r = await t.call<T>(method, url, { token, body, query })
    expect(r.body.msg, `${method} ${url}: ${r.raw}`).toBe('操作成功！')
    return r.body.data
  }
  const subscribe = async (name: string, event: string, path: string) => {
    const id = await ok<string>('POST', '/system/webhook', { name, event, url: `${receiver.base}${path}`, available: true })
    const detail = await ok<{ secret: string }>('GET', '/system/webhook', undefined, { id })
    return { id, secret: detail.secret }
  }
  const order = () =>
    ok<string>('POST', '/purchase/order', {
      scId: f.scA,
      supplierId: f.supplierId,
      expectArriveDate: '2026-12-01',
      products: [{ productId: f.p1, orderNum: 10, taxPrice: '10.00', taxRate: 17 }],
      payTypes: [{ id: f.payTypeId, payAmount: '100.00', text: '首付' }],
    })
  const deliveriesOf = async (subscriptionId: string) =>
    (await ok<{ datas: Delivery[] }>('GET', '/system/webhook/delivery/query', undefined, { subscriptionId, pageSize: '100' })).datas
  const attemptsOf = async (deliveryId: string) =>
    (await ok<{ datas: Attempt[] }>('GET', '/system/webhook/attempt/query', undefined, { deliveryId, pageSize: '100' })).datas
  const subscriptionCount = async () => Number((await db().selectFrom('webhook_subscription').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const deliveryCount = async () => Number((await db().selectFrom('webhook_delivery').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

  it('delivers each approval once after its commit, signed with the subscription secret, and never one that rolled back', async () => {
    const sub = await subscribe('审核通知', 'document.approved', '/approved')
    expect(sub.secret).toMatch(/^whsec_[0-9a-f]{48}$/)
    const id = await order()
    await ok('PATCH', '/purchase/order/approve/pass', { id })
    await until('the approval reaches the receiver', () => receiver.at('/approved').length === 1)
    const [got] = receiver.at('/approved')
    const body = payload(got)
    expect(body).toMatchObject({ event: 'document.approved', data: { document: 'purchaseOrder', id, status: 3 } })
    expect(got.headers['x-webhook-event']).toBe('document.approved')
    expect(got.headers['x-webhook-id']).toBe(body.id)
    const timestamp = String(got.headers['x-webhook-timestamp'])
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60)
    const expected = `sha256=${createHmac('sha256', sub.secret).update(`${timestamp}.${got.body}`).digest('hex')}`
    expect(got.headers['x-webhook-signature']).toBe(expected)
    // Another secret does not verify it.
    expect(got.headers['x-webhook-signature']).not.toBe(`sha256=${createHmac('sha256', 'whsec_other').update(`${timestamp}.${got.body}`).digest('hex')}`)

    // An approval the stock refuses rolls back: no delivery is written, none is sent.
    const before = await deliveryCount()
    const sheet = await ok<string>('POST', '/sale/out/sheet', { scId: f.scB, customerId: f.customerId, products: [{ productId: f.p2, orderNum: 1, taxPrice: '30' }] })
    const refused = await t.call('PATCH', '/sale/out/sheet/approve/pass', { token: admin, body: { id: sheet } })
    expect(refused.status).toBe(400)
    expect(refused.body.msg, refused.raw).toContain('库存')
    expect(await deliveryCount()).toBe(before)

    // A later approval arrives alone: the first was sent once, the refused one never.
    const second = await order()
    await ok('PATCH', '/purchase/order/approve/pass', { id: second })
    await until('the second approval arrives', () => receiver.at('/approved').length === 2)
    await until('both deliveries are marked delivered', async () => (await deliveriesOf(sub.id)).every((d) => d.status === 'DELIVERED'))
    expect(receiver.at('/approved').map((r) => payload(r).data.id)).toEqual([id, second])
    const deliveries = await deliveriesOf(sub.id)
    expect(deliveries).toHaveLength(2)
    expect(deliveries.every((d) => d.attempts === 1 && d.lastStatus === 200 && d.lastAnswer === 'ok')).toBe(true)
  })

  it('tells of refusals and cancelled approvals with their facts', async () => {
    await subscribe('拒绝通知', 'document.refused', '/refused')
    await subscribe('取消审核通知', 'document.cancelled', '/cancelled')
    const refusedId = await order()
    await ok('PATCH', '/purchase/order/approve/refuse', { id: refusedId, refuseReason: '价格不对' })
    const approvedId = await order()
    await ok('PATCH', '/purchase/order/approve/pass', { id: approvedId })
    await ok('PATCH', '/purchase/order/approve/cancel', { id: approvedId })
    await until('the refusal arrives', () => receiver.at('/refused').length === 1)
    expect(payload(receiver.at('/refused')[0])).toMatchObject({ event: 'document.refused', data: { id: refusedId, status: 6, refuseReason: '价格不对' } })
    await until('the cancellation arrives', () => receiver.at('/cancelled').length === 1)
    const [cancel] = receiver.at('/cancelled')
    expect(payload(cancel)).toMatchObject({ event: 'document.cancelled', data: { id: approvedId, status: 0 } })
  })

  it('tells of CRM opportunity approvals and refusals in the shape of documents, from their transaction', async () => {
    await subscribe('商机审核通过', 'document.approved', '/crm-approved')
    await subscribe('商机审核拒绝', 'document.refused', '/crm-refused')
    const customerId = await ok<string>('POST', '/basedata/customer', { code: `WHC${Date.now() % 100000}`, name: '钩子商机客户', settleType: 1 })
    const business = () => ok<string>('POST', '/crm/business', { name: '钩子商机', customerId, stage: 2, amount: '1000.00', winRate: 40, expectedCloseDate: '2030-06-30' })
    const passed = await business()
    const refused = await business()
    await ok('POST', '/crm/business/approve', { id: passed })
    await ok('POST', '/crm/business/approve', { id: refused, status: 6, refuseReason: '金额过高' })
    await until('the opportunity approval arrives', () => receiver.at('/crm-approved').length === 1)
    expect(payload(receiver.at('/crm-approved')[0])).toMatchObject({ event: 'document.approved', data: { document: 'crmBusiness', subject: '商机', id: passed, status: 3 } })
    await until('the opportunity refusal arrives', () => receiver.at('/crm-refused').length === 1)
    expect(payload(receiver.at('/crm-refused')[0])).toMatchObject({ event: 'document.refused', data: { document: 'crmBusiness', id: refused, status: 6, refuseReason: '金额过高' } })
    // An approval that is refused (already approved) writes no delivery.
    const before = await deliveryCount()
    const again = await t.call('POST', '/crm/business/approve', { token: admin, body: { id: passed } })
    expect(again.body).toMatchObject({ msg: '商机已审核通过，不允许重复审核！' })
    expect(await deliveryCount()).toBe(before)
  })

  it('tells of a finished import, with its result or its errors', async () => {
    await subscribe('导入完成', 'import.finished', '/import')
    const upload = async (rows: (string | number)[][]) => {
      const { payload: body, contentType } = multipart('品牌.xlsx', await workbook(['*编号', '*名称'], rows))
      const r = await t.app.inject({ method: 'POST', url: '/cloud-api/basedata/product/brand/import', headers: { 'x-auth-token': admin, 'content-type': contentType }, payload: body })
      const answer = JSON.parse(r.body) as { code: number; data: string }
      expect(answer.code, r.body).toBe(200)
      return answer.data
    }
    const code = `WHB${Date.now() % 100000}`
    const good = await upload([[code, '钩子品牌']])
    await until('the finished import arrives', () => receiver.at('/import').length === 1)
    expect(payload(receiver.at('/import')[0])).toMatchObject({ event: 'import.finished', data: { taskId: good, hasError: false, result: { total: 1, created: 1, modified: 0 }, errors: 0 } })
    const bad = await upload([[`${code}X`, '']])
    await until('the failed import arrives', () => receiver.at('/import').length === 2)
    const failed = payload(receiver.at('/import')[1])
    expect(failed).toMatchObject({ event: 'import.finished', data: { taskId: bad, hasError: true } })
    expect(failed.data.errors).toBeGreaterThan(0)
  })

  it('retries after the receiver fails, lists every attempt with its answer, and keeps the order of a subscription', async () => {
    const sub = await subscribe('顺序通知', 'document.refused', '/flaky')
    receiver.answer('/flaky', 500, 503)
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const id = await order()
      await ok('PATCH', '/purchase/order/approve/refuse', { id, refuseReason: `第${i + 1}张` })
      ids.push(id)
    }
    await until('three deliveries arrive', () => receiver.at('/flaky').filter((r) => r.status === 200).length === 3)
    // Every request, failed ones included, in event order: the first event twice more before the others.
    expect(receiver.at('/flaky').map((r) => [payload(r).data.id, r.status])).toEqual([
      [ids[0], 500],
      [ids[0], 503],
      [ids[0], 200],
      [ids[1], 200],
      [ids[2], 200],
    ])
    await until('deliveries are listed as delivered', async () => {
      const list = await deliveriesOf(sub.id)
      return list.length === 3 && list.every((d) => d.status === 'DELIVERED')
    })
    const deliveries = await deliveriesOf(sub.id)
    const first = deliveries.find((d) => d.attempts === 3)
    expect(first).toBeDefined()
    const attempts = await attemptsOf(first!.id)
    expect(attempts.map((a) => [a.attemptNo, a.httpStatus, a.answer])).toEqual([
      [1, 500, 'receiver says 500'],
      [2, 503, 'receiver says 503'],
      [3, 200, 'ok'],
    ])
    expect(attempts.every((a) => Number.isInteger(a.durationMs) && a.durationMs >= 0)).toBe(true)
  })

  it('marks a delivery failed after the bounded time, and a replay sends the same event again', async () => {
    const sub = await subscribe('故障接收方', 'document.approved', '/down')
    receiver.always('/down', 503)
    const id = await order()
    await ok('PATCH', '/purchase/order/approve/pass', { id })
    const failed = await until(
      'the delivery is given up',
      async () => (await deliveriesOf(sub.id)).find((d) => d.status === 'FAILED'),
      20_000,
    )
    expect(failed.attempts).toBeGreaterThanOrEqual(3)
    expect(failed.lastStatus).toBe(503)
    expect((await attemptsOf(failed.id)).length).toBe(failed.attempts)
    const tries = receiver.at('/down').length
    expect(tries).toBe(failed.attempts)

    receiver.always('/down', undefined)
    const replayId = await ok<string>('POST', '/system/webhook/delivery/replay', { id: failed.id })
    const replayed = await until('the replay is delivered', async () => (await deliveriesOf(sub.id)).find((d) => d.id === replayId && d.status === 'DELIVERED'))
    expect(replayed).toMatchObject({ eventId: failed.eventId, replayOf: failed.id, attempts: 1 })
    const last = receiver.at('/down').at(-1)!
    expect(last.status).toBe(200)
    expect(last.headers['x-webhook-id']).toBe(failed.eventId)
    expect(payload(last).data.id).toBe(id)

    // A delivery still waiting cannot be replayed; a missing one answers 404.
    const running = await t.call('POST', '/system/webhook/delivery/replay', { token: admin, body: { id: 'nope' } })
    expect(running.status).toBe(404)
    expect(running.body).toMatchObject({ code: 404, msg: '投递记录不存在！' })
  })

  it('announces a failed scheduled job', async () => {
    await subscribe('任务失败', 'job.failed', '/job')
    const jobId = await ok<string>('POST', '/qrtz', { name: '会失败的任务', jobType: 2, cron: '0 0 0 1 1 ? 2099', script: 'throw new Error("坏了")' })
    await t.call('PATCH', '/qrtz/trigger', { token: admin, body: { id: jobId } })
    await until('the failure arrives', () => receiver.at('/job').length === 1)
    const [got] = receiver.at('/job')
    expect(payload(got)).toMatchObject({ event: 'job.failed', data: { jobId, jobName: '会失败的任务' } })
    expect(String(payload(got).data.message)).toContain('坏了')
  })

  it('tells of a customer returned to the public sea and claimed from it', async () => {
    await subscribe('退回公海', 'customer.returned', '/returned')
    await subscribe('领取客户', 'customer.claimed', '/claimed')
    const customerId = await ok<string>('POST', '/crm/customer', { code: `WH${Date.now() % 100000}`, name: '钩子客户', settleType: 1, available: true })
    await ok('POST', '/basedata/customer/removePublicSea', { ids: [customerId], reason: '暂无需求' })
    await ok('POST', '/basedata/customer/claimPublicSea', { ids: [customerId] })
    await until('the return arrives', () => receiver.at('/returned').length === 1)
    expect(payload(receiver.at('/returned')[0])).toMatchObject({ event: 'customer.returned', data: { customerId, toOwnerId: null, reason: '暂无需求' } })
    await until('the claim arrives', () => receiver.at('/claimed').length === 1)
    expect(payload(receiver.at('/claimed')[0])).toMatchObject({ event: 'customer.claimed', data: { customerId, fromOwnerId: null } })
  })

  it('counts attempts by outcome in /metrics', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/metrics' })
    expect(r.statusCode).toBe(200)
    expect(r.body).toMatch(/erp_webhook_attempts_total\{outcome="delivered"\} [1-9]/)
    expect(r.body).toMatch(/erp_webhook_attempts_total\{outcome="retry"\} [1-9]/)
    expect(r.body).toMatch(/erp_webhook_attempts_total\{outcome="failed"\} 1/)
  })

  it('refuses bad subscriptions in Chinese and keeps nothing of them', async () => {
    const count = await subscriptionCount()
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: '', event: 'document.approved', url: `${receiver.base}/x` }, '请输入名称'],
      [{ name: '坏事件', event: 'document.exploded', url: `${receiver.base}/x` }, '订阅事件'],
      [{ name: '无地址', event: 'document.approved', url: '' }, '请输入回调地址'],
      [{ name: '坏协议', event: 'document.approved', url: 'ftp://example.com/hook' }, '回调地址必须是以http://或https://开头的完整网址'],
      [{ name: '不是网址', event: 'document.approved', url: 'hook here' }, '回调地址必须是以http://或https://开头的完整网址'],
      [{ name: '元数据', event: 'document.approved', url: 'http://169.254.169.254/latest/meta-data' }, '回调地址不允许指向本机、内网或保留地址（169.254.169.254）'],
      [{ name: '内网', event: 'document.approved', url: 'http://10.1.2.3:8080/' }, '回调地址不允许指向本机、内网或保留地址（10.1.2.3）'],
      [{ name: '内网二', event: 'document.approved', url: 'https://192.168.0.10/' }, '回调地址不允许指向本机、内网或保留地址（192.168.0.10）'],
      [{ name: '别的本机', event: 'document.approved', url: 'http://127.0.0.2:9/' }, '回调地址不允许指向本机、内网或保留地址（127.0.0.2）'],
      [{ name: '十进制', event: 'document.approved', url: 'http://2130706434/' }, '回调地址不允许指向本机、内网或保留地址（127.0.0.2）'],
      [{ name: 'IPv6本机', event: 'document.approved', url: 'http://[::1]:9/' }, '回调地址不允许指向本机、内网或保留地址（::1）'],
      [{ name: '映射', event: 'document.approved', url: 'http://[::ffff:10.0.0.1]/' }, '回调地址不允许指向本机、内网或保留地址（::ffff:a00:1）'],
    ]
    for (const [body, msg] of refusals) {
      const r = await t.call('POST', '/system/webhook', { token: admin, body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.code).toBe(400)
      expect(r.body.msg, JSON.stringify(body)).toContain(msg)
    }
    expect(await subscriptionCount()).toBe(count)
    // A modify to a refused URL leaves the stored one.
    const { id } = await subscribe('改地址', 'import.finished', '/import')
    const modify = await t.call('PUT', '/system/webhook', { token: admin, body: { id, name: '改地址', event: 'import.finished', url: 'http://10.0.0.1/', available: true } })
    expect(modify.body).toMatchObject({ code: 400, msg: '回调地址不允许指向本机、内网或保留地址（10.0.0.1）' })
    expect((await ok<{ url: string }>('GET', '/system/webhook', undefined, { id })).url).toBe(`${receiver.base}/import`)
  })

  it('refuses the calls to users without their keys and changes nothing', async () => {
    const viewer = await userWithMenus(t, admin, 'hookview', ['system:webhook:query', 'system:webhook-delivery:query'])
    const nobody = await userWithMenus(t, admin, 'hooknone', [])
    const count = await subscriptionCount()
    const deliveries = await deliveryCount()
    const [anyDelivery] = await db().selectFrom('webhook_delivery').select('id').where('status', '=', 'DELIVERED').limit(1).execute()
    for (const token of [viewer, nobody]) {
      const create = await t.call('POST', '/system/webhook', { token, body: { name: '越权', event: 'document.approved', url: `${receiver.base}/x` } })
      expect(create.status).toBe(403)
      expect(create.body.msg).toBe('无权限')
      const replay = await t.call('POST', '/system/webhook/delivery/replay', { token, body: { id: String(anyDelivery.id) } })
      expect(replay.status).toBe(403)
    }
    expect((await t.call('GET', '/system/webhook/query', { token: nobody })).status).toBe(403)
    expect((await t.call('GET', '/system/webhook/delivery/query', { token: nobody })).status).toBe(403)
    expect((await t.call('GET', '/system/webhook/query', { token: viewer })).status).toBe(200)
    expect(await subscriptionCount()).toBe(count)
    expect(await deliveryCount()).toBe(deliveries)
  })

  it('without WEBHOOK_ALLOW_PRIVATE refuses loopback when subscribing and again when delivering', async () => {
    const sub = await subscribe('本机接收方', 'document.approved', '/private')
    const allowed = t.app.services.config.webhookAllowPrivate
    const kept = allowed.splice(0)
    try {
      const r = await t.call('POST', '/system/webhook', { token: admin, body: { name: '本机', event: 'document.approved', url: `${receiver.base}/again` } })
      expect(r.body).toMatchObject({ code: 400, msg: '回调地址不允许指向本机、内网或保留地址（127.0.0.1）' })
      const id = await order()
      await ok('PATCH', '/purchase/order/approve/pass', { id })
      const failed = await until('the delivery is refused', async () => (await deliveriesOf(sub.id)).find((d) => d.status === 'FAILED'))
      expect(failed).toMatchObject({ attempts: 1, lastStatus: null, lastAnswer: '回调地址不允许指向本机、内网或保留地址（127.0.0.1）' })
      expect(receiver.at('/private')).toHaveLength(0)
    } finally {
      allowed.push(...kept)
    }
  })

  it('a stop waits for the delivery in flight, which ends delivered', async () => {
    const sub = await subscribe('慢接收方', 'document.refused', '/slow')
    receiver.hold('/slow')
    const id = await order()
    await ok('PATCH', '/purchase/order/approve/refuse', { id, refuseReason: '慢' })
    await until('the slow receiver holds the request', () => receiver.held('/slow') === 1)
    const old = t.app
    let stopped = false
    const restarting = t.restart().then(() => (stopped = true))
    // A closing app answers no more calls (inject refuses once close has begun).
    await until('the app is stopping', () =>
      old.inject({ method: 'GET', url: '/healthz' }).then(
        (r) => r.statusCode === 503,
        () => true,
      ),
    )
    expect(stopped).toBe(false)
    receiver.release('/slow')
    await restarting
    const [delivery] = await deliveriesOf(sub.id)
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 1, lastStatus: 200 })
    expect(await attemptsOf(delivery.id)).toHaveLength(1)
  })
})
