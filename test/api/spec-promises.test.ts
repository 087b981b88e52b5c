import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * Promises of the specification (000 and 001) that hold and are asserted nowhere else: each block
 * names the spec row it proves. Server-side only; what a user sees in the browser is in
 * test/e2e/spec-promises.spec.ts.
 */
describe('spec promises (API)', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  describe('adjust-reason add (000 §5)', () => {
    const post = (body: Record<string, unknown>) => t.call<string>('POST', '/stock/adjust/reason', { token, body })
    const count = async () =>
      (await t.call<{ totalCount: number }>('GET', '/stock/adjust/reason/query', { token, query: { available: '' } })).body.data.totalCount

    it.each([
      [{ code: '', name: '盘盈' }, '请输入编号'],
      [{ code: 'ABCDEFGHIJ-_.01234567', name: '盘盈' }, '编号必须由字母、数字、“-_.”组成，长度不能超过20位'],
      [{ code: '编号', name: '盘盈' }, '编号必须由字母、数字、“-_.”组成，长度不能超过20位'],
      [{ code: 'R-1', name: '  ' }, '请输入名称'],
      [{ code: 'R-1', name: '盘盈', description: '一二三四五六七八九十一二三四五六七八九十一' }, '备注长度不能超过20个字符'],
    ])('refuses %j with %s and writes nothing', async (body, message) => {
      const before = await count()
      const r = await post(body)
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe(message)
      expect(await count()).toBe(before)
    })

    it('adds with trimmed inputs ; 20 valid characters are accepted', async () => {
      const r = await post({ code: ' ABCDEFGHIJ-_.0123456 ', name: ' 盘盈 ', description: ' 一二三四五六七八九十一二三四五六七八九十 ' })
      expect(r.body.code).toBe(200)
      const got = await t.call<Record<string, unknown>>('GET', '/stock/adjust/reason', { token, query: { id: r.body.data } })
      expect(got.body.data).toMatchObject({ code: 'ABCDEFGHIJ-_.0123456', name: '盘盈', description: '一二三四五六七八九十一二三四五六七八九十' })
    })
  })

  describe('the wire (000 §7, §9)', () => {
    it('accepts url-encoded form posts like JSON ones', async () => {
      const r = await t.call<string>('POST', '/stock/adjust/reason', { token, form: { code: 'FORM-1', name: '表单提交', available: 'true' } })
      expect(r.body.code, r.raw).toBe(200)
      const got = await t.call<Record<string, unknown>>('GET', '/stock/adjust/reason', { token, query: { id: r.body.data } })
      expect(got.body.data).toMatchObject({ code: 'FORM-1', name: '表单提交', available: true })
    })

    it('pages 20 rows by default', async () => {
      const r = await t.call<{ pageIndex: number; pageSize: number }>('GET', '/stock/adjust/reason/query', { token })
      expect(r.body.data).toMatchObject({ pageIndex: 1, pageSize: 20 })
    })
  })
})
