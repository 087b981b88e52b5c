import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

interface MenuNode {
  id: string
  name: string
  path: string | null
  display: number
  permission: string | null
  children: MenuNode[]
}

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)])

describe('RBAC: permission keys, roles, menus', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let roleId: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    const user = await t.call<string>('POST', '/system/user', {
      token: admin,
      body: { code: 'clerk01', name: '录入员', username: 'clerk01', password: 'secret123', gender: 1, available: true },
    })
    const role = await t.call<string>('POST', '/system/role', { token: admin, body: { code: 'R01', name: '仓库录入', available: true } })
    roleId = role.body.data
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [user.body.data], roleIds: [roleId] } })
    clerk = await t.login('clerk01', 'secret123')
  })
  afterAll(async () => t?.close())

  it('gives the admin the whole Chinese menu tree of every area', async () => {
    const r = await t.call<MenuNode[]>('GET', '/auth/menus', { token: admin })
    const areas = ['系统管理', '平台管理', '基础信息管理', '商品中心', '采购管理', '销售管理', '零售管理', '库存管理', '库存盘点', '库存调整', '结算管理', '物流管理', '客户关系管理', '开发管理', '便捷办公']
    expect(r.body.data.map((m) => m.name).sort()).toEqual([...areas].sort())
    // Every area opens onto screens: at least one function menu with a path somewhere below it.
    for (const area of r.body.data) expect(flatten([area]).filter((m) => m.path && m !== area).length, area.name).toBeGreaterThan(0)
    const all = flatten(r.body.data)
    expect(all.find((m) => m.path === '/base-data/supplier')?.name).toBe('供应商信息')
    expect(all.every((m) => m.display !== 2)).toBe(true)
  })

  it('refuses a call without its permission key with 403 无权限 and shows no menus', async () => {
    const r = await t.call('GET', '/basedata/supplier/query', { token: clerk })
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: 403, msg: '无权限' })
    expect((await t.call<MenuNode[]>('GET', '/auth/menus', { token: clerk })).body.data).toEqual([])
  })

  it('grants exactly the menus set on the role: query yes, add no', async () => {
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const query = menus.body.data.find((m) => m.permission === 'base-data:supplier:query')!
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: [query.id] } })
    const list = await t.call('GET', '/basedata/supplier/query', { token: clerk })
    expect(list.status).toBe(200)
    const add = await t.call('POST', '/basedata/supplier', { token: clerk, body: { code: 'S1', name: '甲' } })
    expect(add.status).toBe(403)
    const tree = flatten((await t.call<MenuNode[]>('GET', '/auth/menus', { token: clerk })).body.data)
    expect(tree.map((m) => m.name)).toEqual(['基础信息管理', '供应商信息'])
  })

  it('does not let the admin role be disabled', async () => {
    const roles = await t.call<{ datas: { id: string; permission: string }[] }>('GET', '/system/role/query', { token: admin })
    const adminRole = roles.body.data.datas.find((r) => r.permission === 'admin')!
    const r = await t.call('PATCH', '/system/role/unable/batch', { token: admin, body: [adminRole.id] })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('角色【系统管理员】的权限为【admin】，不允许停用！')
  })

  it('a disabled role grants nothing', async () => {
    await t.call('PATCH', '/system/role/unable/batch', { token: admin, body: [roleId] })
    expect((await t.call('GET', '/basedata/supplier/query', { token: clerk })).status).toBe(403)
    await t.call('PATCH', '/system/role/enable/batch', { token: admin, body: [roleId] })
    expect((await t.call('GET', '/basedata/supplier/query', { token: clerk })).status).toBe(200)
  })

  it('collects a menu and marks it in the tree', async () => {
    const tree = flatten((await t.call<MenuNode[]>('GET', '/auth/menus', { token: admin })).body.data)
    const supplier = tree.find((m) => m.path === '/base-data/supplier')!
    await t.call('POST', '/menu/collect', { token: admin, body: { menuId: supplier.id } })
    const after = flatten((await t.call<(MenuNode & { isCollect: boolean })[]>('GET', '/auth/menus', { token: admin })).body.data)
    expect((after.find((m) => m.id === supplier.id) as MenuNode & { isCollect: boolean }).isCollect).toBe(true)
    await t.call('POST', '/menu/collect/cancel', { token: admin, body: { menuId: supplier.id } })
  })
})
