import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, today, type Page, type Candidate, type SettleCandidate } from '../support/settle-helpers.js'

/**
 * What the check sheet's date defaults (`defaultAfter`) and a settle sheet made from a check sheet
 * (`madeFrom`) read, through the existing calls the page makes: the party's check sheets sorted by
 * 截止日期 (the latest end, not the latest made), the party's candidates oldest first without a date
 * range, and a check sheet found among the settle sheet's candidates on its approve day; a settle sheet
 * with the check sheet's party and dates saves and pays it.
 */
describe('check sheets continue the party’s last one; a settle sheet made from a check sheet', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  let otherCustomerId: string
  const h = settleHelpers(() => t, () => token)
  const { ok, call } = h

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
    await h.items('C')
    otherCustomerId = await ok<string>('POST', '/basedata/customer', { code: 'CONTK2', name: '无对账单客户', mnemonicCode: 'WDZ', settleType: 1 })
  })
  afterAll(async () => t?.close())

  type Row = { id: string; code: string; endDate: string; startDate: string }
  const lastOf = (base: string, party: Record<string, string>) =>
    ok<Page<Row>>('GET', `${base}/query`, undefined, { pageIndex: '1', pageSize: '1', sortField: 'endDate', sortOrder: 'desc', ...party })

  for (const side of [
    { name: 'supplier', base: '/settle/checksheet', settle: '/settle/sheet', party: 'supplierId', table: 'tbl_receive_sheet' },
    { name: 'customer', base: '/customer/settle/checksheet', settle: '/customer/settle/sheet', party: 'customerId', table: 'tbl_sale_out_sheet' },
  ] as const) {
    it(`${side.name}: the last check sheet by 截止日期, the earliest candidate, and a settle sheet from the check sheet`, async () => {
      const partyId = side.party === 'supplierId' ? f.supplierId : f.customerId
      const otherId = side.party === 'supplierId' ? f.codSupplierId : otherCustomerId
      const docs = side.party === 'supplierId' ? await h.supplierDocs(f) : await h.customerDocs(f)
      const first = side.party === 'supplierId' ? (docs as { receive: string }).receive : (docs as { out: string }).out
      const party = { [side.party]: partyId }
      // The party's oldest open document was approved months ago: the first check sheet starts there.
      await h.db().updateTable(side.table).set({ approve_time: '2026-03-04 10:00:00' }).where('id', '=', first).execute()
      expect((await lastOf(side.base, party)).datas).toEqual([])
      const oldest = await ok<Page<Candidate>>('GET', `${side.base}/uncheck-items`, undefined, { pageIndex: '1', pageSize: '1', ...party })
      expect([oldest.datas[0].bizId, oldest.datas[0].approveTime.slice(0, 10)]).toEqual([first, '2026-03-04'])

      const candidates = new Map((await h.unchecked(`${side.base}/uncheck-items`, party)).datas.map((c) => [c.bizId, c]))
      const firstLine = candidates.get(first)!
      const later = await ok<string>('POST', side.base, { ...party, startDate: '2026-03-01', endDate: '2026-05-31', products: [{ bizId: first, payAmount: firstLine.payAmount }] })
      // Made afterwards but ending earlier: the next one still starts after 2026-05-31.
      const feeId = side.party === 'supplierId' ? (docs as { feePay: string }).feePay : (docs as { feeReceive: string }).feeReceive
      await ok<string>('POST', side.base, { ...party, startDate: '2026-04-01', endDate: '2026-04-30', products: [{ bizId: feeId, payAmount: candidates.get(feeId)!.payAmount }] })
      const last = await lastOf(side.base, party)
      expect([last.totalCount, last.datas[0].id, last.datas[0].endDate.slice(0, 10)]).toEqual([2, later, '2026-05-31'])
      expect((await lastOf(side.base, { [side.party]: otherId })).datas).toEqual([])
      const badSort = await call('GET', `${side.base}/query`, undefined, { ...party, sortField: 'nope' })
      expect([badSort.status, badSort.body.msg]).toEqual([400, '排序字段不存在'])

      // 结算 of the approved check sheet: the settle sheet's candidates on its approve day hold it, with what remains.
      await ok('PATCH', `${side.base}/approve/pass`, { id: later })
      const sheet = await ok<Record<string, string>>('GET', side.base, undefined, { id: later })
      const day = sheet.approveTime.slice(0, 10)
      expect(day).toBe(today())
      const offered = await ok<Page<SettleCandidate>>('GET', `${side.settle}/unsettle-items`, undefined, { pageIndex: '1', pageSize: '100', ...party, startTime: day, endTime: day })
      const line = offered.datas.find((c) => c.bizId === later)!
      expect([line.bizCode, line.unpaidAmount, line.payAmount]).toEqual([sheet.code, firstLine.payAmount, firstLine.payAmount])
      // Its party and dates (outside its approve day) are a settle sheet's header as they are.
      const settle = await ok<string>('POST', side.settle, { ...party, startDate: sheet.startDate, endDate: sheet.endDate, products: [{ bizId: later, payAmount: line.payAmount, discountAmount: '0.00' }] })
      const saved = await ok<Record<string, string>>('GET', side.settle, undefined, { id: settle })
      expect([saved[side.party], saved.startDate.slice(0, 10), saved.endDate.slice(0, 10)]).toEqual([partyId, '2026-03-01', '2026-05-31'])
      // Held by that settle sheet, it is no candidate of another one.
      const again = await ok<Page<SettleCandidate>>('GET', `${side.settle}/unsettle-items`, undefined, { pageIndex: '1', pageSize: '100', ...party, startTime: day, endTime: day })
      expect(again.datas.some((c) => c.bizId === later)).toBe(false)
    })
  }
})
