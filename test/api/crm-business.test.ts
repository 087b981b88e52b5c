import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { crmCalls } from '../support/crm-deals-fixtures.js'

/** 商机 (/crm/business): the family from its entity file, approval, owner, decimal amount, data permission. */
describe('CRM business opportunities', () => {
  let t: TestApp
  let admin: string
  let customerId: string
  const { ok, call, refused, customer, userId } = crmCalls(() => t, () => admin)

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    customerId = await customer()
  })
  afterAll(async () => t?.close())

  const body = (extra: Record<string, unknown> = {}) => ({
    name: 'ERP升级项目', customerId, stage: 2, amount: '120000.10', winRate: 40, expectedCloseDate: '2030-06-30', ...extra,
  })

  it('creates, reads, lists, modifies and deletes an opportunity; amounts stay exact decimals', async () => {
    const id = await ok<string>('POST', '/crm/business', body({ amount: '0.1' }))
    const got = await ok<Record<string, unknown>>('GET', '/crm/business', undefined, { id })
    expect(got).toMatchObject({ name: 'ERP升级项目', customerId, stage: 2, amount: '0.10', status: 0, expectedCloseDate: '2030-06-30', ownerId: await userId(admin) })
    expect(String(got.customerName)).toMatch(/^华东贸易有限公司/)
    await ok('PUT', '/crm/business', { id, amount: '0.2', stage: 3 })
    const page = await ok<{ totalCount: number; datas: Record<string, unknown>[] }>('GET', '/crm/business/query', undefined, { name: 'ERP', stage: 3 })
    expect(page.totalCount).toBe(1)
    expect(page.datas[0]).toMatchObject({ id, amount: '0.20', stage: 3 })
    await ok('DELETE', '/crm/business', { id })
    expect((await call('GET', '/crm/business', undefined, { id })).status).toBe(404)
  })

  it('validates input with Chinese messages and never answers 5xx', async () => {
    await refused('POST', '/crm/business', body({ customerId: '' }), '客户不能为空')
    await refused('POST', '/crm/business', body({ amount: '-1' }), '预计金额不能小于0')
    await refused('POST', '/crm/business', body({ winRate: 101 }), '赢率必须在0到100之间')
    await refused('POST', '/crm/business', body({ stage: 99 }), '商机阶段取值不正确')
    await refused('POST', '/crm/business', body({ customerId: 'nope' }), '客户不存在')
    await refused('POST', '/crm/business', body({ expectedCloseDate: '' }), '预计成交日期不能为空')
    await refused('POST', '/crm/business/approve', { id: 'nope' }, '商机不存在！')
    await refused('POST', '/crm/business/approve', [], '请求参数格式错误')
  })

  it('approves once: passed is frozen, refused goes back to pending when modified', async () => {
    const id = await ok<string>('POST', '/crm/business', body())
    await refused('POST', '/crm/business/approve', { id, status: 6 }, '请输入拒绝理由')
    await refused('POST', '/crm/business/approve', { id, status: 5 }, '审核状态不正确')
    await ok('POST', '/crm/business/approve', { id, status: 6, refuseReason: '金额过高' })
    expect(await ok('GET', '/crm/business', undefined, { id })).toMatchObject({ status: 6, refuseReason: '金额过高' })
    await refused('POST', '/crm/business/approve', { id }, '商机已审核拒绝，请修改后重新提交！')
    await ok('PUT', '/crm/business', { id, amount: '90000' })
    expect(await ok('GET', '/crm/business', undefined, { id })).toMatchObject({ status: 0, refuseReason: null, amount: '90000.00' })
    await ok('POST', '/crm/business/approve', { id })
    expect(await ok('GET', '/crm/business', undefined, { id })).toMatchObject({ status: 3, approveBy: '系统管理员' })
    await refused('POST', '/crm/business/approve', { id }, '商机已审核通过，不允许重复审核！')
    await refused('PUT', '/crm/business', { id, amount: '1' }, '商机已审核通过，无法修改！')
    await refused('DELETE', '/crm/business', { id }, '商机已审核通过，无法删除！')
    // A customer with an opportunity cannot be deleted.
    await refused('DELETE', '/basedata/customer', { id: customerId }, '客户已被商机使用，不允许删除！')
  })

  it('two approvers at once: exactly one acts', async () => {
    const id = await ok<string>('POST', '/crm/business', body())
    const answers = await Promise.all([0, 1, 2, 3].map(() => call('POST', '/crm/business/approve', { id })))
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1)
    expect(answers.every((a) => a.status < 500)).toBe(true)
  })

  it('keys: a salesperson without approve may not approve; one without the menu may not list', async () => {
    const sales = await userWithMenus(t, admin, 'bizsales', ['crm:business:query', 'crm:business:add', 'crm:business:modify'])
    const outsider = await userWithMenus(t, admin, 'bizout', [])
    const id = await ok<string>('POST', '/crm/business', body({ name: '销售自建' }), undefined, sales)
    expect(await ok('GET', '/crm/business', undefined, { id }, sales)).toMatchObject({ ownerId: await userId(sales) })
    expect((await call('POST', '/crm/business/approve', { id }, undefined, sales)).status).toBe(403)
    expect((await call('DELETE', '/crm/business', { id }, undefined, sales)).status).toBe(403)
    expect((await call('GET', '/crm/business/query', undefined, undefined, outsider)).status).toBe(403)
    // The customer picker is open to whoever may add an opportunity.
    expect((await call('GET', '/selector/customer', undefined, undefined, sales)).status).toBe(200)
  })

  it('data permission (单据 model): a role narrowed to one customer (往来单位) sees, approves and changes only its opportunities', async () => {
    const other = await customer('另一客户')
    const mine = await ok<string>('POST', '/crm/business', body({ name: '本客户商机' }))
    const theirs = await ok<string>('POST', '/crm/business', body({ name: '别家商机', customerId: other }))
    const clerk = await userWithMenus(t, admin, 'bizdp', ['crm:business:query', 'crm:business:modify', 'crm:business:approve'])
    const code = (await ok<{ code: string }>('GET', '/basedata/customer', undefined, { id: customerId })).code
    const clerkId = (await ok<{ user: { id: string } }>('GET', '/auth/info', undefined, undefined, clerk)).user.id
    // detail 18 = 往来单位编号; condition 0 = equals (schemas/seed/data-permission-models.json).
    const saved = await call('POST', '/system/data/permission/data/saveData', {
      bizIds: [clerkId], bizType: 2, permissionType: 2,
      permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 18, conditionType: 0, value: code }] }]),
    })
    expect(saved.body.code, saved.raw).toBe(200)
    const seen = await ok<{ datas: { id: string }[] }>('GET', '/crm/business/query', undefined, { pageSize: 100 }, clerk)
    expect(seen.datas.map((d) => d.id)).toContain(mine)
    expect(seen.datas.map((d) => d.id)).not.toContain(theirs)
    expect((await call('GET', '/crm/business', undefined, { id: theirs }, clerk)).status).toBe(404)
    expect((await call('PUT', '/crm/business', { id: theirs, amount: '1' }, undefined, clerk)).status).toBe(404)
    expect((await call('POST', '/crm/business/approve', { id: theirs }, undefined, clerk)).status).toBe(404)
    await ok('POST', '/crm/business/approve', { id: mine }, undefined, clerk)
  })
})
