import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PartyType } from '../../src/server/domain/settle/parties.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, type Candidate } from '../support/settle-helpers.js'
import type { Doc } from '../support/sale-helpers.js'

const URL = '/settle/service-sheet'
const UNCHECKED = '/settle/checksheet/uncheck-items'
type EnumItem = { code: number; 'zh-CN': string }
const onPostgres = process.env.TEST_DB === 'postgres'

/**
 * A document that takes part in settlement by its file alone (test/fixtures/documents/supplier-service-sheet.json,
 * loaded through ENTITY_DIRS, no hook): approval books it in the settlement ledger, the supplier's check sheet
 * offers it under its own 业务类型, the reports name it, and cancel approval takes the row back.
 */
describe('a settlement document declared in one JSON file', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const h = settleHelpers(() => t, () => token)
  const { ok, call } = h

  beforeAll(async () => {
    t = await startTestApp({ entityDirs: [path.resolve(import.meta.dirname, '../fixtures/documents')] })
    token = await t.login()
    f = await createTradeFixtures(t, token)
  })
  afterAll(async () => t?.close())

  const create = () =>
    ok<string>('POST', URL, { supplierId: f.supplierId, products: [{ service: '运输', amount: '12.50' }, { service: '安装', amount: '7.55' }] })
  const candidates = async () => (await h.unchecked(UNCHECKED, { supplierId: f.supplierId })).datas
  const ledgerOf = async (id: string) => (await h.ledger(id)).map((r) => [r.against_id, Number(r.against_type), String(r.amount)])

  it('starts 未结算, and approval books its total against itself as an amount owed to the supplier', async () => {
    const before = await h.balance(PartyType.SUPPLIER, f.supplierId)
    const id = await create()
    const stored = await h.get(URL, id)
    expect([stored.settleStatus, stored.totalAmount]).toEqual([0, '20.05'])
    expect(await ledgerOf(id)).toEqual([])

    await ok('PATCH', `${URL}/approve/pass`, { id })
    expect(await ledgerOf(id)).toEqual([[id, 21, '20.05']])
    expect(await h.outstanding(id)).toBe('20.05')
    expect(Number(await h.balance(PartyType.SUPPLIER, f.supplierId)) - Number(before)).toBeCloseTo(20.05, 2)
  })

  it('is a candidate of the supplier check sheet with its declared 业务类型, labelled from its file', async () => {
    const id = await ok<string>('POST', `${URL}/approve/pass/direct`, { supplierId: f.supplierId, products: [{ service: '仓储', amount: '3.00' }] })
    const offered = (await candidates()).find((c) => c.bizId === id) as Candidate
    expect([offered.bizType, offered.calcType, offered.totalAmount, offered.payAmount]).toEqual([5, 1, '3.00', '3.00'])

    const meta = await ok<{ enums: Record<string, { items: EnumItem[] }> }>('GET', '/meta/bundle')
    const label = (name: string, code: number) => meta.enums[name].items.find((i) => i.code === code)?.['zh-CN']
    expect([label('SETTLE_CHECK_SHEET_BIZ_TYPE', 5), label('SETTLE_VOUCHER_TYPE', 21)]).toEqual(['供应商服务单', '供应商服务单'])
    // The spec's items keep their own labels.
    expect([label('SETTLE_CHECK_SHEET_BIZ_TYPE', 2), label('SETTLE_VOUCHER_TYPE', 2)]).toEqual(['采购退货单', '采购退货单'])

    const report = await ok<{ datas: { againstId: string; againstTypeName: string }[] }>('GET', '/settle/report/supplier/documents', undefined, {
      supplierId: f.supplierId,
      pageSize: '100',
    })
    expect(report.datas.find((d) => d.againstId === id)?.againstTypeName).toBe('供应商服务单')
  })

  it('cancel approval books the opposite row, so it owes nothing and is no candidate until approved again', async () => {
    const id = await create()
    await ok('PATCH', `${URL}/approve/pass`, { id })
    const before = await h.balance(PartyType.SUPPLIER, f.supplierId)

    await ok('PATCH', `${URL}/approve/cancel`, { id })
    expect(await ledgerOf(id)).toEqual([
      [id, 21, '-20.05'],
      [id, 21, '20.05'],
    ])
    expect(await h.outstanding(id)).toBe('0.00')
    expect(Number(before) - Number(await h.balance(PartyType.SUPPLIER, f.supplierId))).toBeCloseTo(20.05, 2)
    expect((await candidates()).map((c) => c.bizId)).not.toContain(id)

    await ok('PUT', URL, { id, supplierId: f.supplierId, products: [{ service: '运输', amount: '30.00' }] })
    await ok('PATCH', `${URL}/approve/pass`, { id })
    expect(await h.outstanding(id)).toBe('30.00')
    expect((await candidates()).find((c) => c.bizId === id)?.totalAmount).toBe('30.00')
  })

  it('refuses to cancel while a check sheet holds it, and changes nothing', async () => {
    const id = await ok<string>('POST', `${URL}/approve/pass/direct`, { supplierId: f.supplierId, products: [{ service: '装卸', amount: '8.00' }] })
    const check = await ok<string>('POST', '/settle/checksheet', {
      supplierId: f.supplierId,
      startDate: '2000-01-01',
      endDate: '2999-12-31',
      products: [{ bizId: id, payAmount: '8.00' }],
    })
    const checkCode = (await h.get('/settle/checksheet', check)).code
    const code = (await h.get(URL, id)).code
    const refused = await call('PATCH', `${URL}/approve/cancel`, { id })
    expect([refused.status, refused.body.msg]).toEqual([400, `单号：${code}，供应商服务单已在供应商对账单${checkCode}中，业务无法进行！`])
    const after = (await h.get(URL, id)) as Doc
    expect([after.status, after.settleStatus]).toEqual([3, 1])
    expect(await ledgerOf(id)).toEqual([[id, 21, '8.00']])

    // Approved, the check sheet moves the amount onto itself like any other kind's.
    await ok('PATCH', '/settle/checksheet/approve/pass', { id: check })
    expect(await h.outstanding(id)).toBe('0.00')
  })

  it.skipIf(!onPostgres)('a check sheet saved while its document is being cancelled refuses it once the cancel commits (PostgreSQL: the row is held)', async () => {
    const id = await ok<string>('POST', `${URL}/approve/pass/direct`, { supplierId: f.supplierId, products: [{ service: '包装', amount: '4.00' }] })
    const code = (await h.get(URL, id)).code
    const db = h.db()
    const blocked = async () => {
      const r = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
      return Number(r.rows[0].n) > 0
    }
    let request: ReturnType<typeof call> | undefined
    // What a cancel approval does first: the document's row held, its status back to 0, not yet committed.
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('settle_supplier_service_sheet').select('id').where('id', '=', id).forUpdate().execute()
      await trx.updateTable('settle_supplier_service_sheet').set({ status: 0 }).where('id', '=', id).execute()
      // The check sheet still reads the document as approved, then waits for its row.
      request = call('POST', '/settle/checksheet', { supplierId: f.supplierId, startDate: '2000-01-01', endDate: '2999-12-31', products: [{ bizId: id, payAmount: '4.00' }] })
      const deadline = Date.now() + 20_000
      while (!(await blocked())) {
        if (Date.now() > deadline) throw new Error('the check sheet never waited for the document row')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })
    const answer = await (request as ReturnType<typeof call>)
    expect([answer.status, answer.body.msg]).toEqual([400, `单号：${code}，供应商服务单未审核通过，业务无法进行！`])
    expect(Number((await db.selectFrom('settle_supplier_service_sheet').select('settle_status').where('id', '=', id).executeTakeFirstOrThrow()).settle_status)).toBe(0)
  })
})
