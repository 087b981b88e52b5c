import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCluster, type TestCluster } from '../support/cluster.js'
import { httpClient, type ApiClient } from '../support/http-client.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { startWebhookReceiver, until, type WebhookReceiver } from '../support/webhook-receiver.js'

const onPostgres = process.env.TEST_DB === 'postgres'

/**
 * Two server processes on one PostgreSQL, both sending the outbox every 100 ms: every event reaches the
 * receiver exactly once (a row is claimed by one guarded statement with SKIP LOCKED), retries included,
 * and a subscription's events arrive in the order they happened whichever process wrote or sent them.
 * SQLite deployments are one process by design, so on SQLite this file is skipped (test/api/webhooks.test.ts
 * covers one process on both databases).
 */
describe.skipIf(!onPostgres)('webhooks from two server processes on one PostgreSQL (skipped on SQLite: one process by design)', () => {
  let cluster: TestCluster
  let receiver: WebhookReceiver
  let a: ApiClient
  let b: ApiClient
  let tokenA: string
  let tokenB: string
  let f: TradeFixtures

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    cluster = await startCluster(2, { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_BASE_MS: '100' })
    a = httpClient(cluster.workers[0])
    b = httpClient(cluster.workers[1])
    tokenA = await a.login()
    tokenB = await b.login()
    f = await createTradeFixtures(a, tokenA)
  }, 180_000)
  afterAll(async () => {
    await cluster?.stop()
    await receiver?.close()
  })
  const ok = async <T>(client: ApiClient, token: string, method: 'POST' | 'PATCH' | 'PUT' | 'GET', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await client.call<T>(method, url, { token, body, query })
    expect(r.body.msg, `${method} ${url}: ${r.raw} ${cluster.output().slice(-2000)}`).toBe('操作成功！')
    return r.body.data
  }

  it('delivers every event once, in order, whichever process wrote it and whichever sends it', { timeout: 120_000 }, async () => {
    const subscription = await ok<string>(a, tokenA, 'POST', '/system/webhook', { name: '集群订阅', event: 'document.approved', url: `${receiver.base}/cluster`, available: true })
    // The first two requests fail: the first event is retried while the others wait behind it.
    receiver.answer('/cluster', 500, 500)
    const approved: string[] = []
    for (let i = 0; i < 16; i++) {
      const [client, token] = i % 2 ? [b, tokenB] : [a, tokenA]
      const id = await ok<string>(client, token, 'POST', '/purchase/order', {
        scId: f.scA,
        supplierId: f.supplierId,
        expectArriveDate: '2026-12-01',
        products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00', taxRate: 17 }],
        payTypes: [{ id: f.payTypeId, payAmount: '10.00', text: '全款' }],
      })
      await ok(client, token, 'PATCH', '/purchase/order/approve/pass', { id })
      approved.push(id)
    }
    const delivered = () => receiver.at('/cluster').filter((r) => r.status === 200)
    await until('every approval is delivered', () => delivered().length >= approved.length, 60_000)
    await until('every delivery is marked delivered', async () => {
      const page = await ok<{ datas: { status: string }[] }>(a, tokenA, 'GET', '/system/webhook/delivery/query', undefined, { subscriptionId: subscription, pageSize: '100' })
      return page.datas.length === approved.length && page.datas.every((d) => d.status === 'DELIVERED')
    })
    const ids = delivered().map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id)
    // Once each (no second 200 for any event), and in the order of the approvals.
    expect(ids).toEqual(approved)
    const deliveryIds = receiver.at('/cluster').map((r) => String(r.headers['x-webhook-delivery']))
    expect(new Set(deliveryIds).size).toBe(approved.length)
    expect(receiver.at('/cluster')).toHaveLength(approved.length + 2)
  })

  it('applies on B a subscription and 系统参数 changed through A, though B keeps both between changes', { timeout: 60_000 }, async () => {
    const order = (client: ApiClient, token: string) =>
      ok<string>(client, token, 'POST', '/purchase/order', {
        scId: f.scA,
        supplierId: f.supplierId,
        products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00', taxRate: 17 }],
        payTypes: [{ id: f.payTypeId, payAmount: '10.00', text: '全款' }],
      })
    const approveOnB = async () => b.call('PATCH', '/purchase/order/approve/pass', { token: tokenB, body: { id: await order(b, tokenB) } })
    // An approval of one's own order on B reads (and B may keep) the subscriptions and the separation-of-duties parameter.
    expect((await approveOnB()).body.msg).toBe('操作成功！')
    const subscription = await ok<string>(a, tokenA, 'POST', '/system/webhook', { name: '集群新订阅', event: 'document.approved', url: `${receiver.base}/kept`, available: true })
    await until('an approval on B writes a delivery to the subscription made through A', async () => {
      expect((await approveOnB()).body.msg).toBe('操作成功！')
      return (await ok<{ datas: unknown[] }>(a, tokenA, 'GET', '/system/webhook/delivery/query', undefined, { subscriptionId: subscription })).datas.length > 0
    }, 5_000)
    const params = await ok<{ datas: { id: string; pKey: string }[] }>(a, tokenA, 'GET', '/system/parameter/query', undefined, { pKey: 'approval.separate-duties' })
    const rule = params.datas.find((p) => p.pKey === 'approval.separate-duties')!
    const setRule = (on: boolean) => ok(a, tokenA, 'PUT', '/system/parameter', { id: rule.id, pKey: rule.pKey, pValue: String(on) })
    await setRule(true)
    try {
      await until('B refuses an own approval once separation of duties is on through A', async () => (await approveOnB()).body.msg === '不允许审核自己创建的采购订单', 5_000)
    } finally {
      await setRule(false)
    }
    await until('B allows it again once it is off', async () => (await approveOnB()).body.msg === '操作成功！', 5_000)
  })
})
