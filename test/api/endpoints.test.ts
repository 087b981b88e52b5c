import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type HttpMethod, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { AREAS, catalogueRows, servedCalls } from '../support/endpoint-catalogue.js'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { operationKeys, type Operation } from '../../src/shared/metadata/operation-keys.js'

/**
 * Every call of the spec's catalogue in the areas built so far answers (is not an unknown route) and
 * never answers 5xx, whatever the payload. Calls of objects that do not exist yet are listed below, so
 * the gap stays visible and shrinks as areas land (test/support/endpoint-catalogue.ts).
 *
 * These sweeps are smoke rows, not behaviour: their top-level describe titles start with `catalogue:`,
 * and scripts/test-all.mjs counts such tests apart in its summary. Keep behavioural tests out of them.
 */
const payloads: { name: string; payload?: string; type?: string }[] = [
  { name: 'empty' },
  { name: 'empty object', payload: '{}', type: 'application/json' },
  { name: 'malformed JSON', payload: '{"id": ', type: 'application/json' },
  { name: 'wrong types', payload: '{"id": {"$gt": 1}, "ids": "x", "pageIndex": "abc", "name": [1,2]}', type: 'application/json' },
  { name: 'array', payload: '[null, 1, {}]', type: 'application/json' },
]

let t: TestApp
let token: string
beforeAll(async () => {
  t = await startTestApp()
  token = await t.login()
})
afterAll(async () => t?.close())

describe(`catalogue: every call of the spec in ${AREAS.join(', ')}`, () => {
  const inScope = catalogueRows.filter((r) => AREAS.includes(r.area))

  it('covers the areas of this stage', () => {
    expect(inScope.length).toBeGreaterThan(200)
  })

  it.each(servedCalls().map((r) => [r.method, r.url]))(
    '%s %s answers, and never 5xx for bad payloads',
    async (method, url) => {
      for (const p of payloads) {
        const send = () =>
          t.app.inject({
            method: method as 'GET',
            url: `/cloud-api${url}?pageIndex=x&id=`,
            headers: { 'x-auth-token': token, ...(p.type ? { 'content-type': p.type } : {}) },
            payload: p.payload,
          })
        let response = await send()
        // /auth/logout ends the session: sign in again so the calls after it are tried signed in, not just refused.
        if (response.statusCode === 401) {
          token = await t.login()
          response = await send()
        }
        const json = String(response.headers['content-type'] ?? '').includes('json')
        const body = (json ? JSON.parse(response.body || '{}') : {}) as { msg?: string }
        expect(response.statusCode, `${p.name}: ${response.body.slice(0, 200)}`).toBeLessThan(500)
        expect(body.msg, p.name).not.toBe('接口不存在')
      }
    },
  )

})

describe('unknown calls', () => {
  it('answers an unknown call with 404 in the envelope', async () => {
    const r = await t.call('GET', '/no/such/call', { token })
    expect(r.status).toBe(404)
    expect(r.body).toMatchObject({ code: 404, msg: '接口不存在' })
  })
})

/** The calls a document file names for the browser (loaders, searches, payment dates, row actions) are served, with those methods. */
describe('catalogue: calls the document files declare', () => {
  const dir = path.resolve(import.meta.dirname, '../../schemas/documents')
  const declared = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const doc = (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as EntityFile).document!
      const calls: [string, string][] = []
      if (doc.follows) calls.push(['GET', doc.follows.loader])
      if (doc.productSearch) calls.push(['GET', doc.productSearch])
      if (doc.paymentDate) calls.push(['GET', doc.paymentDate.path])
      for (const a of doc.rowActions ?? []) if (a.call) calls.push([a.call.method.toUpperCase(), a.call.path])
      return calls
    })

  it('names the calls of the documents', () => {
    expect(declared.length).toBeGreaterThanOrEqual(14)
    expect(t.app.hasRoute({ method: 'GET', url: '/cloud-api/purchase/order/no-such-call' })).toBe(false)
  })
  it.each(declared)('%s %s is a route', (method, url) => {
    expect(t.app.hasRoute({ method: method as 'GET', url: `/cloud-api${url}` })).toBe(true)
  })
})

/**
 * The spec's own spellings of plain entity calls are declared in the entity files (`api.paths`): each is a
 * call of the catalogue, served with the keys of its operation (a caller holding none is refused, one
 * holding the key is answered).
 */
describe('entity files: declared spec paths', () => {
  const dir = path.resolve(import.meta.dirname, '../../schemas/entities')
  const declared = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const file = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as EntityFile
      return (file.api?.paths ?? []).map((p) => ({ entity: file.name, ...p }))
    })

  it('are calls of the spec catalogue', () => {
    expect(declared.length).toBeGreaterThanOrEqual(16)
    const spec = new Set(catalogueRows.map((r) => `${r.method} ${r.url}`))
    expect(declared.filter((p) => !spec.has(`${p.method} ${p.path}`)).map((p) => `${p.method} ${p.path}`)).toEqual([])
  })
  it('are served with the keys of their operation: refused without them, answered with one of them', async () => {
    const stranger = await userWithMenus(t, token, 'pathnone', ['system:menu:query'])
    const holders = new Map<string, string>()
    for (const p of declared) {
      const key = operationKeys(t.app.services.registry.get(p.entity), p.operation as Operation)[0]!
      if (!holders.has(key)) holders.set(key, await userWithMenus(t, token, `path${holders.size}`, [key]))
      const call = (who: string) => t.call(p.method as HttpMethod, p.path, { token: who, query: { id: '' }, ...(p.method === 'GET' ? {} : { body: {} }) })
      const refused = await call(stranger)
      expect(refused.status, `${p.method} ${p.path}`).toBe(403)
      expect(refused.body).toMatchObject({ code: 403, msg: '无权限' })
      const answered = await call(holders.get(key)!)
      expect([200, 400, 404], `${p.method} ${p.path}: ${answered.raw}`).toContain(answered.status)
    }
  }, 120_000)
})
