import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { captureSentCodes } from '../support/sent-codes.js'

/** Forgotten password by mail or SMS code, telephone login and binding, registration by parameter. */
describe('account recovery and telephone login', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    await t.call('POST', '/system/user', {
      token: admin,
      body: { code: 'rec01', name: '找回', username: 'recover1', password: 'secret123', gender: 0, available: true, email: 'rec@example.com', telephone: '13800138000' },
    })
  })
  afterAll(async () => t?.close())

  let codes: ReturnType<typeof captureSentCodes>
  beforeAll(() => {
    codes = captureSentCodes(t)
  })

  it('answers the same placeholders for a known and an unknown name (no account enumeration)', async () => {
    const r = await t.call<{ email: string; telephone: string }>('GET', '/auth/forget/username', { query: { username: 'recover1' } })
    expect(r.body.data).toEqual({ email: '账号绑定的邮箱', telephone: '账号绑定的手机号' })
    const none = await t.call('GET', '/auth/forget/username', { query: { username: 'nobody99' } })
    expect(none.status).toBe(200)
    expect(none.body).toEqual(r.body)
  })

  it('resets the password with the mailed code, once, and refuses a wrong code', async () => {
    expect((await t.call('GET', '/auth/forget/mail/code', { query: { username: 'recover1' } })).body.code).toBe(200)
    const code = codes.last('rec@example.com')
    const wrong = await t.call('POST', '/auth/forget/mail', { body: { username: 'recover1', code: '000000' === code ? '111111' : '000000', password: 'newsecret1' } })
    expect(wrong.body.msg).toBe('验证码错误')
    const ok = await t.call('POST', '/auth/forget/mail', { body: { username: 'recover1', code, password: 'newsecret1' } })
    expect(ok.body.code).toBe(200)
    expect(await t.login('recover1', 'newsecret1')).toBeTypeOf('string')
    const again = await t.call('POST', '/auth/forget/mail', { body: { username: 'recover1', code, password: 'other1234' } })
    expect(again.body.msg).toBe('验证码已过期，请重新获取')
  })

  it('logs in by telephone with an SMS code', async () => {
    // An unbound number answers as a bound one, and nothing is sent to it.
    const unknown = await t.call('GET', '/auth/login/telephone/captcha', { query: { telephone: '13900000000' } })
    expect(unknown.status).toBe(200)
    expect(unknown.body.code).toBe(200)
    expect((await t.call('GET', '/auth/login/telephone/captcha', { query: { telephone: '13800138000' } })).body.code).toBe(200)
    expect(codes.count('13900000000')).toBe(0)
    const code = codes.last('13800138000')
    const r = await t.call<{ token: string; user: { username: string } }>('POST', '/auth/login/telephone', { body: { telephone: '13800138000', captcha: code } })
    expect(r.body.data.user.username).toBe('recover1')
    expect((await t.call('GET', '/auth/info', { token: r.body.data.token })).status).toBe(200)
  })

  it('binds a telephone to the signed-in user after the code', async () => {
    expect((await t.call('POST', '/auth/bind/telephone', { token: admin, body: { telephone: '13700137000' } })).body.code).toBe(200)
    const code = codes.last('13700137000')
    expect((await t.call('POST', '/auth/bind/telephone', { token: admin, body: { telephone: '13700137000', captcha: code } })).body.code).toBe(200)
    const me = await t.call<{ telephone: string }>('GET', '/center/info', { token: admin })
    expect(me.body.data.telephone).toBe('13700137000')
  })

  it('registers only when the parameter allows it', async () => {
    const closed = await t.call('POST', '/auth/regist', { body: { username: 'newbie01', password: 'secret123' } })
    expect(closed.status).toBe(403)
    expect(closed.body.msg).toBe('系统未开放注册！')
    const params = await t.call<{ datas: { id: string; pKey: string }[] }>('GET', '/system/parameter/query', { token: admin, query: { pageSize: 100 } })
    const flag = params.body.data.datas.find((p) => p.pKey === 'auth.regist.enabled')!
    await t.call('PUT', '/system/parameter', { token: admin, body: { id: flag.id, pKey: 'auth.regist.enabled', pValue: 'true' } })
    const open = await t.call('POST', '/auth/regist', { body: { username: 'newbie01', password: 'secret123', name: '新人' } })
    expect(open.body.code).toBe(200)
    expect(await t.login('newbie01', 'secret123')).toBeTypeOf('string')
  })
})
