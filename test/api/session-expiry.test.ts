import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

const IDLE_MINUTES = 30
const MAX_HOURS = 8
const FORMAT = 'YYYY-MM-DD HH:mm:ss'

/**
 * Sessions end after SESSION_IDLE_MINUTES without a call and SESSION_MAX_HOURS after sign-in whatever the
 * activity. Time is moved by ageing the session row in the platform database (what the server reads on
 * every call), so the test fails if the server stops enforcing either limit.
 */
describe('session idle and absolute expiry', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ env: { SESSION_IDLE_MINUTES: String(IDLE_MINUTES), SESSION_MAX_HOURS: String(MAX_HOURS) } })
  })
  afterAll(async () => t?.close())

  const sessions = () => t.app.services.databases.platform
  const row = (token: string) =>
    sessions().selectFrom('sys_session').select(['last_active_time', 'expire_time']).where('token', '=', token).executeTakeFirst()
  const age = (token: string, set: { last_active_time?: string; expire_time?: string }) =>
    sessions().updateTable('sys_session').set(set).where('token', '=', token).execute()
  const info = (token: string) => t.call('GET', '/auth/info', { token })
  const when = (value: unknown) => dayjs(value instanceof Date ? value : String(value))
  const ago = (amount: number, unit: 'minute' | 'hour') => dayjs().subtract(amount, unit).format(FORMAT)

  it('starts a session that ends SESSION_MAX_HOURS after sign-in', async () => {
    const token = await t.login()
    const stored = await row(token)
    expect(stored).toBeDefined()
    const expires = when(stored!.expire_time)
    expect(Math.abs(expires.diff(dayjs().add(MAX_HOURS, 'hour'), 'second'))).toBeLessThan(120)
    expect((await info(token)).status).toBe(200)
  })

  it('keeps a session alive within the idle limit and records the activity', async () => {
    const token = await t.login()
    await age(token, { last_active_time: ago(IDLE_MINUTES - 2, 'minute') })
    const r = await info(token)
    expect(r.status).toBe(200)
    const after = await row(token)
    const lastActive = when(after!.last_active_time)
    // The call moved the last activity to now, so the idle clock starts again.
    expect(Math.abs(lastActive.diff(dayjs(), 'second'))).toBeLessThan(120)
  })

  it('ends a session idle for longer than SESSION_IDLE_MINUTES: 401, and the token never works again', async () => {
    const token = await t.login()
    await age(token, { last_active_time: ago(IDLE_MINUTES + 1, 'minute') })
    const r = await info(token)
    expect(r.status).toBe(401)
    expect(r.body).toMatchObject({ code: 401 })
    expect(r.body.msg).toMatch(/登录/)
    expect(await row(token)).toBeUndefined()
    // Fresh activity cannot revive it.
    expect((await info(token)).status).toBe(401)
  })

  it('ends a session aged by hand right after a call served it (PostgreSQL: the cached read is dropped)', async () => {
    const token = await t.login()
    expect((await info(token)).status).toBe(200)
    await age(token, { last_active_time: ago(IDLE_MINUTES + 1, 'minute') })
    const deadline = Date.now() + 5_000
    let status = (await info(token)).status
    while (status !== 401 && Date.now() < deadline) status = (await info(token)).status
    expect(status).toBe(401)
  })

  it('ends an active session SESSION_MAX_HOURS after sign-in', async () => {
    const token = await t.login()
    // Busy all along (last call a minute ago), but signed in more than MAX_HOURS ago.
    await age(token, { last_active_time: ago(1, 'minute'), expire_time: ago(1, 'minute') })
    const r = await info(token)
    expect(r.status).toBe(401)
    expect(await row(token)).toBeUndefined()
  })

  it('ends only the expired session: another sign-in of the same user keeps working', async () => {
    const stale = await t.login()
    const fresh = await t.login()
    await age(stale, { last_active_time: ago(IDLE_MINUTES + 5, 'minute') })
    expect((await info(stale)).status).toBe(401)
    expect((await info(fresh)).status).toBe(200)
  })

  it('a protected write with an expired session changes nothing', async () => {
    const token = await t.login()
    await age(token, { last_active_time: ago(2, 'hour') })
    const r = await t.call('POST', '/basedata/supplier', { token, body: { code: 'EXP-1', name: '过期会话', settleType: 1, manageType: 1 } })
    expect(r.status).toBe(401)
    const admin = await t.login()
    const list = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token: admin, query: { code: 'EXP-1' } })
    expect(list.body.data.totalCount).toBe(0)
  })
})
