import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type CallResult, type TestApp } from '../support/test-app.js'

/**
 * Two clerks saving the same code in the same moment: the store's uniqueness check runs before the insert, so on
 * PostgreSQL (read committed, many connections) both may pass it and the unique index then refuses one. That
 * refusal must reach the user as the field's own message (the losing transaction runs again and now sees the
 * winner's row), never as a 500, and nothing of the loser is written. Creates against creates, and a modify
 * racing a create for the same code.
 */
describe('unique values under concurrent writers', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
  })
  afterAll(async () => {
    await t?.close()
  })

  const brands = async (code: string) => {
    const r = await t.call<{ count: number; datas: { code: string }[] }>('GET', '/basedata/product/brand/query', { token: admin, query: { code, pageIndex: '1', pageSize: '50' } })
    return r.body.data.datas.filter((b) => b.code === code)
  }
  const expectOneWinner = (answers: CallResult[], loserMessage: string) => {
    for (const a of answers) expect(a.status, a.raw).toBeLessThan(500)
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1)
    for (const a of answers.filter((x) => x.body.code !== 200)) expect([loserMessage, '操作冲突，请稍后重试'], a.raw).toContain(a.body.msg)
  }

  it('twelve creates of one brand code: one is saved, the others are told 编号重复', async () => {
    const code = `UR${Date.now() % 1_000_000}`
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.call('POST', '/basedata/product/brand', { token: admin, body: { code, name: `并发品牌${i}`, available: true } })),
    )
    expectOneWinner(answers, '编号重复，请重新输入')
    expect(await brands(code)).toHaveLength(1)
  })

  it('modifies of two brands to one new code against creates of it: one holder, no 500', async () => {
    const code = `UM${Date.now() % 1_000_000}`
    const ids: string[] = []
    for (const n of [1, 2]) {
      const r = await t.call<string>('POST', '/basedata/product/brand', { token: admin, body: { code: `${code}X${n}`, name: `待改品牌${n}`, available: true } })
      expect(r.body.code, r.raw).toBe(200)
      ids.push(r.body.data)
    }
    const answers = await Promise.all([
      ...ids.map((id, n) => t.call('PUT', '/basedata/product/brand', { token: admin, body: { id, code, name: `待改品牌${n + 1}`, available: true } })),
      ...[1, 2, 3].map((n) => t.call('POST', '/basedata/product/brand', { token: admin, body: { code, name: `抢注品牌${n}`, available: true } })),
    ])
    expectOneWinner(answers, '编号重复，请重新输入')
    expect(await brands(code)).toHaveLength(1)
  })
})
