import { expect } from 'vitest'
import type { TestApp } from './test-app.js'

/** Every CRM report and claim key: what a salesperson's role holds in these tests. */
export const CRM_REPORT_KEYS = [
  'crm:weekly-report:query',
  'crm:weekly-report:add',
  'crm:weekly-report:delete',
  'crm:monthly-report:query',
  'crm:monthly-report:add',
  'crm:monthly-report:delete',
  'crm:reimburse:query',
  'crm:reimburse:add',
  'crm:reimburse:modify',
  'crm:reimburse:approve',
  'base-data:customer:add',
]

export interface CrmTeam {
  admin: string
  /** 总经办 (leader boss) > 销售部 (leader manager) > 销售一组 (no leader, members sales1, sales2); 市场部 (no leader, member loner). */
  tokens: { boss: string; manager: string; sales1: string; sales2: string; loner: string; weeklyOnly: string }
  ids: { boss: string; manager: string; sales1: string; sales2: string; loner: string; weeklyOnly: string }
  depts: { office: string; sales: string; group: string; market: string }
}

let teams = 0

/** A department tree with leaders and users holding the given menu keys, through the real API. */
export async function createCrmTeam(t: TestApp): Promise<CrmTeam> {
  const n = ++teams
  const admin = await t.login()
  const post = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token: admin, body })
    expect(r.status, r.raw).toBe(200)
    return r.body.data
  }
  const role = async (keys: string[]) => {
    const roleId = await post('/system/role', { code: `CRMR${n}${keys.length}`, name: `CRM角色${n}-${keys.length}`, available: true })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const ids = menus.body.data.filter((m) => keys.includes(m.permission ?? '')).map((m) => m.id)
    expect(ids.length).toBe(keys.length)
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: ids } })
    return roleId
  }
  const full = await role(CRM_REPORT_KEYS)
  const weekly = await role(['crm:weekly-report:query', 'crm:weekly-report:add'])
  const user = async (name: string, label: string, deptIds: string[], roleId: string) => {
    const id = await post('/system/user', { code: `c${n}${name}`.slice(0, 20), name: label, username: `crm${n}${name}`, password: 'secret123', gender: 0, available: true, deptIds })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [id], roleIds: [roleId] } })
    return id
  }
  const dept = (code: string, name: string, extra: Record<string, unknown> = {}) => post('/system/dept', { code: `D${n}${code}`, name, shortName: name, available: true, ...extra })
  const office = await dept('GM', '总经办')
  const sales = await dept('SA', '销售部', { parentId: office })
  const group = await dept('G1', '销售一组', { parentId: sales })
  const market = await dept('MK', '市场部')
  const ids = {
    boss: await user('boss', '王总', [office], full),
    manager: await user('mgr', '李经理', [sales], full),
    sales1: await user('s1', '张三', [group], full),
    sales2: await user('s2', '赵四', [group], full),
    loner: await user('solo', '孙七', [market], full),
    weeklyOnly: await user('wk', '周八', [group], weekly),
  }
  const setLeader = async (id: string, leaderId: string) => {
    const current = await t.call<Record<string, unknown>>('GET', '/system/dept', { token: admin, query: { id } })
    const r = await t.call('PUT', '/system/dept', { token: admin, body: { ...current.body.data, leaderId } })
    expect(r.status, r.raw).toBe(200)
  }
  await setLeader(office, ids.boss)
  await setLeader(sales, ids.manager)
  const tokens = {
    boss: await t.login(`crm${n}boss`, 'secret123'),
    manager: await t.login(`crm${n}mgr`, 'secret123'),
    sales1: await t.login(`crm${n}s1`, 'secret123'),
    sales2: await t.login(`crm${n}s2`, 'secret123'),
    loner: await t.login(`crm${n}solo`, 'secret123'),
    weeklyOnly: await t.login(`crm${n}wk`, 'secret123'),
  }
  return { admin, tokens, ids, depts: { office, sales, group, market } }
}
