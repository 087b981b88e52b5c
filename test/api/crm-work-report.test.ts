import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createCrmTeam, type CrmTeam } from '../support/crm-team.js'

type Recipient = { userId: string; userName: string; read: boolean; readTime: string | null }
type Report = {
  id: string
  reportType: number
  startDate: string
  endDate: string
  content: string
  plan: string | null
  question: string | null
  createBy: string
  recipients: Recipient[]
  recipientNames: string
  readCount: number
  read: boolean | null
  mine: boolean
}
type Page<T> = { totalCount: number; datas: T[] }
type Statis = {
  startDate: string
  endDate: string
  figures: { key: string; label: string; money: boolean; available: boolean }[]
  sources: Record<string, string | null>
  rows: (Record<string, number | string> & { userId: string; userName: string })[]
  totals: Record<string, number | string>
}

const WEEKLY = 2
const MONTHLY = 3

/** Weekly and monthly work reports `/crm/workReport/*`: periods, recipients and read state, who sees what, statistics per person. */
describe('CRM work reports', () => {
  let t: TestApp
  let team: CrmTeam
  const today = dayjs().format('YYYY-MM-DD')
  const monday = dayjs().subtract((dayjs().day() + 6) % 7, 'day')
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'DELETE', url: string, data?: Record<string, unknown>) =>
    t.call<T>(method, url, method === 'GET' ? { token, query: data as Record<string, string | number | undefined> } : { token, body: data })
  const ok = async <T = unknown>(token: string, method: 'GET' | 'POST' | 'DELETE', url: string, data?: Record<string, unknown>) => {
    const r = await call<T>(token, method, url, data)
    expect(r.body.code, r.raw).toBe(200)
    return r.body.data
  }
  const list = (token: string, query: Record<string, unknown>) => ok<Page<Report>>(token, 'GET', '/crm/workReport/list', query)
  let weeklyId: string

  beforeAll(async () => {
    t = await startTestApp()
    team = await createCrmTeam(t)
  })
  afterAll(async () => t?.close())

  it('adds a weekly report for the week (Monday to Sunday) of the date given, once per week', async () => {
    weeklyId = await ok<string>(team.tokens.sales1, 'POST', '/crm/workReport/add', {
      reportType: WEEKLY,
      startDate: today,
      content: '拜访客户5家，签约1家',
      plan: '跟进华东区3个商机',
      question: '报价审批慢',
      recipientIds: [team.ids.manager, team.ids.boss],
    })
    const [report] = (await list(team.tokens.sales1, { reportType: WEEKLY })).datas
    expect(report).toMatchObject({
      id: weeklyId,
      reportType: WEEKLY,
      startDate: monday.format('YYYY-MM-DD'),
      endDate: monday.add(6, 'day').format('YYYY-MM-DD'),
      content: '拜访客户5家，签约1家',
      plan: '跟进华东区3个商机',
      createBy: '张三',
      readCount: 0,
      read: null,
      mine: true,
    })
    expect(report.recipients.map((r) => r.userName).sort()).toEqual(['李经理', '王总'].sort())
    const again = await call(team.tokens.sales1, 'POST', '/crm/workReport/add', { reportType: WEEKLY, startDate: monday.add(6, 'day').format('YYYY-MM-DD'), content: '再交一份' })
    expect(again.status).toBe(400)
    expect(again.body.msg).toContain('的周报已提交，请勿重复提交')
    // A fixed date: 2025-06-18 is a Wednesday.
    await ok(team.tokens.sales1, 'POST', '/crm/workReport/add', { reportType: WEEKLY, startDate: '2025-06-18', content: '历史周报' })
    const old = (await list(team.tokens.sales1, { reportType: WEEKLY, keyword: '历史' })).datas
    expect(old.map((r) => [r.startDate, r.endDate])).toEqual([['2025-06-16', '2025-06-22']])
    expect((await list(team.tokens.sales1, { reportType: WEEKLY, startDate: '2025-06-20', endDate: '2025-06-20' })).datas.map((r) => r.content)).toEqual(['历史周报'])
  })

  it('keeps one report per period when the same report is submitted twice at once', async () => {
    const body = { reportType: WEEKLY, startDate: '2025-03-05', content: '同时提交' }
    const both = await Promise.all([call(team.tokens.sales2, 'POST', '/crm/workReport/add', body), call(team.tokens.sales2, 'POST', '/crm/workReport/add', body)])
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    expect((await list(team.tokens.sales2, { reportType: WEEKLY, keyword: '同时提交' })).totalCount).toBe(1)
  })

  it('refuses bad reports with Chinese messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ reportType: WEEKLY, startDate: '2026-01-05', content: '' }, '工作内容不能为空'],
      [{ startDate: '2026-01-05', content: 'x' }, '报告类型不能为空'],
      [{ reportType: 9, startDate: '2026-01-05', content: 'x' }, '报告类型取值不正确'],
      [{ reportType: WEEKLY, startDate: '2026-02-30', content: 'x' }, '报告日期格式不正确'],
      [{ reportType: WEEKLY, startDate: '2026-01-05', content: 'x', recipientIds: [team.ids.sales1] }, '接收人不能是自己'],
      [{ reportType: WEEKLY, startDate: '2026-01-05', content: 'x', recipientIds: ['nobody'] }, '接收人不存在或已停用'],
      [{ reportType: WEEKLY, startDate: '2026-01-05', content: 'x'.repeat(5001) }, '工作内容长度不能超过5000个字符'],
    ]
    for (const [body, msg] of cases) {
      const r = await call(team.tokens.sales1, 'POST', '/crm/workReport/add', body)
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(r.body.msg).toBe(msg)
    }
    expect((await list(team.tokens.sales1, { reportType: WEEKLY, startDate: '2026-01-05', endDate: '2026-01-11' })).totalCount).toBe(0)
  })

  it('shows a report to its recipients with their read state, and marks it read when opened', async () => {
    const received = await list(team.tokens.manager, { reportType: WEEKLY, box: 'received', unread: '1' })
    expect(received.datas.map((r) => r.id)).toEqual([weeklyId])
    expect(received.datas[0].read).toBe(false)
    const opened = await ok<Report>(team.tokens.manager, 'GET', '/crm/workReport/list', { id: weeklyId })
    expect(opened.read).toBe(true)
    expect(opened.recipients.find((r) => r.userId === team.ids.manager)).toMatchObject({ read: true, readTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) })
    expect(opened.recipients.find((r) => r.userId === team.ids.boss)).toMatchObject({ read: false, readTime: null })
    expect((await list(team.tokens.manager, { reportType: WEEKLY, box: 'received', unread: '1' })).totalCount).toBe(0)
    expect((await list(team.tokens.sales1, { reportType: WEEKLY, box: 'sent', keyword: '拜访' })).datas[0].readCount).toBe(1)
    // The author opening it marks nothing.
    await ok(team.tokens.sales1, 'GET', '/crm/workReport/list', { id: weeklyId })
    expect((await list(team.tokens.sales1, { reportType: WEEKLY, keyword: '拜访' })).datas[0].readCount).toBe(1)
  })

  it('shows reports to the author, recipients and the leaders above the author only', async () => {
    const monthlyId = await ok<string>(team.tokens.sales1, 'POST', '/crm/workReport/add', { reportType: MONTHLY, startDate: today, content: '本月回款30万', plan: '下月冲刺50万' })
    const monthly = (await list(team.tokens.sales1, { reportType: MONTHLY })).datas
    expect(monthly.map((r) => [r.id, r.startDate, r.endDate])).toEqual([[monthlyId, dayjs().startOf('month').format('YYYY-MM-DD'), dayjs().endOf('month').format('YYYY-MM-DD')]])
    // 李经理 leads 销售部 above 销售一组, 王总 leads 总经办 above both: they see it without being recipients.
    expect((await list(team.tokens.manager, { reportType: MONTHLY })).datas.map((r) => r.id)).toEqual([monthlyId])
    expect((await list(team.tokens.boss, { reportType: MONTHLY, userId: team.ids.sales1 })).datas.map((r) => r.id)).toEqual([monthlyId])
    // A colleague of the same group and someone from another department do not.
    for (const token of [team.tokens.sales2, team.tokens.loner]) {
      expect((await list(token, { reportType: MONTHLY })).totalCount).toBe(0)
      expect((await call(token, 'GET', '/crm/workReport/list', { id: monthlyId })).status).toBe(404)
    }
    // Weekly keys only: no monthly reports.
    expect((await call(team.tokens.weeklyOnly, 'GET', '/crm/workReport/list', { reportType: MONTHLY })).status).toBe(403)
    expect((await call(team.tokens.weeklyOnly, 'POST', '/crm/workReport/add', { reportType: MONTHLY, startDate: today, content: 'x' })).status).toBe(403)
    expect((await call(team.tokens.weeklyOnly, 'GET', '/crm/workReport/getMonthStatis')).status).toBe(403)
  })

  it('lets only the author delete a report, with its recipients', async () => {
    const id = await ok<string>(team.tokens.sales2, 'POST', '/crm/workReport/add', { reportType: WEEKLY, startDate: today, content: '待删除', recipientIds: [team.ids.manager] })
    const r = await call(team.tokens.manager, 'DELETE', '/crm/workReport/delete', { id })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('只能删除自己的工作报告')
    expect((await call(team.tokens.loner, 'DELETE', '/crm/workReport/delete', { id })).status).toBe(404)
    // Weekly keys without delete.
    expect((await call(team.tokens.weeklyOnly, 'DELETE', '/crm/workReport/delete', { id })).status).toBe(403)
    await ok(team.tokens.sales2, 'DELETE', '/crm/workReport/delete', { id })
    expect((await list(team.tokens.manager, { reportType: WEEKLY, keyword: '待删除' })).totalCount).toBe(0)
    expect((await call(team.tokens.sales2, 'GET', '/crm/workReport/list', { id })).status).toBe(404)
  })

  it('answers the weekly and monthly statistics per person the caller follows', async () => {
    // A customer 张三 creates this week counts as a new customer of his.
    await ok(team.tokens.sales1, 'POST', '/basedata/customer', { code: 'WRK1', name: '周报客户', mnemonicCode: 'ZBKH', settleType: 1 })
    const week = await ok<Statis>(team.tokens.manager, 'GET', '/crm/workReport/getWeekStatis', { date: today })
    expect(week).toMatchObject({ startDate: monday.format('YYYY-MM-DD'), endDate: monday.add(6, 'day').format('YYYY-MM-DD') })
    expect(week.figures.map((f) => f.key)).toEqual(['reports', 'followUps', 'newCustomers', 'contracts', 'contractAmount', 'collectionAmount'])
    // 李经理 follows himself and everyone of 销售部 and 销售一组.
    expect(week.rows.map((r) => r.userName).sort()).toEqual(['张三', '李经理', '赵四', '周八'].sort())
    const zhang = week.rows.find((r) => r.userId === team.ids.sales1)!
    expect(zhang).toMatchObject({ reports: 1, newCustomers: 1 })
    expect(week.rows.find((r) => r.userId === team.ids.sales2)).toMatchObject({ reports: 0, newCustomers: 0 })
    expect(week.totals).toMatchObject({ reports: 1, newCustomers: 1 })
    expect(week.sources.newCustomers).toBe('base_data_customer')
    // Figures whose tables are not built yet answer 0 (money '0.00') until the integration registers them.
    for (const f of week.figures.filter((x) => !x.available)) {
      expect(week.sources[f.key]).toBeNull()
      for (const row of week.rows) expect(row[f.key]).toBe(f.money ? '0.00' : 0)
    }

    const month = await ok<Statis>(team.tokens.boss, 'GET', '/crm/workReport/getMonthStatis', { date: today, userId: team.ids.sales1 })
    expect(month).toMatchObject({ startDate: dayjs().startOf('month').format('YYYY-MM-DD'), endDate: dayjs().endOf('month').format('YYYY-MM-DD') })
    expect(month.rows).toHaveLength(1)
    expect(month.rows[0]).toMatchObject({ userName: '张三', reports: 1, newCustomers: 1 })
    // Someone outside the caller's departments cannot be asked for.
    expect((await call(team.tokens.manager, 'GET', '/crm/workReport/getMonthStatis', { userId: team.ids.loner })).status).toBe(404)
    // A salesperson sees only themselves; an earlier week counts nothing.
    const mine = await ok<Statis>(team.tokens.sales1, 'GET', '/crm/workReport/getWeekStatis', { date: today })
    expect(mine.rows.map((r) => r.userId)).toEqual([team.ids.sales1])
    const past = await ok<Statis>(team.tokens.sales1, 'GET', '/crm/workReport/getWeekStatis', { date: '2020-01-01' })
    expect(past).toMatchObject({ startDate: '2019-12-30', endDate: '2020-01-05', totals: { reports: 0, newCustomers: 0 } })
    // An admin follows everyone.
    const all = await ok<Statis>(team.admin, 'GET', '/crm/workReport/getWeekStatis')
    expect(all.rows.map((r) => r.userId)).toEqual(expect.arrayContaining(Object.values(team.ids)))
    expect((await call(team.tokens.sales1, 'GET', '/crm/workReport/getWeekStatis', { date: '2020-13-01' })).body.msg).toBe('查询条件“报告日期”格式不正确')
  })

  it('never answers 5xx to malformed input', async () => {
    const bodies: unknown[] = [
      {},
      [],
      'text',
      { id: 123, ids: {}, reportType: {}, startDate: 20250101, date: ['2025-01-01'], content: { a: 1 }, recipientIds: {}, status: [], pass: 'maybe' },
      { id: ['a'], title: 7, details: 'x', attachments: {}, refuseReason: { x: 1 } },
      { details: [null, 1, { amount: {}, category: 'abc', occurDate: 1 }], reportType: 'WEEKLY', recipientIds: [1, null] },
      { pageIndex: -1, pageSize: 'abc', status: 'CREATED', box: 'zzz', unread: 'yes', userId: 'nobody', keyword: '%_\\' },
    ]
    const queries: Record<string, string>[] = [
      {},
      { id: '' },
      { id: 'nobody', reportType: '2' },
      { reportType: 'x', date: '2025-13-40', startDate: 'abc', endDate: '2025-02-30', box: 'zzz', userId: 'nobody', pageIndex: '-5', pageSize: '100000', keyword: "%' or 1=1 --" },
      { status: 'nope', startTime: 'yesterday', endTime: '2025-01-01 25:61:00', code: '%', title: '_' },
    ]
    for (const token of [team.admin, team.tokens.sales1, team.tokens.weeklyOnly])
      for (const [method, url] of [['GET', '/crm/workReport/list'], ['GET', '/crm/workReport/getWeekStatis'], ['GET', '/crm/workReport/getMonthStatis'], ['POST', '/crm/workReport/add'], ['DELETE', '/crm/workReport/delete']] as const) {
        if (method === 'GET')
          for (const query of queries) {
            const r = await t.call('GET', url, { token, query })
            expect(r.status, `${url} ${JSON.stringify(query)} ${r.raw}`).toBeLessThan(500)
          }
        else
          for (const body of bodies) {
            const r = await t.call(method, url, { token, body })
            expect(r.status, `${method} ${url} ${JSON.stringify(body)} ${r.raw}`).toBeLessThan(500)
          }
      }
  })
})

