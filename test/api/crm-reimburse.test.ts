import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createCrmTeam, type CrmTeam } from '../support/crm-team.js'
import type { Claim as ClaimAnswer, ClaimLine } from '../../src/shared/contracts/crm-reports.js'

/** A claim as its detail call answers it: the contract's answer, with its lines. */
type Claim = ClaimAnswer & { details: ClaimLine[] }
type Page<T> = { totalCount: number; datas: T[] }

/** Expense claims `/crm/cost/*`: lines and exact totals, the approver from the department tree, one approval by the approver only. */
describe('CRM expense claims', () => {
  let t: TestApp
  let team: CrmTeam
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, data?: Record<string, unknown>) =>
    t.call<T>(method, url, method === 'GET' ? { token, query: data as Record<string, string | number | undefined> } : { token, body: data })
  const ok = async <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, data?: Record<string, unknown>) => {
    const r = await call<T>(token, method, url, data)
    expect(r.body.code, r.raw).toBe(200)
    return r.body.data
  }
  const claim = (extra: Record<string, unknown> = {}) => ({
    title: '11月客户拜访差旅',
    details: [
      { category: 1, amount: '0.1', occurDate: '2026-11-20', description: '地铁' },
      { category: 3, amount: '0.2', occurDate: '2026-11-21', description: '午餐' },
    ],
    ...extra,
  })
  const detail = (token: string, id: string) => ok<Claim>(token, 'GET', '/crm/cost/getDetail', { id })

  beforeAll(async () => {
    t = await startTestApp()
    team = await createCrmTeam(t)
  })
  afterAll(async () => t?.close())

  it('finds the approver up the department tree', async () => {
    // 销售一组 has no leader: its parent 销售部's leader approves.
    expect(await ok(team.tokens.sales1, 'GET', '/crm/cost/getManagerId')).toMatchObject({ managerId: team.ids.manager, managerName: '李经理', deptId: team.depts.group, deptName: '销售一组' })
    // The leader of 销售部 does not approve their own claims: 总经办's leader does.
    expect(await ok(team.tokens.manager, 'GET', '/crm/cost/getManagerId')).toMatchObject({ managerId: team.ids.boss })
    // Nobody leads 市场部 or anything above it.
    const none = await call(team.tokens.loner, 'GET', '/crm/cost/getManagerId')
    expect(none.status).toBe(400)
    expect(none.body.msg).toContain('未找到审批人')
    expect((await call(team.tokens.loner, 'POST', '/crm/cost/add', claim())).body.msg).toContain('未找到审批人')
  })

  it('adds a claim whose total is exact (0.1 + 0.2 = 0.30) and goes to the approver', async () => {
    const receipt = { name: '发票.png', url: '/cloud-api/component/upload/image/t1/image_abc123.png' }
    const id = await ok<string>(team.tokens.sales1, 'POST', '/crm/cost/add', claim({ attachments: [receipt] }))
    const d = await detail(team.tokens.sales1, id)
    expect(d).toMatchObject({ attachments: [receipt] })
    expect(d).toMatchObject({ title: '11月客户拜访差旅', status: 0, totalAmount: '0.30', managerId: team.ids.manager, managerName: '李经理', deptName: '销售一组', applicantName: '张三', canModify: true, canApprove: false })
    expect(d.code).toMatch(/^BX\d{18}$/)
    expect(d.details).toEqual([
      { id: expect.any(String), category: 1, amount: '0.10', occurDate: '2026-11-20', description: '地铁' },
      { id: expect.any(String), category: 3, amount: '0.20', occurDate: '2026-11-21', description: '午餐' },
    ])
    // A big total stays exact too.
    const big = await ok<string>(team.tokens.sales2, 'POST', '/crm/cost/add', claim({ details: [{ category: 2, amount: '9999999.99', occurDate: '2026-11-20' }, { category: 99, amount: '0.01', occurDate: '2026-11-20' }] }))
    expect((await detail(team.tokens.sales2, big)).totalAmount).toBe('10000000.00')
  })

  it('refuses bad claims with Chinese messages and writes nothing', async () => {
    const before = (await ok<Page<Claim>>(team.tokens.sales1, 'GET', '/crm/cost/list')).totalCount
    const cases: [Record<string, unknown>, string][] = [
      [claim({ details: [] }), '报销明细不能为空'],
      [claim({ title: '' }), '报销事由不能为空'],
      [claim({ details: [{ category: 1, amount: '-1', occurDate: '2026-11-20' }] }), '第1行'],
      [claim({ details: [{ category: 1, amount: '1.234', occurDate: '2026-11-20' }] }), '最多允许2位小数'],
      [claim({ details: [{ category: 1, amount: 'abc', occurDate: '2026-11-20' }] }), '金额必须为数字'],
      [claim({ details: [{ category: 42, amount: '1', occurDate: '2026-11-20' }] }), '费用类别取值不正确'],
      [claim({ details: [{ category: 1, amount: '1' }] }), '发生日期不能为空'],
      [claim({ details: ['x'] }), '格式错误'],
      [claim({ attachments: 'nope' }), '附件格式错误'],
      [claim({ attachments: [{ name: 'x', url: 'https://example.com/x.png' }] }), '附件格式错误'],
    ]
    for (const [body, msg] of cases) {
      const r = await call(team.tokens.sales1, 'POST', '/crm/cost/add', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.msg).toContain(msg)
    }
    expect((await ok<Page<Claim>>(team.tokens.sales1, 'GET', '/crm/cost/list')).totalCount).toBe(before)
  })

  it('lists my claims, and the approve list shows only what waits for me', async () => {
    const id = await ok<string>(team.tokens.sales1, 'POST', '/crm/cost/add', claim({ title: '待审批的报销' }))
    const mine = await ok<Page<Claim>>(team.tokens.sales1, 'GET', '/crm/cost/list', { title: '待审批' })
    expect(mine.datas.map((c) => c.id)).toEqual([id])
    // The boss sees nobody else's claims in their own list; the loner neither.
    expect((await ok<Page<Claim>>(team.tokens.boss, 'GET', '/crm/cost/list')).totalCount).toBe(0)
    const waiting = await ok<Page<Claim>>(team.tokens.manager, 'GET', '/crm/cost/approveList')
    expect(waiting.datas.length).toBeGreaterThan(0)
    expect(waiting.datas.every((c) => c.managerId === team.ids.manager && c.status === 0 && c.canApprove)).toBe(true)
    expect(waiting.datas.map((c) => c.id)).toContain(id)
    for (const other of [team.tokens.boss, team.tokens.sales1, team.tokens.loner])
      expect((await ok<Page<Claim>>(other, 'GET', '/crm/cost/approveList')).datas.map((c) => c.id)).not.toContain(id)
    // Outsiders cannot read the claim.
    expect((await call(team.tokens.loner, 'GET', '/crm/cost/getDetail', { id })).status).toBe(404)
    expect((await detail(team.tokens.manager, id)).canApprove).toBe(true)
  })

  it('lets only the approver approve, once; refused claims can be corrected and resubmitted', async () => {
    const id = await ok<string>(team.tokens.sales1, 'POST', '/crm/cost/add', claim({ title: '审批流程' }))
    // Not the approver: the applicant and an admin (who can read the claim) are told so; the boss, who holds
    // the approve key but is no party to the claim, cannot reach it at all.
    expect((await call(team.tokens.boss, 'POST', '/crm/cost/approve', { id, status: 3 })).status).toBe(404)
    for (const token of [team.tokens.sales1, team.admin]) {
      const r = await call(token, 'POST', '/crm/cost/approve', { id, status: 3 })
      expect(r.status).toBe(403)
      expect(r.body.msg).toBe('只有该报销单的审批人才能审核')
    }
    expect((await call(team.tokens.loner, 'POST', '/crm/cost/approve', { id, status: 3 })).status).toBe(404)
    expect((await call(team.tokens.manager, 'POST', '/crm/cost/approve', { id, status: 0 })).body.msg).toBe('请选择审核结果（通过或拒绝）')
    expect((await call(team.tokens.manager, 'POST', '/crm/cost/approve', { id, status: 6 })).body.msg).toBe('拒绝理由不能为空')
    expect((await detail(team.tokens.sales1, id)).status).toBe(0)

    await ok(team.tokens.manager, 'POST', '/crm/cost/approve', { id, status: 6, refuseReason: '缺少发票' })
    expect(await detail(team.tokens.sales1, id)).toMatchObject({ status: 6, refuseReason: '缺少发票', approveBy: '李经理', canModify: true })
    expect((await call(team.tokens.manager, 'POST', '/crm/cost/approve', { id, status: 3 })).body.msg).toBe('报销单已审核，不能重复审核')
    expect((await ok<Page<Claim>>(team.tokens.manager, 'GET', '/crm/cost/approveList')).datas.map((c) => c.id)).not.toContain(id)
    expect((await ok<Page<Claim>>(team.tokens.manager, 'GET', '/crm/cost/approveList', { status: 6 })).datas.map((c) => c.id)).toContain(id)

    // The applicant corrects it: lines replaced, total recomputed, pending again for the approver.
    expect((await call(team.tokens.sales2, 'PUT', '/crm/cost/update', { id, ...claim() })).status).toBe(404)
    await ok(team.tokens.sales1, 'PUT', '/crm/cost/update', { id, title: '审批流程（补发票）', details: [{ category: 2, amount: '300.10', occurDate: '2026-11-22' }, { category: 1, amount: '0.05', occurDate: '2026-11-22' }, { category: 3, amount: '0.05', occurDate: '2026-11-22' }] })
    expect(await detail(team.tokens.sales1, id)).toMatchObject({ title: '审批流程（补发票）', status: 0, totalAmount: '300.20', refuseReason: null })
    expect((await detail(team.tokens.sales1, id)).details).toHaveLength(3)

    // Two approvals at once: exactly one wins.
    const both = await Promise.all([
      call(team.tokens.manager, 'POST', '/crm/cost/approve', { id, status: 3 }),
      call(team.tokens.manager, 'POST', '/crm/cost/approve', { id, pass: true }),
    ])
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    expect((await detail(team.tokens.sales1, id)).status).toBe(3)
    expect((await call(team.tokens.manager, 'POST', '/crm/cost/approve', { id, status: 6, refuseReason: '再拒' })).body.msg).toBe('报销单已审核，不能重复审核')
    // An approved claim is final.
    const r = await call(team.tokens.sales1, 'PUT', '/crm/cost/update', { id, ...claim() })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('报销单已审核通过，不允许修改')
    expect(await detail(team.tokens.sales1, id)).toMatchObject({ status: 3, totalAmount: '300.20', canModify: false })
  })

  it('skips a disabled leader and walks on up the tree; pending claims stay with their approver', async () => {
    const id = await ok<string>(team.tokens.sales2, 'POST', '/crm/cost/add', claim({ title: '领导停用前' }))
    expect((await t.call('PATCH', '/system/user/unable/batch', { token: team.admin, body: [team.ids.manager] })).status).toBe(200)
    try {
      expect(await ok(team.tokens.sales1, 'GET', '/crm/cost/getManagerId')).toMatchObject({ managerId: team.ids.boss, managerName: '王总', deptName: '销售一组' })
      expect((await detail(team.tokens.sales2, id)).managerId).toBe(team.ids.manager)
      // Resubmitting sends it to the approver found now.
      await ok(team.tokens.sales2, 'PUT', '/crm/cost/update', { id, ...claim({ title: '领导停用后' }) })
      expect(await detail(team.tokens.sales2, id)).toMatchObject({ managerId: team.ids.boss, status: 0 })
      expect((await ok<Page<Claim>>(team.tokens.boss, 'GET', '/crm/cost/approveList')).datas.map((c) => c.id)).toContain(id)
    } finally {
      await t.call('PATCH', '/system/user/enable/batch', { token: team.admin, body: [team.ids.manager] })
    }
  })

  it('checks the keys of each call', async () => {
    const weekly = team.tokens.weeklyOnly
    for (const [method, url] of [['GET', '/crm/cost/list'], ['GET', '/crm/cost/approveList'], ['GET', '/crm/cost/getManagerId'], ['GET', '/crm/cost/getDetail'], ['POST', '/crm/cost/add'], ['PUT', '/crm/cost/update'], ['POST', '/crm/cost/approve']] as const)
      expect((await call(weekly, method, url, {})).status, url).toBe(403)
    expect((await t.call('GET', '/crm/cost/list')).status).toBe(401)
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
      for (const [method, url] of [['GET', '/crm/cost/list'], ['GET', '/crm/cost/approveList'], ['GET', '/crm/cost/getManagerId'], ['GET', '/crm/cost/getDetail'], ['POST', '/crm/cost/add'], ['PUT', '/crm/cost/update'], ['POST', '/crm/cost/approve']] as const) {
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
