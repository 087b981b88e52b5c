import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'

type LogRow = { id: string; name: string; logType: number; extra: string | null; createBy: string }
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * Every create, modify, approve, refuse and delete leaves exactly one operation-log row naming the action,
 * the object and (for documents) its number, with the id in the extra information; a refused action, whose
 * transaction rolls back, leaves none. Read back through the operation-log list an administrator sees.
 */
describe('the operation log records every write', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const call = <T = unknown>(method: Method, url: string, body?: unknown) => t.call<T>(method, url, { token, body })
  const ok = async <T = unknown>(method: Method, url: string, body?: unknown) => {
    const r = await call<T>(method, url, body)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const logIds = async () => {
    const r = await t.call<{ datas: LogRow[]; totalCount: number }>('GET', '/system/oplog/query', { token, query: { pageSize: 500 } })
    expect(r.body.code).toBe(200)
    expect(r.body.data.datas.length).toBe(r.body.data.totalCount)
    return r.body.data.datas
  }
  /** The log rows `action` adds. */
  const logsOf = async (action: () => Promise<unknown>) => {
    const before = new Set((await logIds()).map((r) => r.id))
    await action()
    return (await logIds()).filter((r) => !before.has(r.id))
  }
  const only = (rows: LogRow[]) => {
    expect(rows, JSON.stringify(rows)).toHaveLength(1)
    expect(rows[0]).toMatchObject({ logType: 99, createBy: '系统管理员' })
    return { ...rows[0], extra: JSON.parse(rows[0].extra ?? 'null') as Record<string, unknown> }
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'L')
  })
  afterAll(async () => t?.close())

  it('master data: create, modify, disable, enable, delete one row each', async () => {
    let id = ''
    const created = only(await logsOf(async () => (id = await ok<string>('POST', '/basedata/supplier', { code: 'LOG-S', name: '日志供应商', settleType: 1, manageType: 1 }))))
    expect(created).toMatchObject({ name: '新增供应商', extra: { id } })
    const modified = only(await logsOf(() => ok('PUT', '/basedata/supplier', { id, code: 'LOG-S', name: '日志供应商改', settleType: 1, manageType: 1 })))
    expect(modified).toMatchObject({ name: '修改供应商', extra: { id } })
    expect(only(await logsOf(() => ok('PATCH', '/basedata/supplier/unable/batch', [id])))).toMatchObject({ name: '停用供应商', extra: { ids: [id] } })
    expect(only(await logsOf(() => ok('PATCH', '/basedata/supplier/enable/batch', [id])))).toMatchObject({ name: '启用供应商', extra: { ids: [id] } })
    const removed = only(await logsOf(() => ok('DELETE', '/basedata/supplier', { id })))
    expect(removed.name).toBe('删除供应商')
    expect(removed.extra.ids ?? [removed.extra.id]).toEqual([id])
    expect((await call('GET', `/basedata/supplier?id=${id}`)).status).toBe(404)
  })

  it('a refused write leaves no row', async () => {
    const rows = await logsOf(async () => {
      const r = await call('POST', '/basedata/supplier', { code: '', name: '' })
      expect(r.body.code).not.toBe(200)
    })
    expect(rows).toEqual([])
  })

  const order = (taxPrice = '10.00') => ({
    scId: f.scA,
    supplierId: f.supplierId,
    expectArriveDate: '2026-12-01',
    products: [{ productId: f.p1, orderNum: 2, taxPrice }],
    payTypes: [{ id: f.payTypeId, payAmount: (Number(taxPrice) * 2).toFixed(2) }],
  })
  const code = async (id: string) => (await ok<{ code: string }>('GET', `/purchase/order?id=${id}`)).code

  it('a document: create, modify, approve, refuse, delete, each with its number', async () => {
    let id = ''
    const created = only(await logsOf(async () => (id = await ok<string>('POST', '/purchase/order', order()))))
    const number = await code(id)
    expect(number).toMatch(/^\d{18}$/)
    expect(created).toMatchObject({ name: `新增采购订单，单号：${number}`, extra: { id } })
    expect(only(await logsOf(() => ok('PUT', '/purchase/order', { id, ...order('11.00') })))).toMatchObject({ name: `修改采购订单，单号：${number}`, extra: { id } })
    expect(only(await logsOf(() => ok('PATCH', '/purchase/order/approve/refuse', { id, refuseReason: '价格不对' })))).toMatchObject({
      name: `审核拒绝采购订单，单号：${number}`,
      extra: { id },
    })
    expect(only(await logsOf(() => ok('DELETE', '/purchase/order', { id })))).toMatchObject({ name: `删除采购订单，单号：${number}`, extra: { id } })

    let passed = ''
    const rows = await logsOf(async () => {
      passed = await ok<string>('POST', '/purchase/order', order())
      await ok('PATCH', '/purchase/order/approve/pass', { id: passed })
    })
    const passedNumber = await code(passed)
    expect(rows.map((r) => r.name).sort()).toEqual([`审核通过采购订单，单号：${passedNumber}`, `新增采购订单，单号：${passedNumber}`].sort())
    // Deleting an approved order is refused, and so leaves no row.
    const refused = await logsOf(async () => expect((await call('DELETE', '/purchase/order', { id: passed })).body.msg).toBe('“审核通过”的采购订单不允许执行删除操作！'))
    expect(refused).toEqual([])
  })

  it('batch approve, refuse and delete: one row per document', async () => {
    const ids = [await ok<string>('POST', '/purchase/order', order()), await ok<string>('POST', '/purchase/order', order())]
    const numbers = await Promise.all(ids.map(code))
    const refused = await logsOf(() => ok('PATCH', '/purchase/order/approve/refuse/batch', { ids, refuseReason: '重复' }))
    expect(refused.map((r) => r.name).sort()).toEqual(numbers.map((n) => `审核拒绝采购订单，单号：${n}`).sort())
    const deleted = await logsOf(() => ok('DELETE', '/purchase/order/batch', ids))
    expect(deleted.map((r) => r.name).sort()).toEqual(numbers.map((n) => `删除采购订单，单号：${n}`).sort())
    const more = [await ok<string>('POST', '/purchase/order', order()), await ok<string>('POST', '/purchase/order', order())]
    const moreNumbers = await Promise.all(more.map(code))
    const approved = await logsOf(() => ok('PATCH', '/purchase/order/approve/pass/batch', { ids: more }))
    expect(approved.map((r) => r.name).sort()).toEqual(moreNumbers.map((n) => `审核通过采购订单，单号：${n}`).sort())
  })

  it('a sale order logs the same actions under its own subject', async () => {
    let id = ''
    const body = { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, oriPrice: '15.00', discountRate: '100', taxPrice: '15.00' }], payTypes: [{ id: f.payTypeId, payAmount: '15.00' }] }
    const created = only(await logsOf(async () => (id = await ok<string>('POST', '/sale/order', body))))
    const number = (await ok<{ code: string }>('GET', `/sale/order?id=${id}`)).code
    expect(created).toMatchObject({ name: `新增销售订单，单号：${number}`, extra: { id } })
    expect(only(await logsOf(() => ok('PATCH', '/sale/order/approve/pass', { id })))).toMatchObject({ name: `审核通过销售订单，单号：${number}`, extra: { id } })
  })
})
