import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers } from '../support/sale-helpers.js'

type Page<T> = { datas: T[]; totalCount: number }
type Invoice = { id: string; invoiceNo: string; amount: string; taxAmount: string; direction: number; supplierId: string | null; customerId: string | null }

/** Invoices: 收付款发票 within their payment, 开票 within an approved document, and the one query over both. */
describe('settlement invoices', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  let paymentId: string
  let paymentCode: string
  const { call, ok, db, stockIn } = saleHelpers(() => t, () => token)
  const refused = async (method: 'GET' | 'POST' | 'PUT', url: string, body: unknown, msg: string) => {
    const r = await call(method, url, body)
    expect(r.body.msg, url).toBe(msg)
    expect(r.status).toBe(400)
  }
  const invoiced = async (id: string) =>
    String((await db().selectFrom('settle_payment').select('invoiced_amount').where('id', '=', id).executeTakeFirstOrThrow()).invoiced_amount)

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'V')
    paymentId = await ok<string>('POST', '/settle/payments/create', { direction: 2, supplierId: f.supplierId, payTypeId: f.payTypeId, payDate: '2026-11-20', amount: '226.00' })
    paymentCode = (await ok<{ code: string }>('GET', '/settle/payments/show', undefined, { id: paymentId })).code
  })
  afterAll(async () => t?.close())

  it('records invoices of a payment up to its amount, with the tax derived on the server', async () => {
    const base = { paymentId, invoiceType: 2, invoiceDate: '2026-11-21', taxRate: 13 }
    const id = await ok<string>('POST', '/settle/paymentsInvoice/create', { ...base, invoiceNo: '12345678', amount: '113.00', taxAmount: '99' })
    expect(await ok('GET', '/settle/paymentsInvoice/show', undefined, { id })).toMatchObject({
      invoiceNo: '12345678', amount: '113.00', taxAmount: '13.00', direction: 2, supplierId: f.supplierId, customerId: null, invoiceType: 2,
    })
    expect(await invoiced(paymentId)).toBe('113.00')
    await refused('POST', '/settle/paymentsInvoice/create', { ...base, invoiceNo: '12345679', amount: '113.01' }, `收付款${paymentCode}剩余可开票金额为113.00元，本次开票金额为113.01元，无法保存！`)
    await refused('POST', '/settle/paymentsInvoice/create', { ...base, invoiceNo: '12345678', amount: '1' }, '发票号码12345678已存在，请勿重复登记！')
    await refused('POST', '/settle/paymentsInvoice/create', { ...base, invoiceNo: '12A', amount: '1' }, '发票号码只能是数字')
    await refused('POST', '/settle/paymentsInvoice/create', { ...base, invoiceNo: '1', amount: '1', taxRate: 101 }, '税率不能大于100')
    expect(await invoiced(paymentId)).toBe('113.00')

    // update gives the old amount back first; more than the payment is still refused.
    await ok('POST', '/settle/paymentsInvoice/update', { id, amount: '226', taxRate: 6 })
    expect(await ok('GET', '/settle/paymentsInvoice/show', undefined, { id })).toMatchObject({ amount: '226.00', taxAmount: '12.79' })
    await refused('POST', '/settle/paymentsInvoice/update', { id, amount: '226.01' }, `收付款${paymentCode}剩余可开票金额为226.00元，本次开票金额为226.01元，无法保存！`)
    await ok('POST', '/settle/paymentsInvoice/update', { id, amount: '100' })
    expect(await invoiced(paymentId)).toBe('100.00')
    // A payment cannot drop below what is invoiced.
    await refused('POST', '/settle/payments/update', { id: paymentId, amount: '99.99' }, '金额不能小于已开票金额100.00元！')

    // createMore: all or nothing.
    await refused('POST', '/settle/paymentsInvoice/createMore', [
      { ...base, invoiceNo: '20000001', amount: '100' },
      { ...base, invoiceNo: '20000002', amount: '26.01' },
    ], `第2条：收付款${paymentCode}剩余可开票金额为26.00元，本次开票金额为26.01元，无法保存！`)
    expect(await invoiced(paymentId)).toBe('100.00')
    expect(await ok<string[]>('POST', '/settle/paymentsInvoice/createMore', { list: [
      { ...base, invoiceNo: '20000001', amount: '100' },
      { ...base, invoiceNo: '20000002', amount: '26' },
    ] })).toHaveLength(2)
    expect(await invoiced(paymentId)).toBe('226.00')

    const mine = await ok<Invoice[]>('GET', '/settle/paymentsInvoice/showList', undefined, { paymentId })
    expect(mine.map((i) => i.invoiceNo).sort()).toEqual(['12345678', '20000001', '20000002'])
    const page = await ok<Page<Invoice>>('GET', '/settle/paymentsInvoice/queryList', undefined, { invoiceNo: '2000', pageSize: '1' })
    expect(page.totalCount).toBe(2)
    expect(page.datas).toHaveLength(1)
  })

  it('invoices an approved receive sheet (开票管理) up to its total and lists every invoice in one query', async () => {
    const sheetId = await stockIn(f.scA, f.supplierId, [{ productId: f.p1, orderNum: 2, taxPrice: '50.00' }])
    const sheet = await ok<{ code: string }>('GET', '/purchase/receive/sheet', undefined, { id: sheetId })
    const base = { bizType: 2, bizCode: sheet.code, invoiceType: 1, invoiceDate: '2026-11-22', taxRate: 0 }
    const id = await ok<string>('POST', '/settle/invoice/export', { ...base, invoiceNo: '30000001', amount: '60' })
    expect(await ok('GET', '/settle/invoice/export', undefined, { id })).toMatchObject({ bizId: sheetId, bizAmount: '100.00', direction: 2, supplierId: f.supplierId, taxAmount: '0.00' })
    await refused('POST', '/settle/invoice/export', { ...base, invoiceNo: '30000002', amount: '40.01' }, `采购收货单：${sheet.code}剩余可开票金额为40.00元，本次开票金额为40.01元，无法保存！`)
    await refused('POST', '/settle/invoice/export', { ...base, bizCode: 'NOPE', invoiceNo: '30000002', amount: '1' }, '采购收货单不存在：NOPE')
    await ok('PUT', '/settle/invoice/export', { id, amount: '100' })
    await refused('POST', '/settle/invoice/export', { ...base, invoiceNo: '30000002', amount: '0.01' }, `采购收货单：${sheet.code}剩余可开票金额为0.00元，本次开票金额为0.01元，无法保存！`)

    const all = await ok<Page<Invoice & { source: number; bizCode: string; supplierName: string }>>('GET', '/settle/invoice/query', undefined, { supplierId: f.supplierId })
    expect(all.totalCount).toBe(4)
    expect(all.datas.find((i) => i.source === 2)).toMatchObject({ bizCode: sheet.code, amount: '100.00', supplierName: 'V供应商' })
    expect(all.datas.filter((i) => i.source === 1).map((i) => i.bizCode)).toEqual([paymentCode, paymentCode, paymentCode])
    const byNo = await ok<Page<Invoice>>('GET', '/settle/invoice/query', undefined, { invoiceNo: '3000', invoiceDateStart: '2026-11-22', invoiceDateEnd: '2026-11-22' })
    expect(byNo.datas.map((i) => i.invoiceNo)).toEqual(['30000001'])
    expect((await ok<Page<Invoice>>('GET', '/settle/invoice/query', undefined, { invoiceDateEnd: '2026-11-20' })).totalCount).toBe(0)
    expect((await call('GET', '/settle/invoice/query', undefined, { invoiceNo: '12%' })).body.msg).toBe('发票号码只能是数字')
  })

  it('20 concurrent invoices never exceed their payment', { timeout: 120_000 }, async () => {
    const id = await ok<string>('POST', '/settle/payments/create', { direction: 1, customerId: f.customerId, payTypeId: f.payTypeId, payDate: '2026-11-20', amount: '50.00' })
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/cloud-api/settle/paymentsInvoice/create',
          headers: { 'x-auth-token': token, 'content-type': 'application/json' },
          payload: JSON.stringify({ paymentId: id, invoiceType: 1, invoiceNo: String(40000000 + i), invoiceDate: '2026-11-23', amount: '5.00', taxRate: 13 }),
        }),
      ),
    )
    expect(answers.every((a) => a.statusCode < 500)).toBe(true)
    expect(answers.filter((a) => (JSON.parse(a.body) as { code: number }).code === 200)).toHaveLength(10)
    expect(await invoiced(id)).toBe('50.00')
  })
})
