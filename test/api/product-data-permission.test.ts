import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** Saved data permissions narrow the generic product list for the role that has them. */
describe('data permission on the product list', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let roleId: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    const created = async (url: string, body: Record<string, unknown>) => {
      const r = await t.call<string>('POST', url, { token: admin, body })
      if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
      return r.body.data
    }
    const categoryId = await created('/basedata/product/category', { code: 'C01', name: '饮料', available: true })
    const brandId = await created('/basedata/product/brand', { code: 'B01', name: '品牌一', available: true })
    for (const code of ['A-100', 'A-200', 'B-100'])
      await created('/basedata/product', { code, name: `商品${code}`, skuCode: `SKU${code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17 })
    const userId = await created('/system/user', { code: 'dp01', name: '限权用户', username: 'dp01user', password: 'secret123', gender: 0, available: true })
    roleId = await created('/system/role', { code: 'DP', name: '限A商品', available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    const query = menus.body.data.find((m) => m.permission === 'base-data:product:info:query' || m.permission === 'base-data:product:query')!
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: [query.id] } })
    clerk = await t.login('dp01user', 'secret123')
  })
  afterAll(async () => t?.close())

  const codes = async (token: string) =>
    (await t.call<{ datas: { code: string }[] }>('GET', '/basedata/product/query', { token, query: { sortField: 'code' } })).body.data.datas.map((d) => d.code)

  it('shows everything before a permission is saved, only matching rows after', async () => {
    expect(await codes(clerk)).toEqual(['A-100', 'A-200', 'B-100'])
    // detail 1 = product code; condition 9 = starts-with
    const tree = [{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 1, conditionType: 9, value: 'A-' }] }]
    const saved = await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [roleId], bizType: 0, permissionType: 1, permission: JSON.stringify(tree) },
    })
    expect(saved.body.code).toBe(200)
    expect(await codes(clerk)).toEqual(['A-100', 'A-200'])
    expect(await codes(admin)).toEqual(['A-100', 'A-200', 'B-100'])
  })

  it('keeps a quote in the condition value a value, not SQL', async () => {
    const tree = [{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 1, conditionType: 0, value: "x' or '1'='1" }] }]
    await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [roleId], bizType: 0, permissionType: 1, permission: JSON.stringify(tree) },
    })
    expect(await codes(clerk)).toEqual([])
  })
})
