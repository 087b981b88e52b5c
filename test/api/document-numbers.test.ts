import dayjs from 'dayjs'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

type Page = { datas: { id: string; code: string }[]; totalCount: number }

/**
 * Document numbers (`yyyyMMdd` + a 10-digit daily sequence shared by every document kind of a tenant) stay
 * unique under parallel creation: many purchase and sale orders created at once in two tenants get the
 * numbers 1..N of the day in each tenant, without a gap or a repeat, and every tenant counts on its own.
 * On PostgreSQL a second server on the same database (another process's connection pool) races the first.
 */
describe('document numbers under parallel creation, per tenant', () => {
  let t: TestApp
  const tokens: Record<string, string> = {}
  const fixtures: Record<string, TradeFixtures> = {}
  const day = dayjs().format('YYYYMMDD')

  beforeAll(async () => {
    t = await startTestApp()
    tokens['1000'] = await t.login('admin')
    const created = await t.call('POST', '/system/tenant', { token: tokens['1000'], body: { id: '2000', name: '第二租户', available: true } })
    expect(created.body.code).toBe(200)
    tokens['2000'] = await t.login('2000@admin')
    fixtures['1000'] = await createTradeFixtures(t, tokens['1000'], 'A')
    fixtures['2000'] = await createTradeFixtures(t, tokens['2000'], 'B')
  }, 180_000)
  afterAll(async () => t?.close())

  /** The create calls of `count` documents of tenant `tenant`, alternating purchase and sale orders. */
  const creates = (tenant: string, count: number) => {
    const f = fixtures[tenant]
    return Array.from({ length: count }, (_, i) =>
      i % 2 === 0
        ? { url: '/purchase/order', body: { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1 + i, taxPrice: '10.00' }] } }
        : { url: '/sale/order', body: { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p2, orderNum: 1 + i, taxPrice: '30.00' }] } },
    )
  }
  const send = (app: FastifyInstance, tenant: string, c: { url: string; body: unknown }) =>
    app.inject({
      method: 'POST',
      url: `/cloud-api${c.url}`,
      headers: { 'x-auth-token': tokens[tenant], 'content-type': 'application/json' },
      payload: JSON.stringify(c.body),
    })
  /** Every document number of the tenant, purchase and sale orders together. */
  const numbers = async (tenant: string) => {
    const all: string[] = []
    for (const url of ['/purchase/order/query', '/sale/order/query']) {
      const r = await t.call<Page>('GET', url, { token: tokens[tenant], query: { pageSize: 500 } })
      expect(r.body.code).toBe(200)
      expect(r.body.data.datas.length).toBe(r.body.data.totalCount)
      all.push(...r.body.data.datas.map((d) => d.code))
    }
    return all.sort()
  }
  const sequence = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${day}${String(from + i).padStart(10, '0')}`)

  it('numbers 60 documents created at once in two tenants 1..30 in each, with no gap or repeat', { timeout: 120_000 }, async () => {
    const answers = await Promise.all(
      ['1000', '2000'].flatMap((tenant) => creates(tenant, 30).map((c) => send(t.app, tenant, c))),
    )
    for (const a of answers) expect(a.statusCode, a.body.slice(0, 300)).toBe(200)
    expect(answers.map((a) => (JSON.parse(a.body) as { msg: string }).msg)).toEqual(answers.map(() => '操作成功！'))
    // Each tenant has its own counter: both start at 1 today.
    expect(await numbers('1000')).toEqual(sequence(1, 30))
    expect(await numbers('2000')).toEqual(sequence(1, 30))
  })

  it('a refused creation in the crowd takes no number', { timeout: 120_000 }, async () => {
    const good = creates('2000', 10)
    const bad = Array.from({ length: 5 }, () => ({ url: '/purchase/order', body: { scId: fixtures['2000'].scA, products: [] } }))
    const answers = await Promise.all([...good, ...bad].map((c) => send(t.app, '2000', c)))
    const msgs = answers.map((a) => (JSON.parse(a.body) as { msg: string }).msg)
    expect(msgs.filter((m) => m === '操作成功！')).toHaveLength(10)
    expect(answers.every((a) => a.statusCode < 500)).toBe(true)
    expect(await numbers('2000')).toEqual(sequence(1, 40))
    expect(await numbers('1000')).toEqual(sequence(1, 30))
  })

  // SQLite has one writer per file by construction; the race between processes that matters is PostgreSQL's.
  if (process.env.TEST_DB === 'postgres')
    it('two servers on the same database share the counter', { timeout: 180_000 }, async () => {
      const second = await buildApp(t.app.services.config)
      try {
        await second.ready()
        const calls = creates('1000', 40)
        const answers = await Promise.all(calls.map((c, i) => send(i % 2 === 0 ? t.app : second, '1000', c)))
        for (const a of answers) expect(a.statusCode, a.body.slice(0, 300)).toBe(200)
        expect(await numbers('1000')).toEqual(sequence(1, 70))
        expect(await numbers('2000')).toEqual(sequence(1, 40))
      } finally {
        await second.close()
      }
    })
})
