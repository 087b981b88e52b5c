import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'

/** 新增用户 with its 角色: saved with the user under the rules of 用户授权 (`/system/user/role/setting`). */
describe('a new user takes its roles from the user form', () => {
  let t: TestApp
  let admin: string
  /** Grants 供应商信息 查询 only. */
  let viewerRole: string
  /** Grants 供应商信息 新增 as well. */
  let editorRole: string
  let seq = 0

  const newUser = (token: string, roleIds?: string[]) => {
    const n = ++seq
    const body: Record<string, unknown> = { code: `nu${n}`, name: `新用户${n}`, username: `newuser${n}`, password: 'secret123', gender: 1, available: true }
    if (roleIds) body.roleIds = roleIds
    return t.call<string>('POST', '/system/user', { token, body }).then((r) => ({ ...r, username: `newuser${n}` }))
  }
  const usersNamed = async (username: string) =>
    (await t.call<{ totalCount: number }>('GET', '/system/user/query', { token: admin, query: { username, pageIndex: 1, pageSize: 10 } })).body.data.totalCount
  const rolesOf = async (userId: string) =>
    (await t.call<{ id: string; selected: boolean }[]>('GET', '/system/user/role/roles', { token: admin, query: { userId } })).body.data.filter((r) => r.selected).map((r) => r.id)
  const role = async (code: string, keys: string[]) => {
    const r = await t.call<string>('POST', '/system/role', { token: admin, body: { code, name: `角色${code}`, available: true } })
    expect(r.status, r.raw).toBe(200)
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId: r.body.data } })
    const menuIds = menus.body.data.filter((m) => keys.includes(m.permission ?? '')).map((m) => m.id)
    expect(menuIds.length).toBe(keys.length)
    expect((await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [r.body.data], menuIds } })).status).toBe(200)
    return r.body.data
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    viewerRole = await role('RV1', ['base-data:supplier:query'])
    editorRole = await role('RE1', ['base-data:supplier:query', 'base-data:supplier:add'])
  })
  afterAll(async () => t?.close())

  it('saves the chosen roles with the user, who then signs in with their rights', async () => {
    const r = await newUser(admin, [viewerRole])
    expect(r.status, r.raw).toBe(200)
    expect(await rolesOf(r.body.data)).toEqual([viewerRole])
    const token = await t.login(r.username, 'secret123')
    expect((await t.call('GET', '/basedata/supplier/query', { token })).status).toBe(200)
    expect((await t.call('POST', '/basedata/supplier', { token, body: { code: 'S9', name: '甲' } })).status).toBe(403)
  })

  it('a user made without roles holds none', async () => {
    const r = await newUser(admin, [])
    expect(r.status, r.raw).toBe(200)
    expect(await rolesOf(r.body.data)).toEqual([])
  })

  it('refuses roles from a user manager without the 用户授权 key, and creates nobody', async () => {
    const manager = await userWithMenus(t, admin, 'umgr1', ['system:user:query', 'system:user:add', 'base-data:supplier:query'])
    const refused = await newUser(manager, [viewerRole])
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 403, msg: '无权限' })
    expect(await usersNamed(refused.username)).toBe(0)
    // Without roles the same manager still adds users.
    const plain = await newUser(manager)
    expect(plain.status, plain.raw).toBe(200)
    expect(await rolesOf(plain.body.data)).toEqual([])
  })

  it('refuses a role granting a key the caller does not hold, and creates nobody', async () => {
    const manager = await userWithMenus(t, admin, 'umgr2', ['system:user:query', 'system:user:add', 'system:user:permission', 'base-data:supplier:query'])
    const refused = await newUser(manager, [editorRole])
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 403, msg: '不允许授予自己没有的权限！' })
    expect(await usersNamed(refused.username)).toBe(0)
    const granted = await newUser(manager, [viewerRole])
    expect(granted.status, granted.raw).toBe(200)
    expect(await rolesOf(granted.body.data)).toEqual([viewerRole])
  })

  it('refuses a role that does not exist, and creates nobody', async () => {
    const r = await newUser(admin, [viewerRole, 'no-such-role'])
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ code: 400, msg: '角色不存在' })
    expect(await usersNamed(r.username)).toBe(0)
  })

  it('a role held by users can still be deleted, and leaves them without it', async () => {
    const doomed = await role('RD1', ['base-data:supplier:query'])
    const r = await newUser(admin, [doomed, viewerRole])
    expect(r.status, r.raw).toBe(200)
    const removed = await t.call('DELETE', '/system/role', { token: admin, query: { id: doomed } })
    expect(removed.status, removed.raw).toBe(200)
    expect(await rolesOf(r.body.data)).toEqual([viewerRole])
  })
})
