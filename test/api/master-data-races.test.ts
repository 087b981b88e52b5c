import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type CallResult, type TestApp } from '../support/test-app.js'

/**
 * Master data written by many hands in the same moment (PostgreSQL: many connections, read committed).
 *
 * Two clerks saving the same code in the same moment: the store's uniqueness check runs before the insert, so on
 * PostgreSQL (read committed, many connections) both may pass it and the unique index then refuses one. That
 * refusal must reach the user as the field's own message (the losing transaction runs again and now sees the
 * winner's row), never as a 500, and nothing of the loser is written. Creates against creates, and a modify
 * racing a create for the same code.
 */
describe('master data under concurrent writers', () => {
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

  it('a category deleted while products naming it are saved: either the delete is refused or no product names it', async () => {
    const tag = Date.now() % 1_000_000
    const brand = await t.call<string>('POST', '/basedata/product/brand', { token: admin, body: { code: `RB${tag}`, name: `引用品牌${tag}`, available: true } })
    for (let round = 0; round < 4; round++) {
      const category = await t.call<string>('POST', '/basedata/product/category', { token: admin, body: { code: `RC${tag}${round}`, name: `引用类目${tag}${round}`, available: true } })
      expect(category.body.code, category.raw).toBe(200)
      const product = (n: number) =>
        t.call('POST', '/basedata/product', {
          token: admin,
          body: { code: `RP${tag}${round}${n}`, name: `引用商品${n}`, skuCode: `RS${tag}${round}${n}`, categoryId: category.body.data, brandId: brand.body.data, productType: 1, taxRate: 17, saleTaxRate: 17 },
        })
      const remove = t.call('DELETE', '/basedata/product/category', { token: admin, body: { id: category.body.data } })
      const answers = await Promise.all([product(1), product(2), remove, product(3), product(4)])
      for (const a of answers) expect(a.status, a.raw).toBeLessThan(500)
      const deleted = (await remove).body.code === 200
      const saved = answers.filter((a, i) => i !== 2 && a.body.code === 200).length
      if (deleted) {
        expect(saved, 'products saved naming a deleted category').toBe(0)
        for (const a of answers.filter((_, i) => i !== 2)) expect(a.body.msg, a.raw).toMatch(/不存在/)
      } else {
        expect((await remove).body.msg).toMatch(/已被商品(引用|使用)，不允许删除！/)
        expect(saved).toBeGreaterThan(0)
      }
    }
  })
})
