import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe('tenants are isolated by construction', () => {
  let t: TestApp
  let operator: string
  let other: string
  let supplierInOperator: string
  beforeAll(async () => {
    t = await startTestApp()
    operator = await t.login('1000@admin')
    const created = await t.call<string>('POST', '/system/tenant', { token: operator, body: { id: '2000', name: '第二租户', available: true } })
    expect(created.body.code).toBe(200)
    other = await t.login('2000@admin')
    const s = await t.call<string>('POST', '/basedata/supplier', {
      token: operator,
      body: { code: 'A-1', name: '甲方供应商', settleType: 1, manageType: 1 },
    })
    supplierInOperator = s.body.data
  })
  afterAll(async () => t?.close())

  it('needs tenantId@username once several tenants exist', async () => {
    const r = await t.call('POST', '/auth/login', { body: { username: 'admin', password: 'admin123456' } })
    expect(r.body.msg).toBe('请按“租户ID@用户名”的格式输入用户名')
  })

  it('a user of tenant B can neither read nor change tenant A', async () => {
    const list = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token: other })
    expect(list.body.data.totalCount).toBe(0)
    const get = await t.call('GET', '/basedata/supplier', { token: other, query: { id: supplierInOperator } })
    expect(get.status).toBe(404)
    const put = await t.call('PUT', '/basedata/supplier', { token: other, body: { id: supplierInOperator, code: 'A-1', name: '改名', settleType: 1, manageType: 1 } })
    expect(put.status).toBe(404)
    const del = await t.call('DELETE', '/basedata/supplier', { token: other, body: { id: supplierInOperator } })
    expect(del.status).toBe(404)
    // Enable/disable check their ids like delete does (issue 11: all-or-nothing, an unknown id is not found).
    const off = await t.call('PATCH', '/basedata/supplier/unable/batch', { token: other, body: [supplierInOperator] })
    expect(off.status).toBe(404)
    const still = await t.call<{ name: string; available: boolean }>('GET', '/basedata/supplier', { token: operator, query: { id: supplierInOperator } })
    expect(still.body.data).toMatchObject({ name: '甲方供应商', available: true })
  })

  it('only the operator tenant manages tenants, even with the admin role', async () => {
    const r = await t.call('GET', '/system/tenant/query', { token: other })
    expect(r.status).toBe(403)
  })

  it('a disabled tenant cannot log in', async () => {
    await t.call('PATCH', '/system/tenant/unable/batch', { token: operator, body: ['2000'] })
    const r = await t.call('POST', '/auth/login', { body: { username: '2000@admin', password: 'admin123456' } })
    expect(r.body.msg).toBe('租户已停用，无法登录！')
    await t.call('PATCH', '/system/tenant/enable/batch', { token: operator, body: ['2000'] })
  })

  it('hides the menus of modules the tenant is not authorised for', async () => {
    const set = await t.call('POST', '/system/module/setting', { token: operator, body: { tenantId: '2000', moduleIds: ['2'] } })
    expect(set.body.code).toBe(200)
    const menus = await t.call<{ name: string }[]>('GET', '/auth/menus', { token: other })
    expect(menus.body.data.map((m) => m.name)).toEqual(['系统管理'])
  })
})

describe('tenant ids', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  it('refuses an id that is taken or not a plain word, and creates nothing', async () => {
    const taken = await t.call('POST', '/system/tenant', { token, body: { id: '1000', name: '重复' } })
    expect(taken.body.msg).toBe('租户ID已存在')
    const odd = await t.call('POST', '/system/tenant', { token, body: { id: 'a b;drop', name: '怪' } })
    expect(odd.body.msg).toBe('ID只能由字母、数字、下划线组成，长度不能超过32位')
    const list = await t.call<{ totalCount: number }>('GET', '/system/tenant/query', { token })
    expect(list.body.data.totalCount).toBe(1)
  })
})
