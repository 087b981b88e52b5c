import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { catalogueRows } from '../support/endpoint-catalogue.js'
import { servedRoutes } from '../support/served-routes.js'
import { NO_ROLE_ALLOW_LIST, NO_ROLE_ALLOWED, allowedKey } from '../fixtures/spec/no-role-allow-list.js'
import type { Db } from '../../src/server/db/dialect.js'

/**
 * A signed-in user who holds no role gets 401/403 from every call of the catalogue the app serves (and
 * from every other route it serves), and nothing in the databases changes, except the reviewed calls of
 * the allow-list (each with its reason).
 */
const rows = catalogueRows

const payloads: { name: string; payload?: string; type?: string; query: string }[] = [
  { name: 'nothing', query: '' },
  { name: 'empty object', payload: '{}', type: 'application/json', query: '?id=1&pageIndex=1&pageSize=10' },
  { name: 'ids', payload: '["1"]', type: 'application/json', query: '?ids=1&orderId=1&name=x' },
]

/** Every table's rows as a digest: a change anywhere (insert, update, delete) changes it. */
async function digest(db: Db, kind: 'sqlite' | 'postgres', schema: string | undefined): Promise<Map<string, string>> {
  const names =
    kind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema ?? 'public'} and table_type = 'BASE TABLE'`.execute(db)).rows.map((r) => r.name)
  const out = new Map<string, string>()
  // Sessions record the last call of every token, and each process's bus presence row its heartbeat
  // (every few seconds): that is the session and the process, not the data.
  for (const name of names.filter((n) => !/session|bus_process/.test(n)).sort()) {
    const table = schema ? `${schema}.${name}` : name
    const all = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows
    const lines = all.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort()
    out.set(name, `${all.length}:${createHash('sha1').update(lines.join('\n')).digest('hex')}`)
  }
  return out
}

describe('the catalogue answers a user with no role 401/403 and changes nothing, but for the allow-list', () => {
  let t: TestApp
  let nobody: string
  let snapshot: () => Promise<Map<string, string>>
  beforeAll(async () => {
    t = await startTestApp()
    const admin = await t.login()
    const user = await t.call<string>('POST', '/system/user', {
      token: admin,
      body: { code: 'norole01', name: '无角色', username: 'norole01', password: 'secret123', gender: 0, available: true },
    })
    expect(user.status, user.raw).toBe(200)
    // Something to read or write in the areas a no-role user must not reach.
    for (const [url, body] of [
      ['/system/notice', { title: '通知', content: '<p>正文</p>', published: true }],
      ['/basedata/product/category', { code: 'NR01', name: '类目', available: true }],
    ] as const)
      expect((await t.call('POST', url, { token: admin, body })).status).toBe(200)
    nobody = await t.login('norole01', 'secret123')
    const { databases } = t.app.services
    const tenantId = (await t.app.services.tenantIds())[0]
    snapshot = async () => {
      const tenant = await digest(databases.tenant(tenantId), t.dbKind, databases.schemaOf(tenantId))
      const platform = await digest(databases.platform, t.dbKind, databases.schemaOf('platform'))
      return new Map([...[...tenant].map(([k, v]) => [`tenant.${k}`, v] as const), ...[...platform].map(([k, v]) => [`platform.${k}`, v] as const)])
    }
  })
  afterAll(async () => t?.close())

  const served = () => rows.filter((r) => t.app.hasRoute({ method: r.method as 'GET', url: `/cloud-api${r.url}` }))
  const outsideCatalogue = () => {
    const listed = new Set(rows.map((r) => allowedKey(r.method, r.url)))
    return servedRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) => !listed.has(allowedKey(r.method, r.url)))
  }

  /** Calls as the no-role user with each payload; answers the calls that were not refused. */
  const sweep = async (calls: { method: string; url: string }[]) => {
    const answered: string[] = []
    for (const r of calls)
      for (const p of payloads) {
        const response = await t.app.inject({
          method: r.method as 'GET',
          url: `/cloud-api${r.url.replace(/:[A-Za-z]+/g, 'x')}${p.query}`,
          headers: { 'x-auth-token': nobody, ...(p.type ? { 'content-type': p.type } : {}) },
          payload: p.payload,
        })
        if (response.statusCode !== 401 && response.statusCode !== 403) answered.push(`${r.method} ${r.url} (${p.name}): ${response.statusCode} ${response.body.slice(0, 120)}`)
        else if (response.statusCode === 403) expect(JSON.parse(response.body)).toMatchObject({ code: 403, msg: '无权限' })
      }
    return answered
  }

  it('keeps the allow-list short, reasoned and made of served calls', () => {
    // 33 before: + the OpenAPI document (signed-in users) + a user's own todos (list, mark read).
    expect(NO_ROLE_ALLOW_LIST.length).toBeLessThanOrEqual(36)
    expect(NO_ROLE_ALLOWED.size).toBe(NO_ROLE_ALLOW_LIST.length)
    const catalogue = new Set([...served(), ...outsideCatalogue()].map((r) => allowedKey(r.method, r.url)))
    for (const c of NO_ROLE_ALLOW_LIST) {
      expect(catalogue.has(allowedKey(c.method, c.path)), `${c.method} ${c.path}`).toBe(true)
      expect(c.reason.length, `${c.method} ${c.path}`).toBeGreaterThan(4)
    }
  })

  it('refuses every other served call with 401/403, whatever the payload, and writes nothing', async () => {
    const calls = served().filter((r) => !NO_ROLE_ALLOWED.has(allowedKey(r.method, r.url)))
    expect(calls.length).toBeGreaterThan(500)
    const before = await snapshot()
    expect(await sweep(calls)).toEqual([])
    const after = await snapshot()
    const changed = [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k)
    expect(changed).toEqual([])
    expect([...before.keys()].filter((k) => !after.has(k))).toEqual([])
  }, 300_000)

  it('refuses the served calls outside the catalogue too (document exports, new pickers, designer families…), and writes nothing', async () => {
    const calls = outsideCatalogue().filter((r) => !NO_ROLE_ALLOWED.has(allowedKey(r.method, r.url)))
    expect(calls.length).toBeGreaterThan(40)
    const before = await snapshot()
    expect(await sweep(calls)).toEqual([])
    const after = await snapshot()
    expect([...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k)).toEqual([])
  }, 300_000)

  it('still serves the allow-listed calls of the signed-in shell to that user', async () => {
    for (const url of ['/auth/info', '/auth/menus', '/center/info', '/system/notice/query/my']) {
      const r = await t.call('GET', url, { token: nobody })
      expect(r.status, url).toBe(200)
    }
  })
})
