import { expect } from 'vitest'
import type { TestApp } from './test-app.js'

let roles = 0

/**
 * A user holding one new role granted the seeded menus whose permission keys are listed (and any extra
 * menu ids): how an administrator gives a clerk exactly some screens. Answers the user's token.
 */
export async function userWithMenus(
  t: TestApp,
  admin: string,
  username: string,
  permissions: readonly string[],
  extraMenuIds: readonly string[] = [],
): Promise<string> {
  const created = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token: admin, body })
    expect(r.status, r.raw).toBe(200)
    return r.body.data
  }
  const n = ++roles
  const userId = await created('/system/user', { code: `acc${n}${username}`.slice(0, 20), name: `用户${username}`.slice(0, 20), username, password: 'secret123', gender: 0, available: true })
  if (permissions.length || extraMenuIds.length) {
    const roleId = await created('/system/role', { code: `ACC${n}${Date.now() % 100000}`, name: `角色${n}`, available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const ids = menus.body.data.filter((m) => permissions.includes(m.permission ?? '')).map((m) => m.id)
    expect(ids.length, `menus of ${permissions.join(', ')}`).toBe(new Set(permissions).size)
    const set = await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: [...ids, ...extraMenuIds] } })
    expect(set.status, set.raw).toBe(200)
  }
  return t.login(username, 'secret123')
}
