import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createDept, crmCustomer, salesperson } from '../support/crm-fixtures.js'

type Page = { datas: { id: string }[]; totalCount: number }

/**
 * The CRM customer rule is the store's row rule of the customer entity alone: the CRM routes read a
 * customer through the store and ask nothing more. So it reaches whoever opens customers on a CRM
 * screen, the follow-up screens included (a user who only records follow-ups), wherever they read a
 * customer; and a user who also reads the master data opens on the CRM page the customers the base-data
 * screen shows them, not fewer.
 */
describe('CRM customers: one row rule, the store’s', () => {
  let t: TestApp
  let admin: string
  type Person = Awaited<ReturnType<typeof salesperson>>
  let seller: Person
  let follower: Person
  let reader: Person
  let sellers: string
  let followers: string

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    const dept = await createDept(t, admin, '华南销售部')
    seller = await salesperson(t, admin, 'rulesell', [dept])
    // Records follow-ups of the customers handed to them; holds no key of the customer screens.
    follower = await salesperson(t, admin, 'rulefollow', [dept], ['crm:action:query', 'crm:action:add'])
    // Reads the customer master data and the CRM customer list.
    reader = await salesperson(t, admin, 'ruleread', [dept], ['base-data:customer:query', 'crm:customer:query'])
    sellers = await crmCustomer(t, seller.token, '卖家的客户')
    followers = await crmCustomer(t, seller.token, '跟进人的客户')
    const handed = await t.call('POST', '/basedata/customer/transfer', { token: admin, body: { ids: [followers], ownerId: follower.id, reason: '交给跟进人' } })
    expect(handed.body.code, handed.raw).toBe(200)
  })
  afterAll(async () => t?.close())

  it('a follow-up recorder opens and picks only the customers they own', async () => {
    const own = await t.call<{ id: string; name: string }>('GET', '/basedata/customer/getActionCustomer', { token: follower.token, query: { id: followers } })
    expect(own.body.data).toMatchObject({ id: followers, name: '跟进人的客户' })
    for (const url of ['/basedata/customer/getActionCustomer', '/crm/customer']) {
      const other = await t.call('GET', url, { token: follower.token, query: { id: sellers } })
      expect(other.status, url).toBe(404)
      expect(other.body.msg, url).toBe('客户不存在！')
    }
    const history = await t.call('GET', '/crm/customer/ownerRecords', { token: follower.token, query: { customerId: sellers } })
    expect(history.status).toBe(404)
    expect(history.body.msg).toBe('客户不存在！')
    // The follow-up form's customer picker: the rule reaches it (it listed every customer before).
    const picked = await t.call<Page>('GET', '/selector/customer', { token: follower.token, query: { pageSize: 100 } })
    expect(picked.status, picked.raw).toBe(200)
    expect(picked.body.data.datas.map((r) => r.id)).toEqual([followers])
    expect(picked.body.data.totalCount).toBe(1)
    const loaded = await t.call<{ id: string }[]>('POST', '/selector/customer/load', { token: follower.token, body: [sellers, followers] })
    expect(loaded.status, loaded.raw).toBe(200)
    expect(loaded.body.data.map((r) => r.id)).toEqual([followers])
  })

  it('a follow-up recorder cannot follow up a customer they cannot open, and nothing is written', async () => {
    const refused = await t.call('POST', '/crm/action/createAction', { token: follower.token, body: { customerId: sellers, actionType: 1, content: '越权跟进' } })
    expect(refused.status).toBe(400)
    expect(refused.body.msg).toBe('只能跟进自己负责的客户')
    const mine = await t.call<Page>('GET', '/crm/action/query', { token: admin, query: { customerId: sellers } })
    expect(mine.body.data.totalCount).toBe(0)
  })

  it('a master-data reader opens on the CRM page the customers the base-data screen shows them', async () => {
    const base = await t.call<{ id: string }>('GET', '/basedata/customer', { token: reader.token, query: { id: sellers } })
    expect(base.body.data.id).toBe(sellers)
    const crm = await t.call<{ id: string; name: string }>('GET', '/basedata/customer/getActionCustomer', { token: reader.token, query: { id: sellers } })
    expect(crm.status, crm.raw).toBe(200)
    expect(crm.body.data).toMatchObject({ id: sellers, name: '卖家的客户' })
    // Their CRM tab "mine" still lists only what they own: the tab is a condition, not the visibility.
    const mine = await t.call<Page>('GET', '/basedata/customer/queryCustomerAss', { token: reader.token, query: { scope: 1 } })
    expect(mine.body.data.totalCount).toBe(0)
  })
})