/**
 * The figures from the other CRM parts (follow-ups, contracts, collections) light up once their entities
 * are registered. Where this branch lacks an entity, a minimal stand-in file with the same name, table
 * and fields is loaded (skipped once the real file exists); rows go straight into the tables.
 */
describe('CRM work report statistics over follow-ups, contracts and collections', () => {
  const STAND_INS: Record<string, { file: string; json: object }> = {
    crmCustomerAction: {
      file: 'crm-customer-action.json',
      json: { name: 'crmCustomerAction', table: 'crm_customer_action', label: { 'zh-CN': '跟进记录', 'zh-HK': '跟進記錄', 'en-US': 'Follow-up' }, fields: { followerId: { type: 'ref', ref: 'user', label: '跟进人' }, actionTime: { type: 'datetime', label: '跟进时间' } } },
    },
    crmContract: {
      file: 'crm-contract.json',
      json: { name: 'crmContract', table: 'crm_contract', label: { 'zh-CN': '合同', 'zh-HK': '合同', 'en-US': 'Contract' }, fields: { principalId: { type: 'ref', ref: 'user', label: '负责人' }, status: { type: 'enum', enum: 'CRM_CONTRACT_STATUS', label: '审核状态' }, signDate: { type: 'date', label: '签约日期' }, amount: { type: 'decimal', label: '合同金额', precision: 24, scale: 2 } } },
    },
    crmContractReceive: {
      file: 'crm-contract-receive.json',
      json: { name: 'crmContractReceive', table: 'crm_contract_receive', label: { 'zh-CN': '回款', 'zh-HK': '回款', 'en-US': 'Collection' }, fields: { contractId: { type: 'ref', ref: 'crmContract', label: '合同' }, receiveDate: { type: 'date', label: '回款日期' }, amount: { type: 'decimal', label: '回款金额', precision: 24, scale: 2 } } },
    },
  }
  let t: TestApp
  let team: CrmTeam
  let dir: string
  const today = dayjs().format('YYYY-MM-DD')

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-figures-'))
    const schemas = path.resolve(import.meta.dirname, '../../schemas/entities')
    for (const { file, json } of Object.values(STAND_INS))
      if (!fs.existsSync(path.join(schemas, file))) fs.writeFileSync(path.join(dir, file), JSON.stringify({ $schema: '../meta/entity.schema.json', ...json }))
    t = await startTestApp({ entityDirs: [dir] })
    team = await createCrmTeam(t)
  })
  afterAll(async () => {
    await t?.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('counts follow-ups and approved contracts of each person and adds contract and collection money exactly', async () => {
    const db = t.app.services.databases.tenant((await t.app.services.tenantIds())[0])
    const id = () => Math.random().toString(36).slice(2, 14)
    const old = '2020-01-01'
    await db
      .insertInto('crm_customer_action')
      .values([
        { id: id(), follower_id: team.ids.sales1, action_time: `${today} 09:00:00` },
        { id: id(), follower_id: team.ids.sales1, action_time: `${today} 15:30:00` },
        { id: id(), follower_id: team.ids.sales2, action_time: `${today} 10:00:00` },
        { id: id(), follower_id: team.ids.sales1, action_time: `${old} 10:00:00` },
      ])
      .execute()
    const c1 = id()
    const c2 = id()
    const c3 = id()
    await db
      .insertInto('crm_contract')
      .values([
        { id: c1, principal_id: team.ids.sales1, sign_date: today, amount: '0.10', status: 3 },
        { id: c2, principal_id: team.ids.sales1, sign_date: today, amount: '0.20', status: 3 },
        { id: c3, principal_id: team.ids.sales2, sign_date: old, amount: '1000.00', status: 3 },
        // Pending and refused contracts are no deals yet.
        { id: id(), principal_id: team.ids.sales1, sign_date: today, amount: '50.00', status: 0 },
        { id: id(), principal_id: team.ids.sales2, sign_date: today, amount: '70.00', status: 6 },
      ])
      .execute()
    // Collections count for the contract's 负责人, by receiving date: an old contract's money received today counts.
    await db
      .insertInto('crm_contract_receive')
      .values([
        { id: id(), contract_id: c1, receive_date: today, amount: '0.10', create_by_id: team.ids.manager },
        { id: id(), contract_id: c2, receive_date: today, amount: '0.20', create_by_id: team.ids.manager },
        { id: id(), contract_id: c3, receive_date: today, amount: '333.33' },
        { id: id(), contract_id: c3, receive_date: old, amount: '666.67' },
      ])
      .execute()

    const week = await t.call<Statis>('GET', '/crm/workReport/getWeekStatis', { token: team.tokens.manager, query: { date: today } })
    expect(week.status, week.raw).toBe(200)
    const { figures, sources, rows, totals } = week.body.data
    expect(figures.every((f) => f.available)).toBe(true)
    expect(sources).toMatchObject({ followUps: 'crm_customer_action', contracts: 'crm_contract', contractAmount: 'crm_contract', collectionAmount: 'crm_contract_receive' })
    expect(rows.find((r) => r.userId === team.ids.sales1)).toMatchObject({ followUps: 2, contracts: 2, contractAmount: '0.30', collectionAmount: '0.30' })
    expect(rows.find((r) => r.userId === team.ids.sales2)).toMatchObject({ followUps: 1, contracts: 0, contractAmount: '0.00', collectionAmount: '333.33' })
    expect(rows.find((r) => r.userId === team.ids.manager)).toMatchObject({ followUps: 0, contracts: 0, collectionAmount: '0.00' })
    expect(totals).toMatchObject({ followUps: 3, contracts: 2, contractAmount: '0.30', collectionAmount: '333.63' })

    const past = await t.call<Statis>('GET', '/crm/workReport/getMonthStatis', { token: team.tokens.manager, query: { date: old } })
    expect(past.body.data.totals).toMatchObject({ followUps: 1, contracts: 1, contractAmount: '1000.00', collectionAmount: '666.67' })
  })
})
