import type { Worker } from 'node:worker_threads'
import { PDFParse } from 'pdf-parse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures } from '../support/trade-fixtures.js'

/**
 * Printing renders in a worker thread (modules/print/pdf-renderer.ts): while a large order is being
 * drawn, the server answers other requests; a worker that dies fails only the print it had (the generic
 * 500, nothing counted) and the next print starts a new one; closing the app ends the worker.
 */
describe('printing in a worker thread', () => {
  let t: TestApp
  let admin: string
  let big: string
  let small: string

  /** Every worker thread this process starts from the first test on (the PDF worker starts on the app's first print). */
  const workers: Worker[] = []
  const onWorker = (w: Worker) => workers.push(w)
  /** Waits (bounded) until the process has started `n` workers and answers the n-th. */
  const worker = async (n: number) => {
    const deadline = Date.now() + 60_000
    while (workers.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    expect(workers.length, 'worker threads started').toBeGreaterThanOrEqual(n)
    return workers[n - 1]
  }
  const printOf = (id: string) => t.call('GET', '/print/pdf', { token: admin, query: { kind: 'purchaseOrder', ids: id } })
  const printCount = async (id: string) => (await t.call<{ printCount?: number }>('GET', '/purchase/order', { token: admin, query: { id } })).body.data.printCount ?? 0
  const order = async (products: { productId: string; orderNum: number; taxPrice: string }[], payTypeId: string) => {
    const amount = products.reduce((s, p) => s + p.orderNum * Number(p.taxPrice), 0).toFixed(2)
    return t.call<string>('POST', '/purchase/order', { token: admin, body: { scId: f.scA, supplierId: f.supplierId, products, payTypes: [{ id: payTypeId, payAmount: amount }] } })
  }
  let f: Awaited<ReturnType<typeof createTradeFixtures>>

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
    const lines = Array.from({ length: 600 }, (_, i) => ({ productId: i % 2 ? f.p2 : f.p1, orderNum: (i % 9) + 1, taxPrice: '1.25' }))
    const r = await order(lines, f.payTypeId)
    expect(r.body.code, r.raw.slice(0, 300)).toBe(200)
    big = r.body.data
    const s = await order([{ productId: f.p1, orderNum: 1, taxPrice: '2.00' }], f.payTypeId)
    expect(s.body.code, s.raw.slice(0, 300)).toBe(200)
    small = s.body.data
  }, 120_000)
  afterAll(async () => {
    process.off('worker', onWorker)
    await t?.close()
  })

  it('answers other requests while a 600-line order is being rendered', async () => {
    process.on('worker', onWorker)
    let printed = false
    const print = printOf(big).then((r) => ((printed = true), r))
    // Handed to the worker: from here on the rendering runs, and the server's thread must stay free.
    await worker(1)
    const health = await t.app.inject({ method: 'GET', url: '/healthz' })
    const list = await t.call<{ datas: unknown[] }>('GET', '/purchase/order/query', { token: admin, query: { pageSize: 5 } })
    expect(printed).toBe(false)
    expect(health.statusCode).toBe(200)
    expect(list.body.code).toBe(200)
    const r = await print
    expect(r.status, r.raw.slice(0, 300)).toBe(200)
    const text = await new PDFParse({ data: new Uint8Array(r.rawPayload) }).getText()
    expect(text.text).toContain('采购订单')
    expect(text.total).toBeGreaterThan(5)
    expect(await printCount(big)).toBe(1)
  }, 120_000)

  it('keeps one worker for the next prints', async () => {
    expect((await printOf(small)).status).toBe(200)
    expect((await printOf(small)).status).toBe(200)
    expect(workers.length).toBe(1)
    expect(await printCount(small)).toBe(2)
  }, 60_000)

  it('a worker that dies: the next print starts a new one; a print it had answers the generic 500 and counts nothing', async () => {
    await workers[0].terminate()
    const failing = printOf(small)
    await (await worker(2)).terminate()
    const r = await failing
    expect(r.status).toBe(500)
    expect(r.body).toMatchObject({ code: 500, msg: '系统出现内部错误，请联系系统管理员！' })
    expect(await printCount(small)).toBe(2)
    const next = printOf(small)
    await worker(3)
    expect((await next).status).toBe(200)
    expect(await printCount(small)).toBe(3)
  }, 60_000)

  it('closing the app ends the PDF worker', async () => {
    const w = await worker(3)
    const exited = new Promise<number>((resolve) => w.once('exit', resolve))
    await t.close()
    expect(typeof (await exited)).toBe('number')
    expect(workers.length).toBe(3)
  }, 60_000)
})
