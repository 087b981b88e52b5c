import dayjs from 'dayjs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, today, type Page, type Candidate } from '../support/settle-helpers.js'
import type { Doc } from '../support/sale-helpers.js'

const URL = '/settle/checksheet'
const UNCHECKED = '/settle/checksheet/uncheck-items'

describe('check sheets (对账单): candidates, sign rules, holding documents', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const h = settleHelpers(() => t, () => token)
  const { ok, call } = h
  let docs: Awaited<ReturnType<typeof h.supplierDocs>>
  let otherDocs: Awaited<ReturnType<typeof h.supplierDocs>>
  let pending: string

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
    await h.items('S')
    docs = await h.supplierDocs(f)
    otherDocs = await h.supplierDocs(f, f.codSupplierId)
    pending = await ok<string>('POST', '/settle/feesheet', { supplierId: f.supplierId, sheetType: 2, products: [{ itemId: (await h.db().selectFrom('settle_out_item').select('id').executeTakeFirstOrThrow()).id, amount: '1.00' }] })
  })
  afterAll(async () => t?.close())

  const header = (extra: Record<string, unknown> = {}) => ({ supplierId: f.supplierId, startDate: today(), endDate: today(), ...extra })
  const line = (c: Candidate, extra: Record<string, unknown> = {}) => ({ bizId: c.bizId, payAmount: c.payAmount, ...extra })

  it('offers the approved, unsettled documents of the supplier with signed totals, paged in SQL', async () => {
    const page = await h.unchecked(UNCHECKED, { supplierId: f.supplierId, startTime: today(), endTime: today() })
    expect(page.totalCount).toBe(5)
    const byId = new Map(page.datas.map((c) => [c.bizId, c]))
    expect(byId.has(pending)).toBe(false)
    for (const id of Object.values(otherDocs)) expect(byId.has(id)).toBe(false)
    const pick = (id: string) => {
      const c = byId.get(id) as Candidate
      return [c.bizType, c.calcType, c.totalAmount, c.payAmount]
    }
    expect(pick(docs.receive)).toEqual([1, 1, '20.00', '20.00'])
    expect(pick(docs.ret)).toEqual([2, 2, '-10.00', '-10.00'])
    expect(pick(docs.feePay)).toEqual([3, 1, '5.00', '5.00'])
    expect(pick(docs.feeReceive)).toEqual([3, 2, '-2.00', '-2.00'])
    expect(pick(docs.pre)).toEqual([4, 2, '-30.00', '-30.00'])
    expect(page.datas[0].bizCode).toMatch(/\S/)
    expect(page.datas[0].approveTime.slice(0, 10)).toBe(today())

    const first = await ok<Page<Candidate>>('GET', UNCHECKED, undefined, { supplierId: f.supplierId, pageIndex: '1', pageSize: '2' })
    const third = await ok<Page<Candidate>>('GET', UNCHECKED, undefined, { supplierId: f.supplierId, pageIndex: '3', pageSize: '2' })
    expect([first.totalCount, first.datas.length, third.datas.length]).toEqual([5, 2, 1])
    const all = new Set([...first.datas, ...(await ok<Page<Candidate>>('GET', UNCHECKED, undefined, { supplierId: f.supplierId, pageIndex: '2', pageSize: '2' })).datas, ...third.datas].map((c) => c.bizId))
    expect(all.size).toBe(5)

    const tomorrow = dayjs().add(1, 'day').format('YYYY-MM-DD')
    expect((await h.unchecked(UNCHECKED, { supplierId: f.supplierId, startTime: tomorrow })).totalCount).toBe(0)
    expect((await h.unchecked(UNCHECKED, { supplierId: f.supplierId, endTime: dayjs().subtract(1, 'day').format('YYYY-MM-DD') })).totalCount).toBe(0)
    expect((await h.unchecked(UNCHECKED, { supplierId: f.codSupplierId })).totalCount).toBe(5)
    expect((await call('GET', UNCHECKED, undefined, {})).body.msg).toBe('请选择供应商')
    expect((await call('GET', UNCHECKED, undefined, { supplierId: f.supplierId, startTime: '2026-13-40' })).body.msg).toBe('查询条件“起始日期”格式不正确')
  })

  it('keeps biz type and calc type from the documents, refuses wrong signs, totals exactly and holds the documents', async () => {
    const c = new Map((await h.unchecked(UNCHECKED, { supplierId: f.supplierId })).datas.map((x) => [x.bizId, x]))
    const fail = async (products: unknown[], msg: string) => {
      const r = await call('POST', URL, { ...header(), products })
      expect(r.body.msg).toBe(msg)
      expect(r.status).toBe(400)
    }
    const receive = c.get(docs.receive) as Candidate
    const ret = c.get(docs.ret) as Candidate
    await fail([line(receive, { payAmount: '-1.00' })], '第1行业务单据应付金额不允许小于0！')
    await fail([line(receive), line(ret, { payAmount: '1.00' })], '第2行业务单据应付金额不允许大于0！')
    await fail([line(receive, { payAmount: '20.01' })], '第1行业务单据应付金额的绝对值不允许大于单据金额的绝对值20.00元！')
    await fail([line(receive), line(ret, { payAmount: '-10.01' })], '第2行业务单据应付金额的绝对值不允许大于单据金额的绝对值10.00元！')
    await fail([line(receive), line(receive)], '第2行业务单据重复，请检查！')
    await fail([{ bizId: docs.receive }], '第1行业务单据应付金额不能为空')
    await fail([line(receive), { bizId: otherDocs.receive, payAmount: '1' }], '第2行业务单据不是该供应商审核通过的单据！')
    await fail([{ bizId: pending, payAmount: '1' }], '第1行业务单据不是该供应商审核通过的单据！')
    await fail([], '供应商对账单中的业务单据不能为空！')
    const r = await call('POST', URL, { ...header({ endDate: dayjs().subtract(1, 'day').format('YYYY-MM-DD') }), products: [line(receive)] })
    expect(r.body.msg).toBe('截止日期不能小于起始日期！')
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(0)

    const id = await ok<string>('POST', URL, {
      ...header({ totalAmount: '999', totalPayedAmount: '5' }),
      products: [line(receive, { bizType: 4, calcType: 2, payAmount: '15.50' }), line(ret), line(c.get(docs.feeReceive) as Candidate)],
    })
    const sheet = await ok<Doc>('GET', URL, undefined, { id })
    expect(sheet).toMatchObject({ status: 0, settleStatus: 0, totalAmount: '8.00', totalPayAmount: '3.50', totalPayedAmount: '0.00', totalDiscountAmount: '0.00', supplierName: 'F供应商' })
    expect(sheet.details.map((d) => [d.bizId, d.bizType, d.calcType, d.payAmount, d.totalAmount, Boolean(d.bizCode)])).toEqual([
      [docs.receive, 1, 1, '15.50', '20.00', true],
      [docs.ret, 2, 2, '-10.00', '-10.00', true],
      [docs.feeReceive, 3, 2, '-2.00', '-2.00', true],
    ])
    for (const [table, doc] of [['tbl_receive_sheet', docs.receive], ['tbl_purchase_return', docs.ret], ['settle_fee_sheet', docs.feeReceive]])
      expect(await h.settleOf(table, doc)).toBe(1)
    expect((await h.unchecked(UNCHECKED, { supplierId: f.supplierId })).datas.map((x) => x.bizId).sort()).toEqual([docs.feePay, docs.pre].sort())

    // Another check sheet cannot take a document this one holds.
    const taken = await call('POST', URL, { ...header(), products: [{ bizId: docs.receive, payAmount: '1.00' }] })
    expect(taken.body.msg).toMatch(/^单号：.+，采购收货单已在供应商对账单.+中，业务无法进行！$/)

    // Modify: dropped documents are given back, kept ones stay held.
    await ok('PUT', URL, { id, ...header(), products: [line(receive), line(c.get(docs.pre) as Candidate)] })
    expect(await h.settleOf('tbl_purchase_return', docs.ret)).toBe(0)
    expect(await h.settleOf('settle_fee_sheet', docs.feeReceive)).toBe(0)
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(1)
    expect(await h.settleOf('settle_pre_sheet', docs.pre)).toBe(1)
    expect(await ok<Doc>('GET', URL, undefined, { id })).toMatchObject({ totalAmount: '-10.00', totalPayAmount: '-10.00' })

    // Refusing does not give them back; deleting does.
    await ok('PATCH', `${URL}/approve/refuse`, { id, refuseReason: '金额不对' })
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(1)
    await ok('DELETE', URL, { id })
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(0)
    expect(await h.settleOf('settle_pre_sheet', docs.pre)).toBe(0)
  })

  it('refuses a document already settled and approves with the ledger moving pay amounts onto the check sheet', async () => {
    await h.db().updateTable('settle_fee_sheet').set({ settle_status: 3 }).where('id', '=', docs.feePay).execute()
    const r = await call('POST', URL, { ...header(), products: [{ bizId: docs.feePay, payAmount: '5.00' }] })
    expect(r.body.msg).toMatch(/^单号：.+，供应商费用单已结算，业务无法进行！$/)
    await h.db().updateTable('settle_fee_sheet').set({ settle_status: 0 }).where('id', '=', docs.feePay).execute()

    const page = await h.unchecked(UNCHECKED, { supplierId: f.supplierId })
    expect(page.totalCount).toBe(5)
    const before = await h.balance(1, f.supplierId)
    expect(before).toBe('-17.00')
    const id = await ok<string>(`POST`, `${URL}/approve/pass/direct`, { ...header(), products: page.datas.map((c) => line(c)) })
    expect(await ok<Doc>('GET', URL, undefined, { id })).toMatchObject({ status: 3, settleStatus: 0, totalAmount: '-17.00', totalPayAmount: '-17.00' })
    const rows = await h.ledger(id)
    expect(rows.map((x) => Number(x.amount).toFixed(2)).sort()).toEqual(['-17.00', '-20.00', '-5.00', '10.00', '2.00', '30.00'].sort())
    expect(await h.balance(1, f.supplierId)).toBe('-17.00')
    expect(await h.outstanding(docs.receive)).toBe('0.00')
    expect(await h.outstanding(id)).toBe('-17.00')
    expect((await h.unchecked(UNCHECKED, { supplierId: f.supplierId })).totalCount).toBe(0)
    // Approved: cannot be modified or deleted, the documents stay held.
    expect((await call('DELETE', URL, { id })).body.msg).toBe('“审核通过”的供应商对账单不允许执行删除操作！')
    expect(await h.settleOf('tbl_receive_sheet', docs.receive)).toBe(1)
  })

  it('answers the whole family: query by party and status, export, batch approve, refuse and delete', async () => {
    const extra = await h.supplierDocs(f)
    const make = (bizId: string, payAmount: string) => ok<string>('POST', URL, { ...header(), products: [{ bizId, payAmount }] })
    const a = await make(extra.receive, '20.00')
    const b = await make(extra.ret, '-10.00')
    const c = await make(extra.pre, '-30.00')
    const list = await ok<Page<Doc>>('GET', `${URL}/query`, undefined, { supplierId: f.supplierId, status: '0' })
    expect(list.datas.map((d) => d.id).sort()).toEqual([a, b, c].sort())
    expect(list.datas.find((d) => d.id === a)).toMatchObject({ supplierName: 'F供应商', totalAmount: '20.00', totalPayAmount: '20.00', settleStatus: 0, startDate: today() })
    expect((await ok<Page<Doc>>('GET', `${URL}/query`, undefined, { supplierId: f.codSupplierId })).totalCount).toBe(0)
    const file = await t.call('POST', `${URL}/export`, { token, body: { supplierId: f.supplierId } })
    expect(file.status).toBe(200)
    expect(String(file.headers['content-type'])).toContain('spreadsheetml')

    await ok('PATCH', `${URL}/approve/refuse/batch`, { ids: [b, c], refuseReason: '重对' })
    expect(await h.settleOf('tbl_purchase_return', extra.ret)).toBe(1)
    await ok('PATCH', `${URL}/approve/pass/batch`, { ids: [a] })
    expect((await call('DELETE', `${URL}/batch`, [a, b])).body.msg).toBe('第1个供应商对账单删除失败，失败原因：“审核通过”的供应商对账单不允许执行删除操作！')
    expect(await h.settleOf('tbl_purchase_return', extra.ret)).toBe(1)
    await ok('DELETE', `${URL}/batch`, [b, c])
    expect(await h.settleOf('tbl_purchase_return', extra.ret)).toBe(0)
    expect(await h.settleOf('settle_pre_sheet', extra.pre)).toBe(0)
    expect(await h.settleOf('tbl_receive_sheet', extra.receive)).toBe(1)
  })

  it('keeps the candidates on composite (party, settle status, approve time) indexes', async () => {
    const db = h.db()
    const tables = ['tbl_receive_sheet', 'tbl_purchase_return', 'settle_fee_sheet', 'settle_pre_sheet', 'tbl_sale_out_sheet', 'tbl_sale_return', 'customer_settle_fee_sheet', 'customer_settle_pre_sheet', 'settle_check_sheet', 'customer_settle_check_sheet']
    for (const table of tables) {
      const names =
        t.dbKind === 'postgres'
          ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`.execute(db)).rows
          : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db)).rows
      expect(names.map((r) => r.name), table).toContain(`ix_${table}_settle`)
    }
    if (t.dbKind === 'sqlite') {
      const plan = await sql`explain query plan select id from tbl_receive_sheet where supplier_id = ${f.supplierId} and status = 3 and settle_status = 0 and approve_time >= ${'2026-01-01 00:00:00'}`.execute(db)
      expect(JSON.stringify(plan.rows)).toContain('ix_tbl_receive_sheet_settle')
    }
  })

  it('serves the customer side alike, never with retail sheets', async () => {
    await h.customerDocs(f)
    const retail = await ok<string>('POST', '/retail/out/sheet/approve/pass/direct', { scId: f.scA, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15' }] })
    const page = await h.unchecked('/customer/settle/checksheet/uncheck-items', { customerId: f.customerId })
    expect(page.datas.map((c) => c.bizId)).not.toContain(retail)
    expect(page.datas.map((c) => [c.bizType, c.calcType, c.totalAmount]).sort()).toEqual(
      [[1, 1, '30.00'], [2, 2, '-15.00'], [3, 1, '4.00'], [3, 2, '-1.00'], [4, 2, '-10.00']].sort(),
    )
    const bad = await call('POST', '/customer/settle/checksheet', {
      customerId: f.customerId, startDate: today(), endDate: today(),
      products: page.datas.map((c) => ({ bizId: c.bizId, payAmount: c.calcType === 1 ? '-1' : c.payAmount })),
    })
    expect(bad.body.msg).toMatch(/^第\d行业务单据应收金额不允许小于0！$/)
    const id = await ok<string>('POST', '/customer/settle/checksheet', {
      customerId: f.customerId, startDate: today(), endDate: today(), products: page.datas.map((c) => ({ bizId: c.bizId, payAmount: c.payAmount })),
    })
    expect(await ok<Doc>('GET', '/customer/settle/checksheet', undefined, { id })).toMatchObject({ totalAmount: '8.00', totalPayAmount: '8.00', customerName: 'F客户' })
  })
})

describe('check and settle sheets under data permission (order model)', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let roleId: string
  let f: TradeFixtures
  const h = settleHelpers(() => t, () => admin)

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
    await h.items('D')
    const userId = await h.ok<string>('POST', '/system/user', { code: 'st01', name: '对账员', username: 'st01user', password: 'secret123', gender: 0, available: true })
    roleId = await h.ok<string>('POST', '/system/role', { code: 'STL', name: '对账', available: true })
    await h.ok('POST', '/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
    const menus = await h.ok<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', undefined, { roleId })
    const wanted = ['settle:check-sheet:query', 'settle:check-sheet:add', 'settle:sheet:query', 'settle:sheet:add']
    await h.ok('POST', '/system/role/menu/setting', { roleIds: [roleId], menuIds: menus.filter((m) => wanted.includes(m.permission ?? '')).map((m) => m.id) })
    clerk = await t.login('st01user', 'secret123')
  })
  afterAll(async () => t?.close())

  const restrict = (conditionType: number) =>
    h.ok('POST', '/system/data/permission/data/saveData', {
      bizIds: [roleId],
      bizType: 0,
      permissionType: 2,
      // detail 17 = 创建时间; condition 1 = later than, 3 = earlier than.
      permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 17, conditionType, value: '2999-01-01 00:00:00' }] }]),
    })

  it('offers and accepts only the documents and check sheets the caller may see', async () => {
    const docs = await h.supplierDocs(f)
    const asClerk = <T>(method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.call<T>(method, url, { token: clerk, body, query })
    const unchecked = async () => (await asClerk<Page<Candidate>>('GET', UNCHECKED, undefined, { supplierId: f.supplierId })).body.data.totalCount
    expect(await unchecked()).toBe(5)
    await restrict(1)
    expect(await unchecked()).toBe(0)
    const body = { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: docs.receive, payAmount: '20.00' }] }
    expect((await asClerk('POST', URL, body)).body.msg).toBe('第1行业务单据不是该供应商审核通过的单据！')
    const check = await h.ok<string>('POST', `${URL}/approve/pass/direct`, body)
    expect((await asClerk<Page>('GET', '/settle/sheet/unsettle-items', undefined, { supplierId: f.supplierId })).body.data.totalCount).toBe(0)
    const pay = { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '1.00' }] }
    expect((await asClerk('POST', '/settle/sheet', pay)).body.msg).toBe('第1行对账单不是该供应商审核通过的供应商对账单！')
    expect((await asClerk('GET', '/settle/checksheet/uncheck-items', undefined, { customerId: f.customerId })).status).toBe(400)
    expect((await asClerk('GET', '/customer/settle/checksheet/uncheck-items', undefined, { customerId: f.customerId })).status).toBe(403)
    await restrict(3)
    expect(await unchecked()).toBe(4)
    expect((await asClerk<Page>('GET', '/settle/sheet/unsettle-items', undefined, { supplierId: f.supplierId })).body.data.totalCount).toBe(1)
    expect((await asClerk('POST', '/settle/sheet', pay)).body.code).toBe(200)
  })
})
