import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe('auth: login, lockout, unlock, sessions', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
  })
  afterAll(async () => t?.close())

  const createUser = async (username: string, password = 'secret123') => {
    const r = await t.call<string>('POST', '/system/user', {
      token: admin,
      body: { code: username, name: `用户${username}`, username, password, gender: 0, available: true },
    })
    expect(r.body.msg).toBe('操作成功！')
    return r.body.data
  }

  it('answers the envelope with the token and the user, and the info call with roles and permissions', async () => {
    const info = await t.call<{ user: { username: string }; roles: string[]; permissions: string[] }>('GET', '/auth/info', { token: admin })
    expect(info.status).toBe(200)
    expect(info.body).toMatchObject({ code: 200, data: { user: { username: 'admin' }, roles: ['001'] } })
    expect(info.body.data.permissions).toContain('admin')
  })

  it('refuses a call without a token with 401 and a Chinese message', async () => {
    const r = await t.call('GET', '/auth/info')
    expect(r.status).toBe(401)
    expect(r.body.code).toBe(401)
    expect(r.body.msg).toMatch(/登录/)
  })

  it('counts failures, locks the user on the 5th failure of the day, and unlock lets them in again', async () => {
    await createUser('lockme1')
    for (let n = 1; n <= 4; n++) {
      const r = await t.call('POST', '/auth/login', { body: { username: 'lockme1', password: 'wrong' } })
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe(`您已经登录失败${n}次，您还可以尝试${5 - n}次！`)
    }
    const fifth = await t.call('POST', '/auth/login', { body: { username: 'lockme1', password: 'wrong' } })
    expect(fifth.body.msg).toBe('用户已锁定，无法登录！')
    const right = await t.call('POST', '/auth/login', { body: { username: 'lockme1', password: 'secret123' } })
    expect(right.body.msg).toBe('用户已锁定，无法登录！')

    const list = await t.call<{ datas: { id: string; lockStatus: boolean }[] }>('GET', '/system/user/query', { token: admin, query: { username: 'lockme1' } })
    const user = list.body.data.datas[0]
    expect(user.lockStatus).toBe(true)
    const unlock = await t.call('PATCH', '/system/user/unlock', { token: admin, body: { id: user.id } })
    expect(unlock.body.code).toBe(200)
    expect(await t.login('lockme1', 'secret123')).toBeTypeOf('string')
  })

  it('logs out: the token stops working', async () => {
    await createUser('logout1')
    const token = await t.login('logout1', 'secret123')
    expect((await t.call('POST', '/auth/logout', { token })).body.code).toBe(200)
    expect((await t.call('GET', '/auth/info', { token })).status).toBe(401)
  })

  it('checks the captcha when it is on: one use only', async () => {
    const t2 = await startTestApp({ env: { LOGIN_CAPTCHA: 'on' } })
    try {
      const missing = await t2.call('POST', '/auth/login', { body: { username: 'admin', password: 'admin123456' } })
      expect(missing.body.msg).toBe('请输入验证码')
      const captcha = await t2.call<{ sn: string; image: string }>('GET', '/auth/captcha')
      expect(captcha.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/)
      const wrong = await t2.call('POST', '/auth/login', { body: { username: 'admin', password: 'admin123456', sn: captcha.body.data.sn, captcha: 'zzzz' } })
      expect(wrong.body.msg).toBe('验证码错误')
      const again = await t2.call('POST', '/auth/login', { body: { username: 'admin', password: 'admin123456', sn: captcha.body.data.sn, captcha: 'zzzz' } })
      expect(again.body.msg).toBe('验证码已过期，请重新获取')
    } finally {
      await t2.close()
    }
  })

  it('writes login and logout to the operation log (AUTH 1)', async () => {
    const userId = await createUser('oplog1')
    const token = await t.login('oplog1', 'secret123')
    expect((await t.call('POST', '/auth/logout', { token })).body.code).toBe(200)
    // Read back as the administrator: the user's own rows (both may fall in the same second, so unordered).
    type Row = { name: string; logType: number; createBy: string; createById: string }
    const r = await t.call<{ datas: Row[] }>('GET', '/system/oplog/query', { token: admin, query: { createBy: '用户oplog1', pageSize: 50 } })
    expect(r.body.code).toBe(200)
    const own = r.body.data.datas.filter((l) => l.createById === userId)
    expect(own.map((l) => `${l.name}/${l.logType}`).sort()).toEqual(['用户登录/1', '退出登录/1'].sort())
  })

  it('changes the own password through the personal centre', async () => {
    await createUser('center1')
    const token = await t.login('center1', 'secret123')
    const wrong = await t.call('PATCH', '/center/password', { token, body: { oldPsw: 'nope', newPsw: 'newpass1', confirmPsw: 'newpass1' } })
    expect(wrong.body.msg).toBe('旧密码不正确')
    const ok = await t.call('PATCH', '/center/password', { token, body: { oldPsw: 'secret123', newPsw: 'newpass1', confirmPsw: 'newpass1' } })
    expect(ok.body.code).toBe(200)
    expect(await t.login('center1', 'newpass1')).toBeTypeOf('string')
  })
})
