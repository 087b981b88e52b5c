import { createHash } from 'node:crypto'
import { symbols } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import dayjs from 'dayjs'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { setClock } from '../../src/server/platform/clock.js'
import type { MadeApiToken, ApiTokenRow, ApiTokenKeys } from '../../src/shared/contracts/api-tokens.js'
import { userWithMenus } from '../support/access-helpers.js'

const RATE = 5
const CUSTOMER_QUERY = 'base-data:customer:query'
const CUSTOMER_ADD = 'base-data:customer:add'
const inHours = (h: number) => dayjs().add(h, 'hour').format('YYYY-MM-DD HH:mm:ss')

/**
 * 接口令牌: a token acts as its user narrowed to its keys, until it expires or is revoked; only its
 * SHA-256 digest is stored; its calls are counted per minute (429) and named in the op log; it is never
 * written to the server's log.
 */
describe('API tokens', () => {
  let t: TestApp
  let admin: string
  let logged = ''
  beforeAll(async () => {
    t = await startTestApp({ env: { API_TOKEN_CALLS_PER_MINUTE: String(RATE), LOG_LEVEL: 'trace', LOG_FORMAT: 'json' } })
    // Every line the app logs from here on (pino's JSON lines at trace level: each request and answer).
    const stream = (t.app.log as unknown as Record<symbol, { write(s: string): boolean }>)[symbols.streamSym]
    stream.write = (line: string) => ((logged += line), true)
    admin = await t.login()
  })
  afterEach(() => setClock())
  afterAll(() => t?.close())

  const make = async (body: Record<string, unknown>, token = admin) => t.call<MadeApiToken>('POST', '/system/api-token', { token, body })
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })
  const rows = async () => (await t.call<{ datas: ApiTokenRow[] }>('GET', '/system/api-token/query', { token: admin, query: { pageSize: 100 } })).body.data.datas

  it('acts as its user narrowed to its keys, and the op log says a token made the change', async () => {
    const made = await make({ name: '网店同步', expireTime: inHours(24), permissions: [CUSTOMER_QUERY, CUSTOMER_ADD] })
    expect(made.status, made.raw).toBe(200)
    const { token } = made.body.data
    expect(token).toMatch(/^xyt_/)
    expect((await t.call('GET', '/basedata/customer/query', bearer(token))).status).toBe(200)
    const created = await t.call<string>('POST', '/basedata/customer', { ...bearer(token), body: { code: 'TK001', name: '令牌客户', available: true } })
    expect(created.status, created.raw).toBe(200)
    // Keys the token lacks, though its user (the admin) holds them all.
    for (const [method, url] of [['GET', '/system/user/query'], ['GET', '/basedata/supplier/query'], ['GET', '/system/api-token/query']] as const) {
      const refused = await t.call(method, url, bearer(token))
      expect(refused.status, url).toBe(403)
      expect(refused.body).toMatchObject({ code: 403, msg: '无权限' })
    }
    const log = await t.call<{ datas: { name: string; extra: string | null }[] }>('GET', '/system/oplog/query', { token: admin, query: { pageSize: 500 } })
    const entry = log.body.data.datas.find((r) => r.name.startsWith('新增') && String(r.extra).includes(created.body.data))
    expect(entry, JSON.stringify(log.body.data.datas.slice(0, 3))).toBeDefined()
    expect(JSON.parse(String(entry!.extra))).toMatchObject({ apiToken: { id: made.body.data.id, name: '网店同步' } })
  })

  it('is shown once and stored as its SHA-256 digest only', async () => {
    const made = await make({ name: '仓库扫码枪', expireTime: inHours(2), permissions: [CUSTOMER_QUERY] })
    const { id, token } = made.body.data
    const listed = (await rows()).find((r) => r.id === id)
    expect(listed).toMatchObject({ name: '仓库扫码枪', username: 'admin', permissions: [CUSTOMER_QUERY], lastUsedTime: null })
    expect(JSON.stringify(await rows())).not.toContain(token)
    const stored = await t.app.services.databases.platform.selectFrom('sys_api_token').selectAll().where('id', '=', id).execute()
    expect(stored).toHaveLength(1)
    expect(stored[0].digest).toBe(createHash('sha256').update(token).digest('hex'))
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(JSON.stringify(stored)).not.toContain(token.slice(4, 20))
    await t.call('GET', '/basedata/customer/query', bearer(token))
    expect((await rows()).find((r) => r.id === id)?.lastUsedTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  })

  it('stops at its expiry', async () => {
    const { token } = (await make({ name: '短期令牌', expireTime: inHours(1), permissions: [CUSTOMER_QUERY] })).body.data
    expect((await t.call('GET', '/basedata/customer/query', bearer(token))).status).toBe(200)
    setClock(dayjs().add(61, 'minute').toDate())
    const expired = await t.call('GET', '/basedata/customer/query', bearer(token))
    expect(expired.status).toBe(401)
    expect(expired.body).toMatchObject({ code: 401, msg: '接口令牌无效或已过期！' })
  })

  it('stops when revoked; an unknown token is refused', async () => {
    const { id, token } = (await make({ name: '待吊销', expireTime: inHours(3), permissions: [CUSTOMER_QUERY] })).body.data
    const revoked = await t.call('DELETE', '/system/api-token', { token: admin, body: { id } })
    expect(revoked.status, revoked.raw).toBe(200)
    const after = await t.call('GET', '/basedata/customer/query', bearer(token))
    expect(after.body).toMatchObject({ code: 401, msg: '接口令牌无效或已过期！' })
    expect((await rows()).some((r) => r.id === id)).toBe(false)
    const again = await t.call('DELETE', '/system/api-token', { token: admin, body: { id } })
    expect(again.body).toMatchObject({ code: 404, msg: '令牌不存在！' })
    const unknown = await t.call('GET', '/basedata/customer/query', bearer('xyt_nothing'))
    expect(unknown.status).toBe(401)
  })

  it('is rate limited per token, in the envelope with a Chinese message', async () => {
    const one = (await make({ name: '限流一', expireTime: inHours(3), permissions: [CUSTOMER_QUERY] })).body.data.token
    const two = (await make({ name: '限流二', expireTime: inHours(3), permissions: [CUSTOMER_QUERY] })).body.data.token
    for (let i = 0; i < RATE; i++) expect((await t.call('GET', '/basedata/customer/query', bearer(one))).status).toBe(200)
    const limited = await t.call('GET', '/basedata/customer/query', bearer(one))
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ code: 429, msg: '调用过于频繁，请稍后再试！' })
    // Another token of the same user has its own count; the minute after, the first works again.
    expect((await t.call('GET', '/basedata/customer/query', bearer(two))).status).toBe(200)
    setClock(dayjs().add(61, 'second').toDate())
    expect((await t.call('GET', '/basedata/customer/query', bearer(one))).status).toBe(200)
  })

  it('refuses bad input and keys its user does not hold, and writes nothing', async () => {
    const user = await t.call<string>('POST', '/system/user', { token: admin, body: { code: 'tk01', name: '集成用户', username: 'tkuser01', password: 'secret123', gender: 0, available: true } })
    expect(user.status, user.raw).toBe(200)
    const before = (await rows()).length
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', expireTime: inHours(1), permissions: [CUSTOMER_QUERY] }, '请输入令牌名称'],
      [{ name: 'x'.repeat(65), expireTime: inHours(1), permissions: [CUSTOMER_QUERY] }, '令牌名称不能超过64个字符'],
      [{ name: '坏期限', expireTime: 'tomorrow', permissions: [CUSTOMER_QUERY] }, '请选择令牌的有效期'],
      [{ name: '坏期限', expireTime: '2026-02-30 10:00:00', permissions: [CUSTOMER_QUERY] }, '请选择令牌的有效期'],
      [{ name: '过去', expireTime: dayjs().subtract(1, 'hour').format('YYYY-MM-DD HH:mm:ss'), permissions: [CUSTOMER_QUERY] }, '令牌的有效期须晚于当前时间'],
      [{ name: '无权限', expireTime: inHours(1), permissions: [] }, '请选择令牌的权限'],
      [{ name: '无权限', expireTime: inHours(1), permissions: [7] }, '请选择令牌的权限'],
      [{ name: '越权', expireTime: inHours(1), permissions: ['no:such:key'] }, '令牌的权限须为该用户自己的权限：no:such:key'],
      [{ name: '越权', expireTime: inHours(1), permissions: [CUSTOMER_QUERY], userId: user.body.data }, '令牌的权限须为该用户自己的权限：base-data:customer:query'],
    ]
    for (const [body, msg] of cases) {
      const res = await make(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toMatchObject({ code: 400, msg })
    }
    // A token cannot make tokens, whatever keys it carries.
    const holder = (await make({ name: '令牌管理', expireTime: inHours(1), permissions: ['system:api-token:add', 'system:api-token:query'] })).body.data.token
    const byToken = await t.call('POST', '/system/api-token', { ...bearer(holder), body: { name: '再造', expireTime: inHours(1), permissions: [CUSTOMER_QUERY] } })
    expect(byToken.body).toMatchObject({ code: 403, msg: '无权限' })
    expect((await rows()).length).toBe(before + 1)
  })

  it('offers its user\'s own keys grouped as the menu; an admin makes tokens for a service user, a clerk only for themselves', async () => {
    const clerk = await userWithMenus(t, admin, 'tkclerk', ['system:api-token:query', 'system:api-token:add', 'system:api-token:delete', CUSTOMER_QUERY])
    await userWithMenus(t, admin, 'tksvc', [CUSTOMER_QUERY, CUSTOMER_ADD])
    const users = await t.call<{ datas: { id: string; username: string }[] }>('GET', '/system/user/query', { token: admin, query: { pageSize: 100 } })
    const idOf = (username: string) => users.body.data.datas.find((u) => u.username === username)!.id
    const own = await t.call<ApiTokenKeys>('GET', '/system/api-token/keys', { token: clerk })
    expect(own.status, own.raw).toBe(200)
    expect(own.body.data.keys).toEqual(expect.arrayContaining([CUSTOMER_QUERY, 'system:api-token:add']))
    expect(own.body.data.keys).not.toContain(CUSTOMER_ADD)
    // Each key hangs under its menu and catalogs, by Chinese title, and nothing else is offered.
    const menus = new Map(own.body.data.menus.map((m) => [m.id, m]))
    const customer = own.body.data.menus.find((m) => m.permission === CUSTOMER_QUERY)!
    const path: string[] = []
    for (let m = customer; m; m = menus.get(m.parentId ?? '')!) path.unshift(m.title)
    expect(path).toEqual(['基础信息管理', '客户信息'])
    expect(own.body.data.menus.filter((m) => m.permission).map((m) => m.permission).sort()).toEqual([...own.body.data.keys].sort())
    // The admin chooses among the service user's keys and makes a token acting as that user.
    const theirs = await t.call<ApiTokenKeys>('GET', '/system/api-token/keys', { token: admin, query: { userId: idOf('tksvc') } })
    expect(theirs.body.data.keys.sort()).toEqual([CUSTOMER_ADD, CUSTOMER_QUERY].sort())
    const made = await make({ name: '服务令牌', expireTime: inHours(1), permissions: [CUSTOMER_ADD], userId: idOf('tksvc') })
    expect(made.status, made.raw).toBe(200)
    expect((await rows()).find((r) => r.id === made.body.data.id)).toMatchObject({ username: 'tksvc', permissions: [CUSTOMER_ADD] })
    // A clerk cannot see, make or revoke another user's tokens.
    const before = (await rows()).length
    for (const [method, url, extra] of [
      ['GET', '/system/api-token/keys', { query: { userId: idOf('tksvc') } }],
      ['GET', '/system/api-token/query', { query: { userId: idOf('tksvc') } }],
      ['POST', '/system/api-token', { body: { name: '越权', expireTime: inHours(1), permissions: [CUSTOMER_QUERY], userId: idOf('tksvc') } }],
    ] as const) {
      const refused = await t.call(method, url, { token: clerk, ...extra })
      expect(refused.body, url).toMatchObject({ code: 403, msg: '无权限' })
    }
    const notTheirs = await t.call('DELETE', '/system/api-token', { token: clerk, body: { id: made.body.data.id } })
    expect(notTheirs.body).toMatchObject({ code: 404, msg: '令牌不存在！' })
    expect((await rows()).length).toBe(before)
    // The clerk's own list holds only the clerk's tokens.
    await make({ name: '自己的', expireTime: inHours(1), permissions: [CUSTOMER_QUERY] }, clerk)
    const mine = await t.call<{ datas: ApiTokenRow[] }>('GET', '/system/api-token/query', { token: clerk })
    expect(mine.body.data.datas.map((r) => r.username)).toEqual(['tkclerk'])
  })

  it('never writes a token to the server log', async () => {
    const { token } = (await make({ name: '日志检查', expireTime: inHours(1), permissions: [CUSTOMER_QUERY] })).body.data
    await t.call('GET', '/basedata/customer/query', bearer(token))
    await t.call('GET', '/basedata/customer/query', { headers: { authorization: `Bearer ${token}x` } })
    await t.call('GET', '/no/such/route', bearer(token))
    expect(logged).toContain('/basedata/customer/query')
    expect(logged).not.toContain(token.slice(4))
    expect(logged.toLowerCase()).not.toContain('bearer')
  })
})
