import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

const valid = { code: 'GYS-001', name: '杭州供应商', settleType: 1, manageType: 1 }

describe('supplier master data: the rules and messages of spec 000 §5', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const post = (body: Record<string, unknown>) => t.call<string>('POST', '/basedata/supplier', { token, body })
  const count = async () => (await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token, query: { available: '' } })).body.data.totalCount

  it.each([
    [{ ...valid, code: '' }, '请输入编号'],
    [{ ...valid, code: '编号中文' }, '编号必须由字母、数字、“-_.”组成，长度不能超过20位'],
    [{ ...valid, name: '   ' }, '请输入名称'],
    [{ ...valid, email: 'not-mail' }, '邮箱地址格式不正确'],
    [{ ...valid, settleType: undefined }, '请选择结账方式'],
    [{ ...valid, manageType: '' }, '请选择经营方式'],
    [{ ...valid, deliveryCycle: '1.5' }, '送货周期（天）必须为整数'],
    [{ ...valid, deliveryCycle: 0 }, '送货周期（天）必须大于0'],
    [{ ...valid, description: '一二三四五六七八九十一二三四五六七八九十一' }, '备注长度不能超过20个字符'],
  ])('refuses %j with %s and writes nothing', async (body, message) => {
    const before = await count()
    const r = await post(body)
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe(message)
    expect(await count()).toBe(before)
  })

  it('creates with trimmed text, the derived mnemonic code and the default manage type', async () => {
    const r = await post({ code: ' GYS-002 ', name: ' 杭州供应商 ', settleType: 2 })
    expect(r.body.code).toBe(200)
    const got = await t.call<Record<string, unknown>>('GET', '/basedata/supplier', { token, query: { id: r.body.data } })
    expect(got.body.data).toMatchObject({ code: 'GYS-002', name: '杭州供应商', mnemonicCode: 'HZGYS', manageType: 1, settleType: 2, available: true })
  })

  it('refuses a duplicate code with a clear message', async () => {
    await post({ ...valid, code: 'DUP-1' })
    const r = await post({ ...valid, code: 'DUP-1', name: '另一家' })
    expect(r.body.msg).toBe('编号重复，请重新输入')
  })

  it('does not let the settle type change after creation', async () => {
    const id = (await post({ ...valid, code: 'ST-1' })).body.data
    const r = await t.call('PUT', '/basedata/supplier', { token, body: { ...valid, id, code: 'ST-1', settleType: 2 } })
    expect(r.body.msg).toBe('结账方式创建后不允许修改')
    const ok = await t.call('PUT', '/basedata/supplier', { token, body: { ...valid, id, code: 'ST-1', name: '新名称' } })
    expect(ok.body.code).toBe(200)
  })

  it('pages, filters by contains and sorts; empty conditions are ignored', async () => {
    for (let i = 0; i < 7; i++) await post({ ...valid, code: `PG-${i}`, name: `分页${i}` })
    const page = await t.call<{ pageIndex: number; pageSize: number; totalCount: number; datas: { code: string }[] }>('GET', '/basedata/supplier/query', {
      token,
      query: { pageIndex: 2, pageSize: 5, code: 'PG-', name: '', sortField: 'code', sortOrder: 'desc' },
    })
    expect(page.body.data).toMatchObject({ pageIndex: 2, pageSize: 5, totalCount: 7 })
    expect(page.body.data.datas.map((d) => d.code)).toEqual(['PG-1', 'PG-0'])
  })

  it('treats LIKE wildcards in a condition as text', async () => {
    const r = await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token, query: { code: '%' } })
    expect(r.body.data.totalCount).toBe(0)
  })

  it('refuses an unknown sort column instead of putting it in SQL', async () => {
    const r = await t.call('GET', '/basedata/supplier/query', { token, query: { sortField: 'code; drop table x' } })
    expect(r.status).toBe(400)
  })

  it('enables and disables in batch; the picker shows enabled ones by default', async () => {
    const id = (await post({ ...valid, code: 'EN-1', name: '停用测试' })).body.data
    await t.call('PATCH', '/basedata/supplier/unable/batch', { token, body: [id] })
    const picker = await t.call<{ datas: { id: string }[] }>('GET', '/selector/supplier', { token, query: { code: 'EN-1' } })
    expect(picker.body.data.datas).toEqual([])
    const all = await t.call<{ datas: { id: string; available: boolean }[] }>('GET', '/selector/supplier', { token, query: { code: 'EN-1', available: 'all' } })
    expect(all.body.data.datas).toMatchObject([{ id, available: false }])
    const load = await t.call<{ id: string; code: string }[]>('POST', '/selector/supplier/load', { token, body: [id] })
    expect(load.body.data).toMatchObject([{ id, code: 'EN-1' }])
  })

  it('deletes a supplier nobody uses', async () => {
    const id = (await post({ ...valid, code: 'DEL-1' })).body.data
    const r = await t.call('DELETE', '/basedata/supplier', { token, body: { id } })
    expect(r.body.code).toBe(200)
    expect((await t.call('GET', '/basedata/supplier', { token, query: { id } })).status).toBe(404)
  })
})
