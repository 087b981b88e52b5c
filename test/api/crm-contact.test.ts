import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { crmCalls } from '../support/crm-deals-fixtures.js'

/** 联系人 (/crm/contact/*, the spec's spellings): create, query, detail, a customer's page, upateContact. */
describe('CRM contacts', () => {
  let t: TestApp
  let admin: string
  let customerId: string
  let otherCustomer: string
  const { ok, call, refused, customer, userId } = crmCalls(() => t, () => admin)

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    customerId = await customer()
    otherCustomer = await customer('其他客户')
  })
  afterAll(async () => t?.close())

  it('createContact, getContactDetail, query, queryPageResult and upateContact', async () => {
    const id = await ok<string>('POST', '/crm/contact/createContact', {
      name: '张伟', customerId, gender: 1, mobile: '13800138000', email: 'zw@example.com', position: '采购经理', decisionMaker: true, birthday: '1985-04-12',
    })
    await ok<string>('POST', '/crm/contact/createContact', { name: '李娜', customerId: otherCustomer })
    const detail = await ok<Record<string, unknown>>('GET', '/crm/contact/getContactDetail', undefined, { id })
    expect(detail).toMatchObject({ name: '张伟', customerId, mobile: '13800138000', decisionMaker: true, birthday: '1985-04-12', ownerId: await userId(admin) })
    expect(String(detail.customerName)).toMatch(/^华东贸易有限公司/)
    const all = await ok<{ totalCount: number }>('GET', '/crm/contact/query')
    expect(all.totalCount).toBe(2)
    const byName = await ok<{ datas: { id: string }[] }>('GET', '/crm/contact/query', undefined, { name: '张' })
    expect(byName.datas.map((d) => d.id)).toEqual([id])
    const ofCustomer = await ok<{ totalCount: number; datas: { id: string }[] }>('GET', '/crm/contact/queryPageResult', undefined, { customerId })
    expect(ofCustomer.datas.map((d) => d.id)).toEqual([id])
    await refused('GET', '/crm/contact/queryPageResult', undefined, '请选择客户')
    await ok('POST', '/crm/contact/upateContact', { id, position: '总经理', mobile: '13900139000' })
    expect(await ok('GET', '/crm/contact/getContactDetail', undefined, { id })).toMatchObject({ position: '总经理', mobile: '13900139000' })
    // The columns another module's customer transfer relies on.
    const info = await ok<{ user: { tenantId: string } }>('GET', '/auth/info')
    const row = await t.app.services.databases.tenant(info.user.tenantId).selectFrom('crm_contact').select(['customer_id', 'owner_id']).where('id', '=', id).executeTakeFirst()
    expect(row).toEqual({ customer_id: customerId, owner_id: await userId(admin) })
  })

  it('refuses bad input in Chinese', async () => {
    await refused('POST', '/crm/contact/createContact', { name: '', customerId }, '请输入姓名')
    await refused('POST', '/crm/contact/createContact', { name: '王五' }, '客户不能为空')
    await refused('POST', '/crm/contact/createContact', { name: '王五', customerId, mobile: '123' }, '手机号码格式不正确')
    await refused('POST', '/crm/contact/createContact', { name: '王五', customerId, email: 'x' }, '邮箱地址格式不正确')
    await refused('POST', '/crm/contact/upateContact', { id: 'nope', name: '王五' }, '联系人不存在！')
    await refused('GET', '/crm/contact/getContactDetail', undefined, '联系人不存在！', { id: 'nope' })
    await refused('POST', '/crm/contact/createContact', [], '请求参数格式错误')
  })

  it('keys: read-only users may not write; outsiders may not read', async () => {
    const reader = await userWithMenus(t, admin, 'ctread', ['crm:contact:query'])
    const outsider = await userWithMenus(t, admin, 'ctout', [])
    expect((await call('GET', '/crm/contact/query', undefined, undefined, reader)).status).toBe(200)
    expect((await call('POST', '/crm/contact/createContact', { name: 'x', customerId }, undefined, reader)).status).toBe(403)
    expect((await call('POST', '/crm/contact/upateContact', { id: 'x' }, undefined, reader)).status).toBe(403)
    expect((await call('GET', '/crm/contact/query', undefined, undefined, outsider)).status).toBe(403)
    expect((await call('GET', '/crm/contact/getContactDetail', undefined, { id: 'x' }, outsider)).status).toBe(403)
  })
})
