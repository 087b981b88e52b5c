import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { crmCalls } from '../support/crm-deals-fixtures.js'

interface Memorial {
  id: string
  title: string
  memorialDate: string
  nextDate: string | null
  daysLeft: number | null
  ownerId: string
  sharedUserIds: string[]
}

/** 纪念日 (/basedata/memorial/*): own and shared memorials, my reminders, share, delete. */
describe('CRM memorial days', () => {
  let t: TestApp
  let admin: string
  let alice: string
  let bob: string
  let bobId: string
  let customerId: string
  const { ok, call, refused, customer } = crmCalls(() => t, () => admin)
  const keys = ['crm:memorial:query', 'crm:memorial:add', 'crm:memorial:modify', 'crm:memorial:delete', 'crm:memorial:share']
  /** A date `days` from today in an earlier year (a yearly memorial falls on it again). */
  const yearly = (days: number) => dayjs().add(days, 'day').subtract(30, 'year').format('YYYY-MM-DD')

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    customerId = await customer()
    // A contact is seen only with its customer: alice may open every customer (the fixture's has no owner).
    alice = await userWithMenus(t, admin, 'memalice', [...keys, 'crm:contact:add', 'crm:customer:query', 'crm:customer:all'])
    bob = await userWithMenus(t, admin, 'membob', keys)
    bobId = (await ok<{ user: { id: string } }>('GET', '/auth/info', undefined, undefined, bob)).user.id
  })
  afterAll(async () => t?.close())

  const create = (body: Record<string, unknown>, as = alice) => ok<string>('POST', '/basedata/memorial', { memorialType: 2, remindDays: 3, ...body }, undefined, as)
  const list = async (as: string) => (await ok<{ datas: Memorial[] }>('GET', '/basedata/memorial/query', undefined, { pageSize: 100 }, as)).datas
  const reminders = (as: string) => ok<Memorial[]>('GET', '/basedata/memorial/myRemindQuery', undefined, undefined, as)

  it('a birthday takes the contact birthday; my reminders list the coming ones within remindDays, soonest first', async () => {
    const contactId = await ok<string>('POST', '/crm/contact/createContact', { name: '王芳', customerId, birthday: yearly(2) }, undefined, alice)
    const birthday = await create({ title: '王芳生日', memorialType: 1, contactId })
    const soon = await create({ title: '合作周年', memorialDate: yearly(0), customerId })
    await create({ title: '远期纪念', memorialDate: yearly(40) })
    await create({ title: '一次性已过', memorialDate: dayjs().subtract(1, 'day').format('YYYY-MM-DD'), repeatYearly: false })
    const got = await ok<Record<string, unknown>>('GET', '/basedata/memorial', undefined, { id: birthday }, alice)
    expect(got).toMatchObject({ memorialDate: yearly(2), contactId, customerId })
    const mine = await reminders(alice)
    expect(mine.map((m) => [m.id, m.daysLeft])).toEqual([[soon, 0], [birthday, 2]])
    expect(mine[1].nextDate).toBe(dayjs().add(2, 'day').format('YYYY-MM-DD'))
    expect((await list(alice)).map((m) => m.title).sort()).toEqual(['一次性已过', '合作周年', '王芳生日', '远期纪念'].sort())
  })

  it('others see nothing until shared; only the owner modifies, shares and deletes', async () => {
    const id = await create({ title: '客户开业纪念', memorialDate: yearly(1) })
    expect((await list(bob)).map((m) => m.id)).not.toContain(id)
    expect((await call('GET', '/basedata/memorial', undefined, { id }, bob)).status).toBe(404)
    expect((await call('PUT', '/basedata/memorial', { id, title: 'x' }, undefined, bob)).status).toBe(404)
    await refused('POST', '/basedata/memorial/share', { id, userIds: [bobId] }, '纪念日不存在！', undefined, bob)
    await ok('POST', '/basedata/memorial/share', { id, userIds: [bobId] }, undefined, alice)
    const seen = await list(bob)
    expect(seen.find((m) => m.id === id)).toMatchObject({ sharedUserIds: [bobId] })
    expect((await reminders(bob)).map((m) => m.id)).toEqual([id])
    await refused('PUT', '/basedata/memorial', { id, title: '改' }, '只能修改自己创建的纪念日', undefined, bob)
    await refused('POST', '/basedata/memorial/share', { id, userIds: [] }, '只能分享自己创建的纪念日', undefined, bob)
    await refused('DELETE', '/basedata/memorial/delete', { ids: [id] }, '只能删除自己创建的纪念日', undefined, bob)
    await refused('POST', '/basedata/memorial/share', { id, userIds: ['nobody'] }, '分享的同事不存在', undefined, alice)
    await refused('POST', '/basedata/memorial/share', { id }, '请选择要分享的同事', undefined, alice)
    await ok('PUT', '/basedata/memorial', { id, title: '客户开业十周年' }, undefined, alice)
    await ok('DELETE', '/basedata/memorial/delete', { ids: [id] }, undefined, alice)
    expect((await list(bob)).map((m) => m.id)).not.toContain(id)
    await refused('DELETE', '/basedata/memorial/delete', { ids: [id] }, '纪念日不存在！', undefined, alice)
  })

  it('validates in Chinese', async () => {
    await refused('POST', '/basedata/memorial', { title: '无日期', memorialType: 2, remindDays: 3 }, '日期不能为空', undefined, alice)
    await refused('POST', '/basedata/memorial', { title: 'x', memorialType: 2, memorialDate: yearly(1), remindDays: 99 }, '提前提醒天数必须在0到60之间', undefined, alice)
    await refused('POST', '/basedata/memorial', { title: '', memorialType: 2, memorialDate: yearly(1) }, '请输入标题', undefined, alice)
    const other = await customer('别家')
    const contactId = await ok<string>('POST', '/crm/contact/createContact', { name: '赵六', customerId }, undefined, alice)
    await refused('POST', '/basedata/memorial', { title: 'x', memorialType: 2, memorialDate: yearly(1), contactId, customerId: other }, '联系人不属于该客户', undefined, alice)
  })

  it('keys: without the memorial menu nothing, reminders included', async () => {
    const outsider = await userWithMenus(t, admin, 'memout', [])
    expect((await call('GET', '/basedata/memorial/query', undefined, undefined, outsider)).status).toBe(403)
    expect((await call('POST', '/basedata/memorial', { title: 'x' }, undefined, outsider)).status).toBe(403)
    expect((await call('DELETE', '/basedata/memorial/delete', { ids: ['x'] }, undefined, outsider)).status).toBe(403)
    expect((await call('POST', '/basedata/memorial/share', { id: 'x' }, undefined, outsider)).status).toBe(403)
    expect((await call('GET', '/basedata/memorial/myRemindQuery', undefined, undefined, outsider)).status).toBe(403)
  })
})
