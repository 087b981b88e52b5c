import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, today, type Page, type SettleCandidate } from '../support/settle-helpers.js'
import type { Doc } from '../support/sale-helpers.js'

const URL = '/settle/sheet'
const UNSETTLED = '/settle/sheet/unsettle-items'
const CHECK = '/settle/checksheet'

describe('settle sheets (结算单): candidates, sign rules, guarded payments', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const h = settleHelpers(() => t, () => token)
  const { ok, call } = h
  let docs: Awaited<ReturnType<typeof h.supplierDocs>>
  /** Check sheet of receive + fee 应付: 25.00 to pay. */
  let positive: string
  /** Check sheet of return, fee 应收 and pre-sheet: −42.00. */
  let negative: string
  let pendingCheck: string

  const header = (extra: Record<string, unknown> = {}) => ({ supplierId: f.supplierId, startDate: today(), endDate: today(), ...extra })
  const candidates = async (query: Record<string, string> = {}) =>
    ok<Page<SettleCandidate>>('GET', UNSETTLED, undefined, { supplierId: f.supplierId, pageIndex: '1', pageSize: '50', ...query })
  const checkSheet = async (lines: [string, string][], approve = true) =>
    ok<string>('POST', approve ? `${CHECK}/approve/pass/direct` : CHECK, { ...header(), products: lines.map(([bizId, payAmount]) => ({ bizId, payAmount })) })
  const code = async (id: string) => (await ok<Doc>('GET', CHECK, undefined, { id })).code

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
    await h.items('S')
    docs = await h.supplierDocs(f)
    positive = await checkSheet([[docs.receive, '20.00'], [docs.feePay, '5.00']])
    negative = await checkSheet([[docs.ret, '-10.00'], [docs.feeReceive, '-2.00'], [docs.pre, '-30.00']])
    const extra = await h.supplierDocs(f)
    pendingCheck = await checkSheet([[extra.receive, '20.00']], false)
  })
  afterAll(async () => t?.close())

  it('offers approved check sheets with something left to pay, proposing what remains', async () => {
    const page = await candidates({ startTime: today(), endTime: today() })
    expect(page.totalCount).toBe(2)
    const byId = new Map(page.datas.map((c) => [c.bizId, c]))
    expect(byId.has(pendingCheck)).toBe(false)
    expect(byId.get(positive)).toMatchObject({ bizCode: await code(positive), totalPayAmount: '25.00', totalPayedAmount: '0.00', totalDiscountAmount: '0.00', unpaidAmount: '25.00', payAmount: '25.00', discountAmount: '0.00' })
    expect(byId.get(negative)).toMatchObject({ unpaidAmount: '-42.00', payAmount: '-42.00' })
    expect((await candidates({ pageSize: '1', pageIndex: '2' })).datas).toHaveLength(1)
    expect((await candidates({ supplierId: f.codSupplierId })).totalCount).toBe(0)
    expect((await candidates({ startTime: '2099-01-01' })).totalCount).toBe(0)
  })

  it('follows the sign of what the check sheet owes', async () => {
    const fail = async (bizId: string, payAmount: string, discountAmount: string, msg: string) => {
      const r = await call('POST', URL, { ...header(), products: [{ bizId, payAmount, discountAmount }] })
      expect(r.body.msg).toBe(msg)
      expect(r.status).toBe(400)
    }
    await fail(positive, '-1', '0', '第1行实付金额不允许小于0！')
    await fail(positive, '1', '-1', '第1行优惠金额不允许小于0！')
    await fail(positive, '0', '0', '第1行实付金额、优惠金额不能同时等于0！')
    await fail(positive, '25.00', '0.01', '第1行实付金额与优惠金额之和不允许大于未付金额25.00元！')
    await fail(negative, '1', '0', '第1行实付金额不允许大于0！')
    await fail(negative, '-1', '1', '第1行优惠金额不允许大于0！')
    await fail(negative, '-42', '-0.01', '第1行实付金额与优惠金额之和的绝对值不允许大于未付金额的绝对值42.00元！')
    await fail(pendingCheck, '1', '0', '第1行对账单不是该供应商审核通过的供应商对账单！')
    expect(await h.settleOf('settle_check_sheet', positive)).toBe(0)
  })

  it('holds the check sheet while a settle sheet is open and gives it back on modify and delete', async () => {
    const id = await ok<string>('POST', URL, { ...header({ totalAmount: '1' }), products: [{ bizId: positive, payAmount: '10.00' }] })
    const sheet = await ok<Doc>('GET', URL, undefined, { id })
    expect(sheet).toMatchObject({ status: 0, totalAmount: '10.00', totalDiscountAmount: '0.00' })
    expect(sheet.details).toMatchObject([{ bizId: positive, payAmount: '10.00', discountAmount: '0.00', unpaidAmount: '25.00', bizCode: await code(positive) }])
    expect(await h.settleOf('settle_check_sheet', positive)).toBe(1)
    expect((await candidates()).datas.map((c) => c.bizId)).toEqual([negative])
    await ok('PUT', URL, { id, ...header(), products: [{ bizId: negative, payAmount: '-2.00', discountAmount: '-0.50' }] })
    expect(await h.settleOf('settle_check_sheet', positive)).toBe(0)
    expect(await h.settleOf('settle_check_sheet', negative)).toBe(1)
    expect(await ok<Doc>('GET', URL, undefined, { id })).toMatchObject({ totalAmount: '-2.00', totalDiscountAmount: '-0.50' })
    await ok('PATCH', `${URL}/approve/refuse`, { id, refuseReason: '再议' })
    expect(await h.settleOf('settle_check_sheet', negative)).toBe(1)
    await ok('DELETE', URL, { id })
    expect(await h.settleOf('settle_check_sheet', negative)).toBe(0)
    expect((await candidates()).totalCount).toBe(2)
  })

  it('pays in parts with guarded updates; paid to exactly 0 the check sheet and its documents are 已结算', async () => {
    const first = await ok<string>('POST', `${URL}/approve/pass/direct`, { ...header(), products: [{ bizId: positive, payAmount: '10.00', discountAmount: '0.50' }] })
    const after = (await candidates()).datas.find((c) => c.bizId === positive)
    expect(after).toMatchObject({ totalPayedAmount: '10.00', totalDiscountAmount: '0.50', unpaidAmount: '14.50' })
    expect(await h.settleOf('settle_check_sheet', positive)).toBe(1)
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(1)
    expect((await h.ledger(first)).map((r) => [r.against_id, Number(r.amount).toFixed(2)])).toEqual([[positive, '-10.50']])
    expect(await h.outstanding(positive)).toBe('14.50')

    // A pending settle sheet deleted after a payment leaves the check sheet 结算中.
    const dropped = await ok<string>('POST', URL, { ...header(), products: [{ bizId: positive, payAmount: '1.00' }] })
    await ok('DELETE', URL, { id: dropped })
    expect(await h.settleOf('settle_check_sheet', positive)).toBe(1)

    // Two open sheets for the rest and one more: the second approval finds nothing left.
    const rest = await ok<string>('POST', URL, { ...header(), products: [{ bizId: positive, payAmount: '14.00', discountAmount: '0.50' }] })
    const more = await ok<string>('POST', URL, { ...header(), products: [{ bizId: positive, payAmount: '1.00' }] })
    await ok('PATCH', `${URL}/approve/pass`, { id: rest })
    const r = await call('PATCH', `${URL}/approve/pass`, { id: more })
    expect(r.body.msg).toBe(`对账单：${await code(positive)}，剩余付款金额为0.00元，本次付款金额为1.00元，无法结算！`)
    expect((await ok<Doc>('GET', URL, undefined, { id: more })).status).toBe(0)
    expect(await ok<Doc>('GET', CHECK, undefined, { id: positive })).toMatchObject({ settleStatus: 3, totalPayedAmount: '24.00', totalDiscountAmount: '1.00' })
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(3)
    expect(await h.settleOf('settle_fee_sheet', docs.feePay)).toBe(3)
    expect(await h.outstanding(positive)).toBe('0.00')
    expect((await candidates()).datas.map((c) => c.bizId)).toEqual([negative])

    // The negative check sheet in one payment.
    await ok('POST', `${URL}/approve/pass/direct`, { ...header(), products: [{ bizId: negative, payAmount: '-41.00', discountAmount: '-1.00' }] })
    expect(await h.settleOf('settle_check_sheet', negative)).toBe(3)
    for (const [table, id] of [['tbl_purchase_return', docs.ret], ['settle_fee_sheet', docs.feeReceive], ['settle_pre_sheet', docs.pre]])
      expect(await h.settleOf(table, id)).toBe(3)
    expect((await candidates()).totalCount).toBe(0)
  })

  it('refuses to settle a document twice', async () => {
    const more = await h.supplierDocs(f)
    const check = await checkSheet([[more.receive, '20.00']])
    await h.db().updateTable('tbl_receive_sheet').set({ settle_status: 3 }).where('id', '=', more.receive).execute()
    const r = await call('POST', `${URL}/approve/pass/direct`, { ...header(), products: [{ bizId: check, payAmount: '20.00' }] })
    const receiveCode = (await ok<Doc>('GET', '/purchase/receive/sheet', undefined, { id: more.receive })).code
    expect(r.body.msg).toBe(`单号：${receiveCode}，采购收货单已结算，无法重复结算！`)
    expect(await h.settleOf('settle_check_sheet', check)).toBe(0)
  })

  it('answers the whole family: query, export, batch approve, refuse and delete', async () => {
    const more = await h.supplierDocs(f)
    const check = await checkSheet([[more.receive, '20.00'], [more.feePay, '5.00']])
    const make = (payAmount: string) => ok<string>('POST', URL, { ...header(), products: [{ bizId: check, payAmount }] })
    const [a, b, c] = [await make('1.00'), await make('2.00'), await make('3.00')]
    const list = await ok<Page<Doc>>('GET', `${URL}/query`, undefined, { supplierId: f.supplierId, status: '0' })
    expect(list.datas.filter((d) => [a, b, c].includes(d.id)).map((d) => d.totalAmount).sort()).toEqual(['1.00', '2.00', '3.00'])
    expect(list.datas.find((d) => d.id === a)).toMatchObject({ supplierName: 'F供应商', totalDiscountAmount: '0.00' })
    const file = await t.call('POST', `${URL}/export`, { token, body: {} })
    expect(String(file.headers['content-type'])).toContain('spreadsheetml')
    await ok('PATCH', `${URL}/approve/pass/batch`, { ids: [a, b] })
    await ok('PATCH', `${URL}/approve/refuse/batch`, { ids: [c], refuseReason: '不付' })
    expect(await ok<Doc>('GET', CHECK, undefined, { id: check })).toMatchObject({ settleStatus: 1, totalPayedAmount: '3.00' })
    expect((await call('DELETE', `${URL}/batch`, [c, a])).body.msg).toBe('第2个供应商结算单删除失败，失败原因：“审核通过”的供应商结算单不允许执行删除操作！')
    await ok('DELETE', `${URL}/batch`, [c])
    expect(await h.settleOf('settle_check_sheet', check)).toBe(1)
    expect((await candidates()).datas.find((x) => x.bizId === check)).toMatchObject({ unpaidAmount: '22.00' })
  })

  it('serves the customer side alike', async () => {
    const c = await h.customerDocs(f)
    const check = await ok<string>('POST', '/customer/settle/checksheet/approve/pass/direct', {
      customerId: f.customerId, startDate: today(), endDate: today(), products: [{ bizId: c.out, payAmount: '30.00' }, { bizId: c.ret, payAmount: '-15.00' }],
    })
    const page = await ok<Page<SettleCandidate>>('GET', '/customer/settle/sheet/unsettle-items', undefined, { customerId: f.customerId })
    expect(page.datas).toMatchObject([{ bizId: check, unpaidAmount: '15.00' }])
    // The customer pays us: its refusals say 实收/未收 where the supplier side's say 实付/未付.
    const refused = async (payAmount: string, discountAmount: string) =>
      (await call('POST', '/customer/settle/sheet', { customerId: f.customerId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount, discountAmount }] })).body.msg
    expect(await refused('-1', '0')).toBe('第1行实收金额不允许小于0！')
    expect(await refused('0', '0')).toBe('第1行实收金额、优惠金额不能同时等于0！')
    expect(await refused('15.00', '0.01')).toBe('第1行实收金额与优惠金额之和不允许大于未收金额15.00元！')
    const pending = await ok<string>('POST', '/customer/settle/sheet', { customerId: f.customerId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '10.00' }] })
    await ok('POST', '/customer/settle/sheet/approve/pass/direct', { customerId: f.customerId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '6.00' }] })
    const late = await call('PATCH', '/customer/settle/sheet/approve/pass', { id: pending })
    expect(late.status).toBe(400)
    expect(late.body.msg).toBe(`对账单：${(await ok<Doc>('GET', '/customer/settle/checksheet', undefined, { id: check })).code}，剩余收款金额为9.00元，本次收款金额为10.00元，无法结算！`)
    await ok('POST', '/customer/settle/sheet/approve/pass/direct', { customerId: f.customerId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '9.00' }] })
    expect(await h.settleOf('customer_settle_check_sheet', check)).toBe(3)
    expect(await h.settleOf('tbl_sale_out_sheet', c.out)).toBe(3)
    expect(await h.settleOf('tbl_sale_return', c.ret)).toBe(3)
  })
})
