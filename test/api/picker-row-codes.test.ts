import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { stockClient } from '../support/stock-helpers.js'

type Row = Record<string, unknown> & { id: string }
type Page = { datas: Row[]; totalCount: number }

/**
 * Spec 000 §3: picker rows carry the codes of their warehouse and supplier beside the names
 * (purchase order / receive sheet: scCode, scName, supplierCode, supplierName; take plan and
 * pre-take sheet: scCode), and an adjust reason has a shortName.
 */
describe('picker rows: ref codes beside names, adjust reason short name', () => {
  let t: TestApp
  let f: TradeFixtures
  let c: ReturnType<typeof stockClient>
  let orderId: string
  let receiveId: string

  beforeAll(async () => {
    t = await startTestApp()
    const token = await t.login()
    f = await createTradeFixtures(t, token, 'PRC')
    c = stockClient(t, token)
    orderId = await c.ok<string>('POST', '/purchase/order/approve/pass/direct', {
      scId: f.scA,
      supplierId: f.supplierId,
      products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: '20.00' }],
    })
    receiveId = await c.receive(f.scB, f.supplierId, [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }])
  })
  afterAll(async () => t?.close())

  const codes = { scCode: 'PRCSCA', scName: 'PRC一号仓', supplierCode: 'PRCS1', supplierName: 'PRC供应商' }

  it('answers scCode and supplierCode on purchase-order picker rows, their load and the sale side query', async () => {
    const page = await c.ok<Page>('GET', '/selector/purchaseorder', undefined, { code: '' })
    expect(page.datas.find((r) => r.id === orderId)).toMatchObject(codes)
    const loaded = await c.ok<Row[]>('POST', '/selector/purchaseorder/load', [orderId])
    expect(loaded[0]).toMatchObject(codes)
    const sale = await c.ok<Page>('GET', '/purchase/order/saleQuery')
    expect(sale.datas.find((r) => r.id === orderId)).toMatchObject(codes)
  })

  it('answers scCode and supplierCode on receive-sheet picker rows', async () => {
    const page = await c.ok<Page>('GET', '/selector/receivesheet')
    expect(page.datas.find((r) => r.id === receiveId)).toMatchObject({ ...codes, scCode: 'PRCSCB', scName: 'PRC二号仓' })
  })

  it('answers scCode on take-plan and pre-take-sheet picker rows', async () => {
    const planId = await c.ok<string>('POST', '/stock/take/plan', { scId: f.scA, takeType: 1 })
    const plans = await c.ok<Page>('GET', '/selector/takestock/plan', undefined, { scId: f.scA })
    expect(plans.datas.find((r) => r.id === planId)).toMatchObject({ scCode: 'PRCSCA', scName: 'PRC一号仓' })
    const pre = await c.ok<string>('POST', '/stock/take/pre', { scId: f.scA, takeStatus: 0, products: [{ productId: f.p1, firstNum: 1 }] })
    const pres = await c.ok<Page>('GET', '/selector/takestock/pre')
    expect(pres.datas.find((r) => r.id === pre)).toMatchObject({ scCode: 'PRCSCA', scName: 'PRC一号仓' })
  })

  it('keeps an adjust reason short name and answers it in the picker', async () => {
    const id = await c.ok<string>('POST', '/stock/adjust/reason', { code: 'SN1', name: '盘亏报损', shortName: ' 盘亏 ' })
    expect(await c.ok<Row>('GET', '/stock/adjust/reason', undefined, { id })).toMatchObject({ shortName: '盘亏' })
    const page = await c.ok<Page>('GET', '/selector/stock/adjust/reason', undefined, { code: 'SN1' })
    expect(page.datas).toEqual([expect.objectContaining({ id, code: 'SN1', shortName: '盘亏' })])
    const long = await c.call('POST', '/stock/adjust/reason', { code: 'SN2', name: '原因', shortName: 'x'.repeat(21) })
    expect(long.body.code).not.toBe(200)
    expect((await c.ok<Page>('GET', '/selector/stock/adjust/reason', undefined, { code: 'SN2' })).datas).toEqual([])
  })

  it('states the codes and names in the OpenAPI record of the purchase order', async () => {
    const doc = t.app.openApi() as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }
    const record = Object.entries(doc.components.schemas).find(([name]) => name === 'Record.purchaseOrder')?.[1]
    expect(Object.keys(record?.properties ?? {})).toEqual(expect.arrayContaining(['scCode', 'scName', 'supplierCode', 'supplierName']))
  })
})
