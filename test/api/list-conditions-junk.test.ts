import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { servedCalls } from '../support/endpoint-catalogue.js'
import { listRoutes } from '../../src/server/engine/list-routes.js'
import type { ConditionField, ConditionKind } from '../../src/server/engine/condition-values.js'

/**
 * Issue 27 "Filters that are silently ignored": a condition value that cannot be read is a 400 naming
 * the search item, never dropped (which answered every row); an empty value means no condition. Walks
 * every list route the app declares with each of its conditions set to junk of the condition's kind.
 */
const JUNK: Record<Exclude<ConditionKind, 'text'>, string> = {
  enum: '不存在的代码',
  boolean: 'maybe',
  date: '2026-02-30',
  datetime: '2026-02-30 10:00:00',
  integer: '1x',
  decimal: 'abc',
  id: '不是编号 1',
}

/** Calls of the catalogue that answer rows under conditions: lists, trees, pickers, reports, exports. */
const LISTING = /\/(query\w*|list\w*|\w*List|trees?|export|search|\w*Statis|biz|uncheck-items|unsettle-items|documents)$|^\/selector\/|^\/center\/oplog$|\/query\/invoice$/
/** Calls the pattern takes that read no list conditions, each with the reason. */
const NOT_LISTING: [RegExp, string][] = [
  [/\/load$/, 'loads the rows of given ids (request-values idsFrom)'],
  [/^\/auth\//, 'sign-in calls'],
  [/\/upload\//, 'file uploads'],
  [/^\/gen\/api\/custom\//, 'admin-made custom lists: their own condition grammar (lowcode/custom-list-query.ts, lowcode-security.test.ts)'],
  [/^\/gen\/custom\/(list|selector\/category)$/, 'get and save one low-code configuration'],
  [/^\/system\/data\/permission\//, 'one saved data permission by its key, refused by its own messages (data-permission.test.ts)'],
  [/^\/stock\/take\/config\/(query|export)$/, 'a singleton: the call answers why it does not apply (inapplicable-calls.ts)'],
]

describe('list conditions: an unreadable value is a 400 naming the search item', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const routes = () => listRoutes(t.app.services)

  it('every listing call of the catalogue declares its conditions', () => {
    const declared = new Set(routes().map((r) => `${r.method} ${r.url}`))
    const listing = servedCalls().filter((c) => (c.method === 'GET' || c.method === 'POST') && LISTING.test(c.url) && !NOT_LISTING.some(([p]) => p.test(c.url)))
    const missing = listing.map((c) => `${c.method} ${c.url}`).filter((k) => !declared.has(k))
    expect(missing).toEqual([])
  })

  const send = (method: string, url: string, values: Record<string, string>) =>
    method === 'GET' ? t.call('GET', url, { token, query: values }) : t.call('POST', url, { token, query: {}, body: values })

  it('refuses junk of every condition kind on every declared list route, and reads an empty value as none', async () => {
    const accepted: string[] = []
    const misnamed: string[] = []
    const emptyDiffers: string[] = []
    for (const route of routes()) {
      const exporting = route.url.endsWith('/export')
      for (const c of route.conditions as ConditionField[]) {
        if (c.kind === 'text') continue
        const r = await send(route.method, route.url, { [c.name]: JUNK[c.kind] })
        if (r.status !== 400) accepted.push(`${route.method} ${route.url} ${c.name}=${JUNK[c.kind]} → ${r.status}`)
        else if (r.body.msg !== `查询条件“${c.label}”格式不正确`) misnamed.push(`${route.method} ${route.url} ${c.name}: ${r.body.msg}`)
        const without = await send(route.method, route.url, {})
        const empty = await send(route.method, route.url, { [c.name]: '' })
        const same = exporting ? empty.status === without.status : empty.status === without.status && JSON.stringify(empty.body) === JSON.stringify(without.body)
        if (!same) emptyDiffers.push(`${route.method} ${route.url} ${c.name}: ${without.status} vs ${empty.status} ${empty.body.msg}`)
      }
    }
    expect(accepted).toEqual([])
    expect(misnamed).toEqual([])
    expect(emptyDiffers).toEqual([])
  }, 600_000)
})
