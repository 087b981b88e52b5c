import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'

type Item = { code: string; name: string }

/**
 * Fields that offer a data dictionary's items (`dictionary` in an entity file: the customer's 所属行业 and
 * 客户来源): every tenant has the dictionaries, a salesperson's form may read their items, a new value
 * must be an enabled item, and text kept from before may stay.
 */
describe('dictionary fields', () => {
  let t: TestApp
  let admin: string
  let sales: string
  let n = 0
  const customer = (extra: Record<string, unknown>) =>
    t.call<string>('POST', '/basedata/customer', { token: admin, body: { code: `DICT${++n}`, name: `字典客户${n}`, mnemonicCode: `ZDKH${n}`, settleType: 1, available: true, ...extra } })
  const items = (code: string, token = admin) => t.call<Item[]>('GET', '/system/dic/item/bydic', { token, query: { code } })

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login('admin')
    sales = await userWithMenus(t, admin, 'dicsales1', ['crm:customer:query', 'crm:customer:add'])
  }, 120_000)
  afterAll(async () => t?.close())

  it('every tenant has the dictionaries fields declare, readable by whoever fills the form', async () => {
    const industries = await items('CRM_INDUSTRY', sales)
    expect(industries.status, industries.raw).toBe(200)
    expect(industries.body.data.map((i) => i.name)).toContain('制造业')
    expect((await items('CRM_SOURCE', sales)).body.data.map((i) => i.name)).toContain('客户介绍')
    // Other dictionaries stay behind their screens' keys.
    const created = await t.call('POST', '/system/dic', { token: admin, body: { code: 'SECRET_DIC', name: '内部字典', available: true } })
    expect(created.body.msg, created.raw).toBe('操作成功！')
    expect((await items('SECRET_DIC', sales)).status).toBe(403)
  })

  it('takes a new value only from the enabled items, and changes nothing otherwise', async () => {
    const ok = await customer({ industry: '制造业', source: '客户介绍' })
    expect(ok.body.msg, ok.raw).toBe('操作成功！')
    const got = await t.call<{ industry: string; source: string }>('GET', '/basedata/customer', { token: admin, query: { id: ok.body.data } })
    expect(got.body.data).toMatchObject({ industry: '制造业', source: '客户介绍' })
    const before = (await t.call<{ totalCount: number }>('GET', '/basedata/customer/query', { token: admin })).body.data.totalCount
    for (const [field, value, message] of [
      ['industry', '造船业', '所属行业取值不正确'],
      ['source', '路过', '客户来源取值不正确'],
    ]) {
      const bad = await customer({ [field]: value })
      expect(bad.status).toBe(400)
      expect(bad.body.msg).toBe(message)
    }
    expect((await t.call<{ totalCount: number }>('GET', '/basedata/customer/query', { token: admin })).body.data.totalCount).toBe(before)
    const refused = await t.call('PUT', '/basedata/customer', { token: admin, body: { id: ok.body.data, industry: '造船业' } })
    expect(refused.body.msg).toBe('所属行业取值不正确')
    expect((await t.call<{ industry: string }>('GET', '/basedata/customer', { token: admin, query: { id: ok.body.data } })).body.data.industry).toBe('制造业')
  })

  it('an item switched off is no longer a new choice; a value kept from before may stay', async () => {
    const created = await customer({ industry: '教育培训' })
    const id = created.body.data
    const list = await t.call<{ datas: { id: string; name: string }[] }>('GET', '/system/dic/item/query', { token: admin, query: { name: '教育培训', pageSize: 50 } })
    const item = list.body.data.datas.find((i) => i.name === '教育培训')!
    expect((await t.call('PUT', '/system/dic/item', { token: admin, body: { id: item.id, available: false } })).body.msg).toBe('操作成功！')
    expect((await customer({ industry: '教育培训' })).body.msg).toBe('所属行业取值不正确')
    // The customer keeps 教育培训 while its other fields change.
    const kept = await t.call('PUT', '/basedata/customer', { token: admin, body: { id, industry: '教育培训', contact: '王老师' } })
    expect(kept.body.msg, kept.raw).toBe('操作成功！')
  })

  it('a tenant made before the dictionaries gets them at the next start', async () => {
    const db = t.app.services.databases.tenant('1000')
    const dic = await db.selectFrom('sys_data_dic').select('id').where('code', '=', 'CRM_SOURCE').executeTakeFirstOrThrow()
    await db.deleteFrom('sys_data_dic_item').where('dic_id', '=', dic.id).execute()
    await db.deleteFrom('sys_data_dic').where('id', '=', dic.id).execute()
    await t.restart()
    admin = await t.login('admin')
    expect((await items('CRM_SOURCE')).body.data.map((i) => i.name)).toContain('展会活动')
  })
})
