import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, today, type Page, type Candidate } from '../support/settle-helpers.js'
import type { Doc } from '../support/sale-helpers.js'

describe('settlement cycle: documents → check sheet → settle sheets → 已结算, ledger at 0; concurrency', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const h = settleHelpers(() => t, () => token)
  const { ok, call } = h
  let outItem: string
  let inItem: string

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
    await h.items('C')
    outItem = String((await h.db().selectFrom('settle_out_item').select('id').executeTakeFirstOrThrow()).id)
    inItem = String((await h.db().selectFrom('settle_in_item').select('id').executeTakeFirstOrThrow()).id)
  })
  afterAll(async () => t?.close())

  it('supplier: purchase → receive → return → fee → pre → check → two partial payments → all 已结算, balance 0', async () => {
    const orderId = await ok<string>('POST', '/purchase/order/approve/pass/direct', {
      scId: f.scA, supplierId: f.supplierId, expectArriveDate: '2026-12-01',
      products: [{ productId: f.p1, orderNum: 10, taxPrice: '10.10', taxRate: 17 }, { productId: f.p3, orderNum: 3, taxPrice: '0.10' }],
      payTypes: [{ id: f.payTypeId, payAmount: '101.30' }],
    })
    const orderLines = (await ok<Doc>('GET', '/purchase/order', undefined, { id: orderId })).details as { id: string; productId: string }[]
    const receive = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', {
      purchaseOrderId: orderId,
      products: orderLines.map((l) => ({ productId: l.productId, orderNum: l.productId === f.p1 ? 10 : 3, purchaseOrderDetailId: l.id })),
    })
    const rLine = ((await ok<Doc>('GET', '/purchase/receive/sheet', undefined, { id: receive })).details as { id: string; productId: string }[]).find((l) => l.productId === f.p1)!
    const ret = await ok<string>('POST', '/purchase/return/approve/pass/direct', { receiveSheetId: receive, products: [{ productId: f.p1, orderNum: 4, receiveSheetDetailId: rLine.id }] })
    const fee = await ok<string>('POST', '/settle/feesheet/approve/pass/direct', { supplierId: f.supplierId, sheetType: 2, products: [{ itemId: outItem, amount: '12.34' }] })
    const pre = await ok<string>('POST', '/settle/presheet/approve/pass/direct', { supplierId: f.supplierId, products: [{ itemId: outItem, amount: '50.00' }] })
    // 101.30 − 40.40 + 12.34 − 50.00 = 23.24 owed to the supplier.
    expect(await h.balance(1, f.supplierId)).toBe('23.24')
    expect(await h.outstanding(receive)).toBe('101.30')

    const candidates = await h.unchecked('/settle/checksheet/uncheck-items', { supplierId: f.supplierId, startTime: today(), endTime: today() })
    expect(candidates.datas.map((c) => c.bizId).sort()).toEqual([receive, ret, fee, pre].sort())
    const check = await ok<string>('POST', '/settle/checksheet', { supplierId: f.supplierId, startDate: today(), endDate: today(), products: candidates.datas.map((c) => ({ bizId: c.bizId, payAmount: c.payAmount })) })
    await ok('PATCH', '/settle/checksheet/approve/pass', { id: check })
    expect(await ok<Doc>('GET', '/settle/checksheet', undefined, { id: check })).toMatchObject({ totalAmount: '23.24', totalPayAmount: '23.24' })
    expect(await h.balance(1, f.supplierId)).toBe('23.24')
    expect(await h.outstanding(receive)).toBe('0.00')
    expect(await h.outstanding(check)).toBe('23.24')

    await ok('POST', '/settle/sheet/approve/pass/direct', { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '10.00', discountAmount: '0.24' }] })
    expect(await h.balance(1, f.supplierId)).toBe('13.00')
    for (const [table, id] of [['tbl_receive_sheet', receive], ['tbl_purchase_return', ret], ['settle_fee_sheet', fee], ['settle_pre_sheet', pre], ['settle_check_sheet', check]])
      expect(await h.settleOf(table, id)).toBe(1)
    const rest = await ok<Page<{ bizId: string; payAmount: string }>>('GET', '/settle/sheet/unsettle-items', undefined, { supplierId: f.supplierId })
    expect(rest.datas).toMatchObject([{ bizId: check, payAmount: '13.00' }])
    await ok('POST', '/settle/sheet/approve/pass/direct', { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: rest.datas[0].payAmount }] })
    for (const [table, id] of [['tbl_receive_sheet', receive], ['tbl_purchase_return', ret], ['settle_fee_sheet', fee], ['settle_pre_sheet', pre], ['settle_check_sheet', check]])
      expect(await h.settleOf(table, id)).toBe(3)
    expect(await ok<Doc>('GET', '/purchase/receive/sheet', undefined, { id: receive })).toMatchObject({ settleStatus: 3 })
    expect(await h.balance(1, f.supplierId)).toBe('0.00')
    expect(await h.outstanding(check)).toBe('0.00')
  })

  it('customer: sale out → sale return → fee → pre-receipt → check → two payments → all 已结算, balance 0', async () => {
    await h.stockIn(f.scA, f.codSupplierId, [{ productId: f.p2, orderNum: 10, taxPrice: '20.00' }])
    const out = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p2, orderNum: 5, taxPrice: '30.00' }] })
    const oLine = ((await ok<Doc>('GET', '/sale/out/sheet', undefined, { id: out })).details as { id: string }[])[0]
    await ok('PUT', '/sale/config', { saleReturnRequireOutStock: true })
    const ret = await ok<string>('POST', '/sale/return/approve/pass/direct', { outSheetId: out, products: [{ productId: f.p2, orderNum: 1, outSheetDetailId: oLine.id }] })
    const fee = await ok<string>('POST', '/customer/settle/feesheet/approve/pass/direct', { customerId: f.customerId, sheetType: 1, products: [{ itemId: inItem, amount: '7.77' }] })
    const pre = await ok<string>('POST', '/customer/settle/presheet/approve/pass/direct', { customerId: f.customerId, products: [{ itemId: inItem, amount: '100.00' }] })
    // 150.00 − 30.00 + 7.77 − 100.00 = 27.77 owed by the customer.
    expect(await h.balance(2, f.customerId)).toBe('27.77')
    const candidates = await h.unchecked('/customer/settle/checksheet/uncheck-items', { customerId: f.customerId })
    expect(candidates.datas.map((c) => c.bizId).sort()).toEqual([out, ret, fee, pre].sort())
    const check = await ok<string>('POST', '/customer/settle/checksheet/approve/pass/direct', {
      customerId: f.customerId, startDate: today(), endDate: today(), products: candidates.datas.map((c) => ({ bizId: c.bizId, payAmount: c.payAmount })),
    })
    const sheet = (payAmount: string, discountAmount = '0') =>
      ok('POST', '/customer/settle/sheet/approve/pass/direct', { customerId: f.customerId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount, discountAmount }] })
    await sheet('20.00')
    expect(await h.balance(2, f.customerId)).toBe('7.77')
    await sheet('7.00', '0.77')
    for (const [table, id] of [['tbl_sale_out_sheet', out], ['tbl_sale_return', ret], ['customer_settle_fee_sheet', fee], ['customer_settle_pre_sheet', pre], ['customer_settle_check_sheet', check]])
      expect(await h.settleOf(table, id)).toBe(3)
    expect(await h.balance(2, f.customerId)).toBe('0.00')
  })

  it('50 concurrent settle-sheet approvals at one remainder: exactly the ones that fit succeed, never more than remains', async () => {
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
    const receive = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 20, taxPrice: '10.00' }] })
    const check = await ok<string>('POST', '/settle/checksheet/approve/pass/direct', { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: receive, payAmount: '200.00' }] })
    const sheets: string[] = []
    for (let i = 0; i < 50; i++)
      sheets.push(await ok<string>('POST', '/settle/sheet', { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '7.50', discountAmount: '0.50' }] }))
    const results = await Promise.all(sheets.map((id) => call('PATCH', '/settle/sheet/approve/pass', { id })))
    const passed = results.filter((r) => r.body.code === 200)
    expect(passed).toHaveLength(25)
    for (const r of results.filter((x) => x.body.code !== 200)) expect(r.body.msg).toMatch(/^对账单：\d+，剩余付款金额为0\.00元，本次付款金额为8\.00元，无法结算！$/)
    expect(await ok<Doc>('GET', '/settle/checksheet', undefined, { id: check })).toMatchObject({ settleStatus: 3, totalPayedAmount: '187.50', totalDiscountAmount: '12.50' })
    expect(await h.outstanding(check)).toBe('0.00')
    expect(await h.settleOf('tbl_receive_sheet', receive)).toBe(3)
    const approved = await h.db().selectFrom('settle_sheet').select('id').where('id', 'in', sheets).where('status', '=', 3).execute()
    expect(approved).toHaveLength(25)
  })

  it('two check sheets racing for one document: exactly one wins', async () => {
    const receive = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }] })
    for (let round = 0; round < 3; round++) {
      const body = { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: receive, payAmount: '10.00' }] }
      const results = await Promise.all([call<string>('POST', '/settle/checksheet', body), call<string>('POST', '/settle/checksheet', body), call<string>('POST', '/settle/checksheet/approve/pass/direct', body)])
      const won = results.filter((r) => r.body.code === 200)
      expect(won).toHaveLength(1)
      for (const r of results.filter((x) => x.body.code !== 200)) expect(r.body.msg).toMatch(/^单号：\d+，采购收货单已在供应商对账单\d+中，业务无法进行！$/)
      const held = await h.db().selectFrom('settle_check_sheet_detail').select('sheet_id').where('biz_id', '=', receive).execute()
      expect(held).toHaveLength(1)
      expect(await h.settleOf('tbl_receive_sheet', receive)).toBe(1)
      if (round < 2) {
        const winner = won[0].body.data
        const doc = await ok<Doc>('GET', '/settle/checksheet', undefined, { id: winner })
        if (doc.status === 3) break
        await ok('DELETE', '/settle/checksheet', { id: winner })
        expect(await h.settleOf('tbl_receive_sheet', receive)).toBe(0)
      }
    }
    const page = await h.unchecked('/settle/checksheet/uncheck-items', { supplierId: f.supplierId })
    expect(page.datas.map((c: Candidate) => c.bizId)).not.toContain(receive)
  })
})
