import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { stockClient } from '../support/stock-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'
import { newId } from '../../src/server/platform/ids.js'

/**
 * 往来余额 (src/server/modules/settle/balance-report.ts) reads the settlement ledger. Check and settle
 * sheets, which post most of its rows, are built elsewhere, and approving fee/pre sheets does not post
 * yet, so the rows are written here straight into the tenant database, shaped as the posting rules of
 * schemas/entities/settle-ledger.json describe them.
 */

type Party = { partyId: string; partyCode: string; partyName: string; balance: string; documents: number }
type Doc = { againstType: number; againstTypeName: string; againstId: string; againstCode: string; totalAmount: string; outstanding: string }
type Page<T> = { pageIndex: number; pageSize: number; totalCount: number; datas: T[] }

const T = { RECEIVE: 1, RETURN: 2, FEE: 3, PRE: 4, CHECK: 5, SETTLE: 6, SALE_OUT: 11, SALE_RETURN: 12 } as const

describe('settlement balance report (应付/应收 per party, documents behind a balance)', () => {
  let t: TestApp
  let admin: string
  let c: ReturnType<typeof stockClient>
  const s: Record<string, string> = {}
  const docs: Record<string, string> = {}
  let customerId: string
  let otherCustomerId: string
  let seconds = 0

  /** One ledger row: `voucher` posts `amount` against `against` (itself when omitted). */
  const post = async (partyType: 1 | 2, partyId: string, voucher: [number, string], amount: string, against: [number, string] = voucher) => {
    for (const [, code] of [voucher, against]) docs[code] ??= newId()
    seconds += 1
    await c
      .db()
      .insertInto('settle_ledger')
      .values({
        id: newId(),
        party_type: partyType,
        party_id: partyId,
        voucher_type: voucher[0],
        voucher_id: docs[voucher[1]],
        voucher_code: voucher[1],
        against_type: against[0],
        against_id: docs[against[1]],
        against_code: against[1],
        amount,
        create_by: '系统管理员',
        create_time: `2026-03-01 08:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`,
      })
      .execute()
  }

  const page = async <R>(url: string, query: Record<string, string> = {}, token = admin) => {
    const r = await t.call<Page<R>>('GET', url, { token, query })
    expect(r.body.msg, `${url} ${JSON.stringify(query)}`).toBe('操作成功！')
    return r.body.data
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    c = stockClient(t, admin)
    const supplier = (code: string, name: string) => c.ok<string>('POST', '/basedata/supplier', { code, name, mnemonicCode: 'GYS', settleType: 1, manageType: 1 })
    s.a = await supplier('BS01', '甲供应商')
    s.b = await supplier('BS02', '乙供应商')
    s.none = await supplier('BS03', '丙供应商')
    s.zero = await supplier('BS04', '丁供应商')
    s.cents = await supplier('BS05', '戊供应商')
    customerId = await c.ok<string>('POST', '/basedata/customer', { code: 'BK01', name: '甲客户', mnemonicCode: 'KH', settleType: 1 })
    otherCustomerId = await c.ok<string>('POST', '/basedata/customer', { code: 'BK02', name: '乙客户', mnemonicCode: 'KH', settleType: 1 })

    // 甲: receive 100 checked and partly settled; a return, two fees, a prepayment still open.
    await post(1, s.a, [T.RECEIVE, 'SH001'], '100.00')
    await post(1, s.a, [T.RETURN, 'TH001'], '-30.50')
    await post(1, s.a, [T.FEE, 'FY001'], '0.1')
    await post(1, s.a, [T.FEE, 'FY002'], '0.20')
    await post(1, s.a, [T.PRE, 'YF001'], '-50.00')
    await post(1, s.a, [T.CHECK, 'DZ001'], '-100.00', [T.RECEIVE, 'SH001'])
    await post(1, s.a, [T.CHECK, 'DZ001'], '100.00')
    await post(1, s.a, [T.SETTLE, 'JS001'], '-60.00', [T.CHECK, 'DZ001'])
    // 乙: beyond what a double holds exactly.
    await post(1, s.b, [T.RECEIVE, 'SH002'], '12345678901234.56')
    await post(1, s.b, [T.RECEIVE, 'SH003'], '0.01')
    // 丁: everything settled.
    await post(1, s.zero, [T.RECEIVE, 'SH004'], '10.00')
    await post(1, s.zero, [T.CHECK, 'DZ002'], '-10.00', [T.RECEIVE, 'SH004'])
    await post(1, s.zero, [T.CHECK, 'DZ002'], '10.00')
    await post(1, s.zero, [T.SETTLE, 'JS002'], '-10.00', [T.CHECK, 'DZ002'])
    // 戊: 0.1 + 0.2.
    await post(1, s.cents, [T.FEE, 'FY003'], '0.1')
    await post(1, s.cents, [T.FEE, 'FY004'], '0.2')
    // Customers: a sale and a return (应收 80.00); the other customer only in the customer report.
    await post(2, customerId, [T.SALE_OUT, 'XS001'], '88.80')
    await post(2, customerId, [T.SALE_RETURN, 'XT001'], '-8.80')
    await post(2, otherCustomerId, [T.SALE_OUT, 'XS002'], '-0.01')
  })
  afterAll(async () => t?.close())

  it('sums each supplier exactly, with its open documents, ordered by code; parties without rows are left out', async () => {
    const list = await page<Party>('/settle/report/supplier')
    expect(list.totalCount).toBe(4)
    expect(list.datas.map((p) => [p.partyCode, p.partyName, p.balance, p.documents])).toEqual([
      ['BS01', '甲供应商', '-40.20', 5],
      ['BS02', '乙供应商', '12345678901234.57', 2],
      ['BS04', '丁供应商', '0.00', 0],
      ['BS05', '戊供应商', '0.30', 2],
    ])
    expect(list.datas[0].partyId).toBe(s.a)
  })

  it('filters by code and name (contains) and by a non-zero balance, and pages in SQL', async () => {
    expect((await page<Party>('/settle/report/supplier', { onlyNonZero: 'true' })).datas.map((p) => p.partyCode)).toEqual(['BS01', 'BS02', 'BS05'])
    expect((await page<Party>('/settle/report/supplier', { name: '甲' })).datas.map((p) => p.partyCode)).toEqual(['BS01'])
    expect((await page<Party>('/settle/report/supplier', { code: 'S0', name: '供应商', onlyNonZero: '1' })).totalCount).toBe(3)
    expect((await page<Party>('/settle/report/supplier', { code: '%' })).totalCount).toBe(0)
    const second = await page<Party>('/settle/report/supplier', { pageIndex: '2', pageSize: '2' })
    expect([second.totalCount, second.pageIndex, second.datas.map((p) => p.partyCode)]).toEqual([4, 2, ['BS04', 'BS05']])
    const past = await page<Party>('/settle/report/supplier', { pageIndex: '3', pageSize: '2' })
    expect([past.totalCount, past.datas]).toEqual([4, []])
    expect((await page<Party>('/settle/report/supplier', { onlyNonZero: 'true', pageSize: '1', pageIndex: '3' })).datas.map((p) => [p.partyCode, p.balance])).toEqual([['BS05', '0.30']])
  })

  it('answers the documents behind a balance: each document’s own total and what is still open on it', async () => {
    const all = await page<Doc>('/settle/report/supplier/documents', { supplierId: s.a })
    expect(all.totalCount).toBe(6)
    expect(all.datas.map((d) => [d.againstType, d.againstTypeName, d.againstCode, d.totalAmount, d.outstanding])).toEqual([
      [T.RECEIVE, '采购收货单', 'SH001', '100.00', '0.00'],
      [T.RETURN, '采购退货单', 'TH001', '-30.50', '-30.50'],
      [T.FEE, '供应商费用单', 'FY001', '0.10', '0.10'],
      [T.FEE, '供应商费用单', 'FY002', '0.20', '0.20'],
      [T.PRE, '供应商预付款单', 'YF001', '-50.00', '-50.00'],
      [T.CHECK, '供应商对账单', 'DZ001', '100.00', '40.00'],
    ])
    expect(all.datas[0].againstId).toBe(docs.SH001)
    const open = await page<Doc>('/settle/report/supplier/documents', { supplierId: s.a, onlyOpen: 'true', pageSize: '2', pageIndex: '2' })
    expect([open.totalCount, open.datas.map((d) => d.againstCode)]).toEqual([5, ['FY002', 'YF001']])
    expect((await page<Doc>('/settle/report/supplier/documents', { supplierId: s.zero, onlyOpen: 'true' })).totalCount).toBe(0)
    const cents = await page<Doc>('/settle/report/supplier/documents', { supplierId: s.cents })
    expect(cents.datas.map((d) => d.outstanding)).toEqual(['0.10', '0.20'])
    expect((await page<Doc>('/settle/report/supplier/documents', { supplierId: s.none })).totalCount).toBe(0)
  })

  it('keeps the customer side apart: 应收 per customer, its documents, no supplier rows', async () => {
    const list = await page<Party>('/customer/settle/report')
    expect(list.datas.map((p) => [p.partyCode, p.balance, p.documents])).toEqual([
      ['BK01', '80.00', 2],
      ['BK02', '-0.01', 1],
    ])
    const d = await page<Doc>('/customer/settle/report/documents', { customerId })
    expect(d.datas.map((r) => [r.againstTypeName, r.againstCode, r.outstanding])).toEqual([
      ['销售出库单', 'XS001', '88.80'],
      ['销售退货单', 'XT001', '-8.80'],
    ])
    // A supplier id is no customer, and the other way round.
    expect((await t.call('GET', '/customer/settle/report/documents', { token: admin, query: { customerId: s.a } })).body.msg).toBe('客户不存在！')
    expect((await t.call('GET', '/settle/report/supplier/documents', { token: admin, query: { supplierId: customerId } })).body.msg).toBe('供应商不存在！')
  })

  it('refuses a documents call without its party, and malformed calls with 4xx', async () => {
    const missing = await t.call('GET', '/settle/report/supplier/documents', { token: admin })
    expect([missing.status, missing.body.msg]).toEqual([400, '供应商不能为空！'])
    const missingCustomer = await t.call('GET', '/customer/settle/report/documents', { token: admin })
    expect([missingCustomer.status, missingCustomer.body.msg]).toEqual([400, '客户不能为空！'])
    for (const url of ['/settle/report/supplier', '/settle/report/supplier/documents', '/customer/settle/report', '/customer/settle/report/documents']) {
      for (const query of ['pageIndex=x&pageSize=-1&onlyNonZero=maybe', 'supplierId=1&supplierId=2&customerId=a&code=a&code=b', 'name=%25_&pageIndex=99999999999999999999']) {
        const r = await t.app.inject({ method: 'GET', url: `/cloud-api${url}?${query}`, headers: { 'x-auth-token': admin } })
        expect(r.statusCode, `${url}?${query}: ${r.body.slice(0, 200)}`).toBeLessThan(500)
      }
    }
  })

  it('exports both lists as xlsx with the same figures', async () => {
    const read = async (url: string, body: Record<string, unknown>) => {
      const r = await t.call('POST', url, { token: admin, body })
      expect([r.status, String(r.headers['content-type']).includes('spreadsheetml')], r.raw.slice(0, 200)).toEqual([200, true])
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
      const rows: unknown[][] = []
      book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)))
      return rows
    }
    expect(await read('/settle/report/supplier/export', { onlyNonZero: true })).toEqual([
      ['供应商编号', '供应商名称', '应付余额', '未结清单据数'],
      ['BS01', '甲供应商', '-40.20', 5],
      ['BS02', '乙供应商', '12345678901234.57', 2],
      ['BS05', '戊供应商', '0.30', 2],
    ])
    const detail = await read('/settle/report/supplier/documents/export', { supplierId: s.a, onlyOpen: true })
    expect(detail[0]).toEqual(['单据类型', '单据号', '单据金额', '未结金额', '记账时间'])
    expect(detail.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['采购退货单', 'TH001', '-30.50', '-30.50'],
      ['供应商费用单', 'FY001', '0.10', '0.10'],
      ['供应商费用单', 'FY002', '0.20', '0.20'],
      ['供应商预付款单', 'YF001', '-50.00', '-50.00'],
      ['供应商对账单', 'DZ001', '100.00', '40.00'],
    ])
    expect((await read('/customer/settle/report/export', {})).map((r) => r[0])).toEqual(['客户编号', 'BK01', 'BK02'])
  })

  it('answers only holders of the keys: query and export apart, supplier and customer side apart', async () => {
    const reader = await userWithMenus(t, admin, 'balreader', ['settle:balance:query'])
    expect((await page<Party>('/settle/report/supplier', {}, reader)).totalCount).toBe(4)
    expect((await page<Doc>('/settle/report/supplier/documents', { supplierId: s.a }, reader)).totalCount).toBe(6)
    const refused = async (method: 'GET' | 'POST', url: string, token: string, query?: Record<string, string>) => {
      const r = await t.call(method, url, { token, query })
      expect([r.status, r.body.code], `${method} ${url}`).toEqual([403, 403])
    }
    await refused('POST', '/settle/report/supplier/export', reader)
    await refused('POST', '/settle/report/supplier/documents/export', reader, { supplierId: s.a })
    await refused('GET', '/customer/settle/report', reader)
    await refused('GET', '/customer/settle/report/documents', reader, { customerId })
    const nobody = await userWithMenus(t, admin, 'balnobody', [])
    for (const url of ['/settle/report/supplier', '/settle/report/supplier/documents', '/customer/settle/report', '/customer/settle/report/documents'])
      await refused('GET', url, nobody, { supplierId: s.a, customerId })
    const customerSide = await userWithMenus(t, admin, 'balcust', ['customer-settle:balance:query', 'customer-settle:balance:export'])
    expect((await page<Party>('/customer/settle/report', {}, customerSide)).totalCount).toBe(2)
    expect((await t.call('POST', '/customer/settle/report/export', { token: customerSide })).status).toBe(200)
    await refused('GET', '/settle/report/supplier', customerSide)
  })

  it('places the two screens in the menu tree under 供应商结算 and 客户结算', async () => {
    const r = await t.call<{ id: string; parentId: string | null; name?: string; title?: string; permission: string | null }[]>('GET', '/system/role/menu/menus', {
      token: admin,
      query: { roleId: '' },
    })
    const byKey = new Map(r.body.data.map((m) => [m.permission, m]))
    expect(byKey.get('settle:balance:query')).toMatchObject({ id: '4000015', parentId: '4000007' })
    expect(byKey.get('settle:balance:export')).toMatchObject({ id: '4000015001', parentId: '4000015' })
    expect(byKey.get('customer-settle:balance:query')).toMatchObject({ id: '4000016', parentId: '4000008' })
    expect(byKey.get('customer-settle:balance:export')).toMatchObject({ id: '4000016001', parentId: '4000016' })
  })
})
