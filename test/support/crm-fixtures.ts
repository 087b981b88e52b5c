import { expect } from 'vitest'
import type { ApiClient } from './http-client.js'

/** Every key of the CRM customer, sea and follow-up screens a salesperson uses (no department/all). */
export const SALES_KEYS = [
  'crm:customer:query',
  'crm:customer:add',
  'crm:customer:modify',
  'crm:customer:transfer',
  'crm:customer:release',
  'crm:customer:lock',
  'crm:public-sea:query',
  'crm:public-sea:claim',
  'crm:action:query',
  'crm:action:add',
  'crm:action:delete',
  'crm:action:export',
] as const

let n = 0

export async function created(t: ApiClient, token: string, url: string, body: unknown): Promise<string> {
  const r = await t.call<string>('POST', url, { token, body })
  expect(r.body.code, `${url}: ${r.raw}`).toBe(200)
  return r.body.data
}

export async function createDept(t: ApiClient, admin: string, name: string, parentId?: string): Promise<string> {
  n++
  return created(t, admin, '/system/dept', { code: `D${n}${Date.now() % 10000}`, name, shortName: name, parentId: parentId ?? null, available: true })
}

/** A user in `deptIds` with a new role granting `keys`; answers the id and a token. */
export async function salesperson(t: ApiClient, admin: string, username: string, deptIds: string[], keys: readonly string[] = SALES_KEYS) {
  n++
  const userId = await created(t, admin, '/system/user', { code: `S${n}${username}`.slice(0, 20), name: `销售${username}`, username, password: 'secret123', gender: 0, available: true, deptIds })
  const roleId = await created(t, admin, '/system/role', { code: `CRM${n}${Date.now() % 100000}`, name: `CRM角色${n}`, available: true })
  await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
  const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
  const ids = menus.body.data.filter((m) => keys.includes(m.permission ?? '')).map((m) => m.id)
  expect(ids.length, `menus of ${keys.join(', ')}`).toBe(new Set(keys).size)
  const set = await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: ids } })
  expect(set.status, set.raw).toBe(200)
  return { id: userId, username, token: await t.login(username, 'secret123') }
}

/** A CRM customer created (and so owned) by `token`'s user. */
export async function crmCustomer(t: ApiClient, token: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  n++
  return created(t, token, '/crm/customer', { code: `C${n}${Date.now() % 100000}`, name, settleType: 1, available: true, ...extra })
}
