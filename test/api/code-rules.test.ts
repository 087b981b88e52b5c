import dayjs from 'dayjs'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'

interface Rule {
  id: string
  name: string
  prefix: string
  dateFormat: number
  digits: number
  period: string | null
  lastValue: number
}

/**
 * Numbering rules (schemas/entities/code-rule.json): the form of a new customer, member or
 * contract proposes prefix + date + sequence from the tenant's rule. Every caller of every process gets
 * its own code, a hand-typed code is skipped, a changed rule restarts the sequence, a rule that would
 * make codes too long is refused, and only whoever may create such a record takes a code.
 */
describe('numbering rules', () => {
  let t: TestApp
  let admin: string
  const day = dayjs().format('YYYYMMDD')
  const next = (target: string, token = admin, app?: FastifyInstance) =>
    app
      ? app.inject({ method: 'POST', url: '/cloud-api/system/code-rule/next', headers: { 'x-auth-token': token, 'content-type': 'application/json' }, payload: JSON.stringify({ target }) }).then((r) => JSON.parse(r.body) as { code: number; msg: string; data: { code: string } })
      : t.call<{ code: string }>('POST', '/system/code-rule/next', { token, body: { target } }).then((r) => r.body)
  const rules = async () => (await t.call<{ datas: Rule[] }>('GET', '/system/code-rule/query', { token: admin, query: { pageSize: 50 } })).body.data.datas
  const rule = async (name: string) => (await rules()).find((r) => r.name.startsWith(name)) as Rule

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login('admin')
  }, 120_000)
  afterAll(async () => t?.close())

  it('every numbered field has its rule, listed for the admin', async () => {
    const names = (await rules()).map((r) => r.name).sort()
    // Not the supplier: the spec's supplier form asks for the code itself (请输入编号).
    expect(names).toEqual(['会员 · 编号', '合同 · 合同编号', '客户 · 编号', '菜单 · 编号'].sort())
    const customer = await rule('客户')
    expect(customer).toMatchObject({ prefix: 'KH', dateFormat: 3, digits: 4, lastValue: 0 })
  })

  it('gives customer codes in sequence, one each to a crowd, skipping a code typed by hand', async () => {
    expect((await next('customer.code')).data.code).toBe(`KH${day}0001`)
    const crowd = await Promise.all(Array.from({ length: 20 }, () => next('customer.code')))
    const codes = crowd.map((a) => a.data.code).sort()
    expect(codes).toEqual(Array.from({ length: 20 }, (_, i) => `KH${day}${String(i + 2).padStart(4, '0')}`))
    // A clerk typed the next code by hand: the rule passes over it.
    const typed = `KH${day}0022`
    const created = await t.call('POST', '/basedata/customer', { token: admin, body: { code: typed, name: '手工编号客户', mnemonicCode: 'SGBHKH', settleType: 1, available: true } })
    expect(created.body.msg, created.raw).toBe('操作成功！')
    expect((await next('customer.code')).data.code).toBe(`KH${day}0023`)
    expect(await rule('客户')).toMatchObject({ period: day, lastValue: 23 })
    // Other rules count on their own.
    expect((await next('crmContract.contractNo')).data.code).toBe(`HT${day}0001`)
  })

  it('a changed rule restarts its sequence; the counter cannot be written', async () => {
    const customer = await rule('客户')
    const saved = await t.call('PUT', '/system/code-rule', { token: admin, body: { id: customer.id, prefix: 'C-', dateFormat: 0, digits: 3, lastValue: 999, period: '1999' } })
    expect(saved.body.msg, saved.raw).toBe('操作成功！')
    expect(await rule('客户')).toMatchObject({ prefix: 'C-', dateFormat: 0, digits: 3, period: day, lastValue: 23 })
    expect((await next('customer.code')).data.code).toBe('C-001')
    expect((await next('customer.code')).data.code).toBe('C-002')
    const month = dayjs().format('YYYYMM')
    await t.call('PUT', '/system/code-rule', { token: admin, body: { id: customer.id, prefix: 'KH', dateFormat: 2, digits: 5 } })
    expect((await next('customer.code')).data.code).toBe(`KH${month}00001`)
  })

  it('refuses a rule whose codes would not fit the field, and changes nothing', async () => {
    const member = await rule('会员')
    const r = await t.call('PUT', '/system/code-rule', { token: admin, body: { id: member.id, prefix: 'ABCDEFGHIJ', dateFormat: 3, digits: 5 } })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('前缀、日期部分与流水号位数合计不能超过20位（编号的长度）')
    expect(await rule('会员')).toMatchObject({ prefix: member.prefix, dateFormat: member.dateFormat, digits: member.digits })
    const bad = await t.call('PUT', '/system/code-rule', { token: admin, body: { id: member.id, prefix: '会员', digits: 2 } })
    expect(bad.status).toBe(400)
    expect(await rule('会员')).toMatchObject({ prefix: member.prefix, digits: member.digits })
  })

  it('refuses an unknown rule and adding or deleting rules', async () => {
    for (const target of ['nothing.code', 'customer.name', '', null]) {
      const a = await next(target as string)
      expect(a.code).toBe(400)
      expect(a.msg).toBe('编号规则不存在')
    }
    expect((await t.call('POST', '/system/code-rule', { token: admin, body: { target: 'x.y', prefix: 'X', dateFormat: 0, digits: 3 } })).status).toBe(404)
    expect((await t.call('DELETE', '/system/code-rule', { token: admin, body: { ids: [(await rule('会员')).id] } })).status).toBe(404)
  })

  it('gives a code only to whoever may create such a record', async () => {
    const clerk = await userWithMenus(t, admin, 'coderulea', ['base-data:member:query', 'base-data:member:add'])
    expect((await next('member.code', clerk)).data.code).toMatch(/^HY\d{8}\d{4}$/)
    const refused = await next('customer.code', clerk)
    expect(refused.code).toBe(403)
    // CRM's 新增客户 creates customers too.
    const sales = await userWithMenus(t, admin, 'coderuleb', ['crm:customer:query', 'crm:customer:add'])
    expect((await next('customer.code', sales)).code).toBe(200)
    expect((await t.call('GET', '/system/code-rule/query', { token: clerk })).status).toBe(403)
  })

  // SQLite has one writer per file by construction; the race between processes that matters is PostgreSQL's.
  if (process.env.TEST_DB === 'postgres')
    it('two servers on the same database never give the same code', { timeout: 120_000 }, async () => {
      const second = await buildApp(t.app.services.config)
      try {
        await second.ready()
        const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => next('crmContract.contractNo', admin, i % 2 ? second : t.app)))
        const codes = answers.map((a) => a.data.code)
        // One contract code went to the crowd test above.
        expect(codes.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `HT${day}${String(i + 2).padStart(4, '0')}`))
      } finally {
        await second.close()
      }
    })
})
