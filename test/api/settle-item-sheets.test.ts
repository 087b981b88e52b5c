import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { stockClient } from '../support/stock-helpers.js'

type Doc = { id: string; code: string; status: number; settleStatus: number; totalAmount: string; details: Record<string, unknown>[]; [k: string]: unknown }

describe('settlement fee sheets and pre-sheets (both sides)', () => {
  let t: TestApp
  let f: TradeFixtures
  let c: ReturnType<typeof stockClient>
  let inItem: string
  let outItem: string
  let offItem: string

  beforeAll(async () => {
    t = await startTestApp()
    const token = await t.login()
    f = await createTradeFixtures(t, token)
    c = stockClient(t, token)
    inItem = await c.ok<string>('POST', '/settle/item/in', { code: 'IN01', name: '返利收入' })
    outItem = await c.ok<string>('POST', '/settle/item/out', { code: 'OUT01', name: '运费' })
    offItem = await c.ok<string>('POST', '/settle/item/out', { code: 'OUT02', name: '装卸费' })
    await c.ok('PATCH', '/settle/item/out/unable/batch', [offItem])
  })
  afterAll(async () => t?.close())

  it('derives the total from the item lines exactly, ignores a client total, starts 未结算 and answers item names', async () => {
    const id = await c.ok<string>('POST', '/settle/feesheet', {
      supplierId: f.supplierId,
      sheetType: 2,
      totalAmount: '999.99',
      products: [{ itemId: outItem, amount: '0.10', description: '一' }],
    })
    const doc = await c.ok<Doc>('GET', '/settle/feesheet', undefined, { id })
    expect(doc).toMatchObject({ status: 0, settleStatus: 0, sheetType: 2, supplierId: f.supplierId, supplierName: 'F供应商' })
    expect(Number(doc.totalAmount).toFixed(2)).toBe('0.10')
    expect(doc.details).toMatchObject([{ itemId: outItem, itemCode: 'OUT01', itemName: '运费', description: '一' }])
    expect(Number(doc.details[0].amount).toFixed(2)).toBe('0.10')

    await c.ok('PUT', '/settle/feesheet', { id, supplierId: f.supplierId, sheetType: 2, products: [{ itemId: outItem, amount: '0.20' }, { itemId: offItem, amount: '0.10' }].slice(0, 1) })
    expect(Number((await c.ok<Doc>('GET', '/settle/feesheet', undefined, { id })).totalAmount).toFixed(2)).toBe('0.20')
    await c.ok('PATCH', '/settle/feesheet/approve/pass', { id })
    expect(await c.ok<Doc>('GET', '/settle/feesheet', undefined, { id })).toMatchObject({ status: 3, settleStatus: 0 })
  })

  it('refuses lines of the wrong kind, disabled items, repeats, bad amounts and no lines, writing nothing', async () => {
    const before = (await c.ok<{ totalCount: number }>('GET', '/settle/feesheet/query')).totalCount
    const fail = async (body: Record<string, unknown>, msg: string) => {
      const r = await c.call('POST', '/settle/feesheet', { supplierId: f.supplierId, sheetType: 2, ...body })
      expect(r.body.msg).toBe(msg)
      expect(r.status).toBe(400)
    }
    await fail({ products: [{ itemId: inItem, amount: '1' }] }, '第1行项目不是支出项目，请重新选择！')
    await fail({ sheetType: 1, products: [{ itemId: outItem, amount: '1' }] }, '第1行项目不是收入项目，请重新选择！')
    await fail({ products: [{ itemId: offItem, amount: '1' }] }, '第1行项目“装卸费”已停用！')
    await fail({ products: [{ itemId: outItem, amount: '1' }, { itemId: outItem, amount: '2' }] }, '第2行项目重复，请检查！')
    await fail({ products: [{ itemId: outItem, amount: '0' }] }, '第1行项目金额必须大于0')
    await fail({ products: [{ itemId: outItem, amount: '1.001' }] }, '第1行项目金额最多允许2位小数！')
    await fail({ products: [] }, '供应商费用单中的项目不能为空！')
    expect((await c.ok<{ totalCount: number }>('GET', '/settle/feesheet/query')).totalCount).toBe(before)
  })

  it('customer fee sheets take 收入项目 for 应收款; pre-sheets take their side’s items', async () => {
    const fee = await c.ok<string>('POST', '/customer/settle/feesheet', { customerId: f.customerId, sheetType: 1, products: [{ itemId: inItem, amount: '12.34' }] })
    expect(await c.ok<Doc>('GET', '/customer/settle/feesheet', undefined, { id: fee })).toMatchObject({ customerId: f.customerId, settleStatus: 0, details: [{ itemName: '返利收入' }] })
    const pre = await c.ok<string>('POST', '/settle/presheet/approve/pass/direct', { supplierId: f.supplierId, products: [{ itemId: outItem, amount: '100.00' }, { itemId: offItem, amount: '0.01' }].slice(0, 1) })
    expect(await c.ok<Doc>('GET', '/settle/presheet', undefined, { id: pre })).toMatchObject({ status: 3, settleStatus: 0, details: [{ itemName: '运费' }] })
    const r = await c.call('POST', '/customer/settle/presheet', { customerId: f.customerId, products: [{ itemId: outItem, amount: '1' }] })
    expect(r.body.msg).toBe('第1行项目不是收入项目，请重新选择！')
    const ok = await c.ok<string>('POST', '/customer/settle/presheet', { customerId: f.customerId, products: [{ itemId: inItem, amount: '5' }] })
    expect(Number((await c.ok<Doc>('GET', '/customer/settle/presheet', undefined, { id: ok })).totalAmount).toFixed(2)).toBe('5.00')
  })
})
