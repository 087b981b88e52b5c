import dayjs from 'dayjs'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createDept, created, crmCustomer, salesperson } from '../support/crm-fixtures.js'
import type { ActionRow } from '../../src/shared/contracts/crm-customers.js'

/** A follow-up as the calls answer it (its call contract), with the follower the list also carries. */
type Action = ActionRow & { followerId: string }

/** Follow-ups (跟进记录): create under both names of the spec, detail, list, xlsx export, delete, and the CRM figures. */
describe('CRM follow-ups and figures', () => {
  let t: TestApp
  let admin: string
  type Person = Awaited<ReturnType<typeof salesperson>>
  let a: Person
  let b: Person
  let customerId: string

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    const dept = await createDept(t, admin, '华东销售部')
    a = await salesperson(t, admin, 'actalpha', [dept])
    b = await salesperson(t, admin, 'actbeta', [dept])
    customerId = await crmCustomer(t, a.token, '华东机电')
  })
  afterAll(async () => t?.close())

  const time = (days: number, hour = 10) => dayjs().add(days, 'day').hour(hour).minute(0).second(0).format('YYYY-MM-DD HH:mm:ss')

  it('a follow-up moves the customer last and next follow-up times; both call names create', async () => {
    const first = time(-2)
    const id = await created(t, a.token, '/basedata/customerAction', { customerId, actionType: 3, content: '上门拜访，了解设备更新计划', actionTime: first, nextTime: time(0, 23), nextContent: '发送报价单' })
    const cust = (await t.call<{ lastFollowTime: string; nextFollowTime: string }>('GET', '/basedata/customer/getActionCustomer', { token: a.token, query: { id: customerId } })).body.data
    expect(cust.lastFollowTime).toBe(first)
    expect(cust.nextFollowTime).toBe(time(0, 23))
    // An older follow-up entered later does not move the last follow-up time back.
    await created(t, a.token, '/crm/action/createAction', { customerId, actionType: 1, content: '补录：电话沟通', actionTime: time(-5) })
    const after = (await t.call<{ lastFollowTime: string }>('GET', '/crm/customer', { token: a.token, query: { id: customerId } })).body.data
    expect(after.lastFollowTime).toBe(first)
    const detail = (await t.call<Action>('GET', '/basedata/customerAction/getActionDetail', { token: a.token, query: { id } })).body.data
    expect(detail).toMatchObject({ customerId, customerName: '华东机电', actionType: 3, nextContent: '发送报价单', followerId: a.id })
  })

  it('refuses what makes no sense, in Chinese', async () => {
    const bad = async (body: Record<string, unknown>) => (await t.call('POST', '/crm/action/createAction', { token: a.token, body })).body.msg
    expect(await bad({ actionType: 1, content: 'x' })).toBe('请选择客户')
    expect(await bad({ customerId, actionType: 1 })).toBe('请输入跟进内容')
    expect(await bad({ customerId, actionType: 1, content: 'x', actionTime: time(-1), nextTime: time(-2) })).toBe('下次跟进时间必须晚于跟进时间')
    expect(await bad({ customerId, actionType: 1, content: 'x', actionTime: time(3) })).toBe('跟进时间不能晚于当前时间')
    // Another salesperson's customer cannot be followed up by b.
    expect((await t.call('POST', '/crm/action/createAction', { token: b.token, body: { customerId, actionType: 1, content: 'x' } })).body.msg).toBe('只能跟进自己负责的客户')
  })

  it('lists one own follow-ups, exports them as xlsx, deletes only one own', async () => {
    const list = (await t.call<{ datas: Action[]; totalCount: number }>('GET', '/crm/action/query', { token: a.token, query: { customerId } })).body.data
    expect(list.totalCount).toBe(2)
    expect(list.datas[0].actionTime > list.datas[1].actionTime).toBe(true)
    expect((await t.call<{ totalCount: number }>('GET', '/crm/action/query', { token: b.token })).body.data.totalCount).toBe(0)
    const file = await t.call('GET', '/crm/action/export', { token: a.token })
    expect(file.status).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    expect(sheet.getRow(1).getCell(1).value).toBe('客户')
    expect(sheet.rowCount).toBe(3)
    expect(String(sheet.getRow(2).getCell(2).value)).toMatch(/上门拜访|电话/)
    const id = list.datas[1].id
    expect((await t.call('DELETE', '/crm/action/delete', { token: b.token, body: { ids: [id] } })).status).toBe(404)
    expect((await t.call('DELETE', '/crm/action/delete', { token: a.token, body: { ids: [id] } })).body.code).toBe(200)
    expect((await t.call<{ totalCount: number }>('GET', '/crm/action/query', { token: a.token })).body.data.totalCount).toBe(1)
  })

  it('my CRM figures and due follow-ups', async () => {
    const overdueCustomer = await crmCustomer(t, a.token, '逾期跟进客户')
    await created(t, a.token, '/crm/action/createAction', { customerId: overdueCustomer, actionType: 2, content: '微信联系', actionTime: time(-3), nextTime: time(-1), nextContent: '确认样品' })
    const figures = (await t.call<Record<string, number>>('GET', '/crm/data/query', { token: a.token })).body.data
    expect(figures).toMatchObject({ customerCount: 2, dealtCount: 0, dueToday: 1, overdue: 1 })
    expect(figures.actionMonth).toBeGreaterThanOrEqual(1)
    const due = (await t.call<{ customerId: string; overdue: boolean; nextContent: string }[]>('GET', '/crm/data/queryAction', { token: a.token })).body.data
    expect(due.map((d) => d.customerId)).toEqual([overdueCustomer, customerId])
    expect(due[0]).toMatchObject({ overdue: true, nextContent: '确认样品' })
    expect((await t.call('GET', '/crm/data/queryAction', { token: a.token, query: { days: 'x' } })).body.msg).toBe('查询条件“天数”格式不正确')
    expect((await t.call<unknown[]>('GET', '/crm/data/queryAction', { token: b.token })).body.data).toEqual([])
  })
})
