import ExcelJS from 'exceljs'
import * as XLSX from '@e965/xlsx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { workbook, multipart, type ImportProgress as Progress, type Cell } from '../support/import-files.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { userWithMenus } from '../support/access-helpers.js'

/**
 * The purchase imports (000 §5 Import rules, §7 Imports): purchase orders and receive sheets grouped into
 * documents (a group all or nothing), agreed payments of purchase orders; messages name the Excel row.
 */

const ORDER_HEADER = ['*仓库编号', '*供应商编号', '采购员编号', '预计到货日期', '*商品编号', '采购价', '*采购数量', '*是否赠品', '单据明细备注', '单据备注']
const RECEIVE_HEADER = ['*仓库编号', '*供应商编号', '采购员编号', '付款日期', '*实际到货日期', '*商品编号', '采购价', '*收货数量', '*是否赠品', '单据明细备注', '单据备注']
const PAY_HEADER = ['*单据号', '*支付方式编号', '*支付金额', '支付内容']

interface Doc {
  id: string
  code: string
  status: number
  scId: string
  supplierId: string
  purchaserId: string | null
  expectArriveDate?: string | null
  paymentDate?: string | null
  receiveDate?: string | null
  totalNum: number
  totalGiftNum: number
  totalAmount: string
  description: string | null
  details: { productId: string; orderNum: number; taxPrice: string; isGift: boolean; description: string | null }[]
  payTypes?: { payTypeId: string; payAmount: string; text: string | null }[]
}

describe('purchase imports', () => {
  let t: TestApp
  let admin: string
  let adminId: string
  let f: TradeFixtures
  let cardId: string

  const today = () => {
    const d = new Date()
    const pad = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
  }

  const upload = async (url: string, bytes: Buffer, token = admin, filename = '导入.xlsx') => {
    const { payload, contentType } = multipart(filename, bytes)
    const r = await t.app.inject({ method: 'POST', url: `/cloud-api${url}`, headers: { 'x-auth-token': token, 'content-type': contentType }, payload })
    return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; msg: string; data: string } }
  }
  const finished = async (id: string): Promise<Progress> => {
    for (let i = 0; i < 400; i++) {
      const r = await t.call<Progress>('GET', '/component/import/task', { token: admin, query: { id } })
      expect(r.body.code).toBe(200)
      if (r.body.data.finished) return r.body.data
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('import task did not finish')
  }
  const importFile = async (url: string, header: string[], rows: Cell[][]) => {
    const r = await upload(url, await workbook(header, rows))
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 200 })
    return finished(r.body.data)
  }
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await t.call<T>(method, url, { token: admin, body, query })
    expect(r.body.code, `${url}: ${r.raw.slice(0, 300)}`).toBe(200)
    return r.body.data
  }
  /** The documents of a list whose supplier is `supplierId`, newest first, with their lines. */
  const documents = async (base: string, supplierId: string): Promise<Doc[]> => {
    const page = await ok<{ datas: { id: string }[] }>('GET', `${base}/query`, undefined, { supplierId, pageSize: '100', createTimeStart: '2000-01-01 00:00:00', createTimeEnd: '2999-01-01 00:00:00' })
    return Promise.all(page.datas.map((d) => ok<Doc>('GET', base, undefined, { id: d.id })))
  }
  const templateOf = async (url: string) => {
    const r = await t.call('GET', `${url}/template`, { token: admin })
    expect(r.status, r.raw.slice(0, 200)).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
    const help = book.getWorksheet('说明')!.getSheetValues().flat().filter((v) => typeof v === 'string').join('\n')
    return { header: (book.worksheets[0].getRow(1).values as unknown[]).slice(1), help, disposition: String(r.headers['content-disposition']) }
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin, 'PI')
    cardId = await ok<string>('POST', '/basedata/paytype', { code: 'PICARD', name: '银行卡', recText: true })
    const users = await ok<{ datas: { id: string; code: string }[] }>('GET', '/system/user/query', undefined, { code: '001' })
    adminId = users.datas.find((u) => u.code === '001')!.id
  })
  afterAll(async () => t?.close())

  describe('purchase orders (POST /purchase/order/import)', () => {
    it('has a template with the columns, the grouping rule and the all-or-nothing rule of a group', async () => {
      const tpl = await templateOf('/purchase/order/import')
      expect(tpl.header).toEqual(ORDER_HEADER)
      expect(tpl.disposition).toContain(encodeURIComponent('采购订单导入模板.xlsx'))
      expect(tpl.help).toContain('按“仓库编号、供应商编号、采购员编号、预计到货日期”分组')
      expect(tpl.help).toContain('预计到货日期空白时为导入当天')
      expect(tpl.help).toContain('组内任何一行有误时该组不生成采购订单')
    })

    it('creates one pending order per warehouse, supplier, buyer and expected arrival date, through the document engine', async () => {
      const before = (await documents('/purchase/order', f.supplierId)).length
      const p = await importFile('/purchase/order/import', ORDER_HEADER, [
        // A real date cell (as Excel writes it) and the same day as text below are one group.
        ['PISCA', 'PIS1', '001', new Date(Date.UTC(2026, 2, 1)), 'PIP1', '10.5', 2, '否', '明细一', '第一组备注'],
        ['PISCB', 'PIS1', '', '', 'PIP1', 20, 3, '否', '', ''],
        // Same group as the first row (the date written another way); a gift costs 0 whatever is written; its remark is not the order's.
        ['PISCA', 'PIS1', '001', '2026/3/1', 'PIP2', '99', 1, '是', '', '不用的备注'],
      ])
      expect(p).toMatchObject({ finished: true, hasError: false, successProcess: 100, tipMsgs: [] })
      const docs = await documents('/purchase/order', f.supplierId)
      expect(docs.length - before).toBe(2)
      const first = docs.find((d) => d.scId === f.scA && d.expectArriveDate === '2026-03-01')!
      expect(first).toMatchObject({ status: 0, purchaserId: adminId, description: '第一组备注', totalNum: 2, totalGiftNum: 1, totalAmount: '21.00' })
      expect(first.code).toMatch(/^\d{18}$/)
      expect(first.details.map((l) => [l.productId, l.orderNum, l.taxPrice, l.isGift, l.description])).toEqual([
        [f.p1, 2, '10.50', false, '明细一'],
        [f.p2, 1, '0.00', true, null],
      ])
      const second = docs.find((d) => d.scId === f.scB && d.expectArriveDate === today())!
      expect(second).toMatchObject({ purchaserId: null, totalAmount: '60.00', totalNum: 3 })
      // As if entered on the screen: the timeline and op log of a create.
      const timeline = await ok<{ content: string }[]>('GET', '/component/timeline/order', undefined, { orderId: first.id })
      expect(timeline.map((x) => x.content)).toContain('创建单据')
      const logs = await ok<{ datas: { name: string }[] }>('GET', '/system/oplog/query', undefined, { pageSize: '100' })
      expect(logs.datas.map((l) => l.name)).toEqual(expect.arrayContaining([`新增采购订单，单号：${first.code}`, '导入采购订单']))
    })

    it('a failing row refuses its whole group (nothing of it is written) and names its Excel row; other groups are written', async () => {
      const before = await documents('/purchase/order', f.codSupplierId)
      const p = await importFile('/purchase/order/import', ORDER_HEADER, [
        ['PISCA', 'PIS2', '', '2026-04-01', 'PIP1', 10, 1, '否', '', ''],
        ['PISCB', 'PIS2', '', '2026-04-02', 'PIP2', 5, 4, '否', '', ''],
        ['PISCA', 'PIS2', '', '2026-04-01', 'NOPE', 10, 1, '否', '', ''],
      ])
      expect(p).toMatchObject({ finished: true, hasError: true, tipMsgs: ['第4行：商品编号“NOPE”不存在'] })
      expect(p.successProcess).toBe(33)
      const after = await documents('/purchase/order', f.codSupplierId)
      expect(after.length - before.length).toBe(1)
      expect(after.filter((d) => d.expectArriveDate === '2026-04-01')).toEqual([])
      expect(after.find((d) => d.expectArriveDate === '2026-04-02')).toMatchObject({ scId: f.scB, totalAmount: '20.00' })
    })

    it('refuses each rule with its message and the Excel row, writing nothing', async () => {
      const before = (await documents('/purchase/order', f.supplierId)).length
      const row = (date: string, cells: Partial<Record<'sc' | 'supplier' | 'buyer' | 'product' | 'price' | 'num' | 'gift', Cell>>): Cell[] => [
        cells.sc ?? 'PISCA', cells.supplier ?? 'PIS1', cells.buyer ?? '', date, cells.product ?? 'PIP1',
        cells.price === undefined ? 10 : cells.price, cells.num ?? 1, cells.gift ?? '否', '', '',
      ]
      const p = await importFile('/purchase/order/import', ORDER_HEADER, [
        row('2026-05-01', { sc: '' }),
        row('2026-05-02', { supplier: 'NOSUP' }),
        row('2026-05-03', { buyer: 'NOBODY' }),
        row('2026-02-30', {}),
        row('2026-05-05', { gift: 'Y' }),
        row('2026-05-06', { price: '' }),
        row('2026-05-07', { price: 0 }),
        row('2026-05-08', { price: '1.234' }),
        row('2026-05-09', { num: 0 }),
        row('2026-05-10', { num: '1.5' }),
        row('2026-05-11', { product: '' }),
      ])
      expect(p.hasError).toBe(true)
      expect(p.successProcess).toBe(0)
      expect(p.tipMsgs).toEqual([
        '第2行：仓库编号不能为空',
        '第3行：供应商编号“NOSUP”不存在',
        '第4行：采购员编号“NOBODY”不存在',
        '第5行：预计到货日期格式不正确，请填写日期，如：2026-01-31',
        '第6行：是否赠品只能填写“是”或“否”',
        '第7行：采购价不能为空',
        '第8行：采购价必须大于0',
        '第9行：采购价最多允许2位小数！',
        '第10行：采购数量必须大于0',
        '第11行：采购数量必须为整数',
        '第12行：商品编号不能为空',
      ])
      expect((await documents('/purchase/order', f.supplierId)).length).toBe(before)
    })

    it('refuses a group with every row in error and every reason of each row, and still writes the other groups', async () => {
      const before = (await documents('/purchase/order', f.supplierId)).length
      const p = await importFile('/purchase/order/import', ORDER_HEADER, [
        ['PISCA', 'PIS1', '', '2026-09-01', 'PIP1', 10, '十', '否', '', '一组'],
        ['PISCA', 'PIS1', '', '2026-09-01', 'PIP2', '1.239', 2, '否', '', ''],
        ['PISCA', 'PIS1', '', '2026-09-01', 'PIP1', 10, 1, '否', '', ''],
        ['PISCA', 'PIS1', '', '2026-09-01', 'NOPROD', -5, 1, '否', '', ''],
        ['PISCA', 'PIS1', '', '2026-09-02', 'PIP1', 10, 1, '否', '', '另一组'],
      ])
      expect(p.hasError).toBe(true)
      expect(p.tipMsgs).toEqual([
        '第2行：采购数量必须为整数',
        '第3行：采购价最多允许2位小数！',
        '第5行：采购价必须大于0',
        '第5行：商品编号“NOPROD”不存在',
      ])
      const docs = await documents('/purchase/order', f.supplierId)
      expect(docs.length - before).toBe(1)
      expect(docs.find((d) => d.description === '一组')).toBeUndefined()
      expect(docs.find((d) => d.description === '另一组')).toMatchObject({ expectArriveDate: '2026-09-02', totalAmount: '10.00' })
    })

    it('reads an .xls file (BIFF8) the same way', async () => {
      const before = (await documents('/purchase/order', f.supplierId)).length
      const sheet = XLSX.utils.aoa_to_sheet([ORDER_HEADER, ['PISCB', 'PIS1', '001', '2026/10/8', 'PIP2', 7, 2, '否', '', 'xls订单']])
      const book = XLSX.utils.book_new()
      XLSX.utils.book_append_sheet(book, sheet, '数据')
      const r = await upload('/purchase/order/import', XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer, admin, '采购订单.xls')
      expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 200 })
      const p = await finished(r.body.data)
      expect(p, JSON.stringify(p)).toMatchObject({ hasError: false, successProcess: 100 })
      const docs = await documents('/purchase/order', f.supplierId)
      expect(docs.length - before).toBe(1)
      expect(docs.find((d) => d.description === 'xls订单')).toMatchObject({ expectArriveDate: '2026-10-08', totalAmount: '14.00', scId: f.scB })
    })

    it('refuses a file without the required columns at once, and a user without the import key', async () => {
      const r = await upload('/purchase/order/import', await workbook(['仓库编号', '商品编号'], [['PISCA', 'PIP1']]))
      expect(r.status).toBe(400)
      expect(r.body.msg).toContain('导入文件缺少列')
      const clerk = await userWithMenus(t, admin, 'piclerk', ['purchase:order:query', 'purchase:order:add'])
      expect((await upload('/purchase/order/import', await workbook(ORDER_HEADER, [['PISCA', 'PIS1', '', '', 'PIP1', 1, 1, '否', '', '']]), clerk)).status).toBe(403)
      expect((await t.call('GET', '/purchase/order/import/template', { token: clerk })).status).toBe(403)
    })
  })

  describe('agreed payments (POST /purchase/order/import/paytype)', () => {
    const order = async (total: { price: string; num: number }, payTypes: unknown[] = []) => {
      const id = await ok<string>('POST', '/purchase/order', { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: total.num, taxPrice: total.price }], payTypes })
      return ok<Doc>('GET', '/purchase/order', undefined, { id })
    }

    it('has a template and needs its own key', async () => {
      const tpl = await templateOf('/purchase/order/import/paytype')
      expect(tpl.header).toEqual(PAY_HEADER)
      expect(tpl.help).toContain('已审核通过的订单不允许导入')
      expect(tpl.help).toContain('不会合并')
      const clerk = await userWithMenus(t, admin, 'pipayclerk', ['purchase:order:query', 'purchase:order:import'])
      expect((await t.call('GET', '/purchase/order/import/paytype/template', { token: clerk })).status).toBe(403)
      const payer = await userWithMenus(t, admin, 'pipayer', ['purchase:order:query', 'purchase:order:import-pay-type'])
      expect((await t.call('GET', '/purchase/order/import/paytype/template', { token: payer })).status).toBe(200)
    })

    it('replaces an order’s agreed payments by the rows of its 单据号, identical ones not merged', async () => {
      const o = await order({ price: '10.00', num: 3 }, [{ id: f.payTypeId, payAmount: '30.00' }])
      const p = await importFile('/purchase/order/import/paytype', PAY_HEADER, [
        [o.code, 'PIPT', 10, '定金'],
        [o.code, 'PIPT', '10.00', '定金'],
        [o.code, 'PICARD', 10, '尾款'],
      ])
      expect(p).toMatchObject({ finished: true, hasError: false, successProcess: 100 })
      const after = await ok<Doc>('GET', '/purchase/order', undefined, { id: o.id })
      // PIPT does not record a content: its text is not kept.
      expect(after.payTypes!.map((x) => [x.payTypeId, x.payAmount, x.text])).toEqual([
        [f.payTypeId, '10.00', null],
        [f.payTypeId, '10.00', null],
        [cardId, '10.00', '尾款'],
      ])
      const timeline = await ok<{ content: string }[]>('GET', '/component/timeline/order', undefined, { orderId: o.id })
      expect(timeline.map((x) => x.content)).toContain('导入约定支付')
      // The order can now be approved (its payments add up).
      expect((await t.call('PATCH', '/purchase/order/approve/pass', { token: admin, body: { id: o.id } })).body.code).toBe(200)
    })

    it('refuses approved orders, zero amounts, unknown orders and pay types, a content a pay type records, and a wrong sum; a refused order keeps its payments', async () => {
      const approved = await order({ price: '5.00', num: 1 }, [{ id: f.payTypeId, payAmount: '5.00' }])
      await ok('PATCH', '/purchase/order/approve/pass', { id: approved.id })
      const zero = await order({ price: '5.00', num: 2 }, [{ id: f.payTypeId, payAmount: '10.00' }])
      const sum = await order({ price: '7.00', num: 1 })
      const text = await order({ price: '8.00', num: 1 })
      const typeless = await order({ price: '9.00', num: 1 })
      const good = await order({ price: '4.00', num: 1 })
      const p = await importFile('/purchase/order/import/paytype', PAY_HEADER, [
        [approved.code, 'PIPT', 5, ''],
        [zero.code, 'PIPT', 10, ''],
        [zero.code, 'PIPT', 0, ''],
        ['NO-SUCH-ORDER', 'PIPT', 1, ''],
        [sum.code, 'PIPT', 6, ''],
        [text.code, 'PICARD', 8, ''],
        [typeless.code, 'NOPT', 9, ''],
        [good.code, 'PIPT', '4.00', ''],
        // A negative amount is told by its sign, not by the places of the field's pattern; every row of the order is listed.
        [zero.code, 'PIPT', -100, ''],
        [zero.code, 'PIPT', '1.239', ''],
      ])
      expect(p.hasError).toBe(true)
      expect(p.tipMsgs).toEqual([
        `第2行：采购订单“${approved.code}”的状态为“审核通过”，不允许导入约定支付`,
        '第4行：支付金额必须大于0',
        '第10行：支付金额必须大于0',
        '第11行：支付金额最多允许2位小数',
        '第5行：单据号“NO-SUCH-ORDER”不存在',
        `第6行：单据号“${sum.code}”所有支付方式的支付金额之和（6.00）不等于含税总金额（7.00），请检查！`,
        '第7行：支付内容不能为空',
        '第8行：支付方式编号“NOPT”不存在',
      ])
      // The refused group wrote nothing: the order keeps the payment it had; the good order got its own.
      expect((await ok<Doc>('GET', '/purchase/order', undefined, { id: zero.id })).payTypes!.map((x) => x.payAmount)).toEqual(['10.00'])
      expect((await ok<Doc>('GET', '/purchase/order', undefined, { id: good.id })).payTypes!.map((x) => [x.payTypeId, x.payAmount])).toEqual([[f.payTypeId, '4.00']])
      expect((await ok<Doc>('GET', '/purchase/order', undefined, { id: approved.id })).payTypes!.map((x) => x.payAmount)).toEqual(['5.00'])
    })
  })

  describe('receive sheets (POST /purchase/receive/sheet/import)', () => {
    it('is refused while receipts must be linked to purchase orders, and nothing is written', async () => {
      await ok('PUT', '/purchase/config', { receiveRequirePurchase: true })
      const before = (await documents('/purchase/receive/sheet', f.supplierId)).length
      // Answered once, before the file is read: the setting refuses the whole file, not each group.
      const file = await workbook(RECEIVE_HEADER, [['PISCA', 'PIS1', '', '', '2026-03-02', 'PIP1', 10, 1, '否', '', '']])
      expect(await upload('/purchase/receive/sheet/import', file)).toMatchObject({ status: 400, body: { msg: '“采购收货单是否关联采购订单”必须设置为“否”才可以导入！' } })
      expect((await documents('/purchase/receive/sheet', f.supplierId)).length).toBe(before)
    })

    it('has a template naming the grouping and the purchase setting it needs', async () => {
      const tpl = await templateOf('/purchase/receive/sheet/import')
      expect(tpl.header).toEqual(RECEIVE_HEADER)
      expect(tpl.disposition).toContain(encodeURIComponent('采购收货单导入模板.xlsx'))
      expect(tpl.help).toContain('按“仓库编号、供应商编号、采购员编号、付款日期、实际到货日期”分组')
      expect(tpl.help).toContain('采购收货单是否关联采购订单')
    })

    it('creates one receive sheet per warehouse, supplier, buyer, payment date and arrival date; a failing group writes nothing', async () => {
      await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
      const before = (await documents('/purchase/receive/sheet', f.supplierId)).length
      const beforeCod = (await documents('/purchase/receive/sheet', f.codSupplierId)).length
      const p = await importFile('/purchase/receive/sheet/import', RECEIVE_HEADER, [
        ['PISCA', 'PIS1', '001', '2026-06-30', '2026-03-02', 'PIP1', '12.00', 2, '否', '明细', '收货一'],
        ['PISCA', 'PIS1', '001', '2026-07-31', '2026-03-02', 'PIP1', '12.00', 1, '否', '', ''],
        ['PISCA', 'PIS1', '001', '2026-06-30', '2026-03-02', 'PIP3', '', 5, '是', '', ''],
        // 货到付款: the payment date is today whatever the file says (as on the screen).
        ['PISCB', 'PIS2', '', '2026-08-01', '2026-03-03', 'PIP2', 3, 1, '否', '', ''],
        // A group with a bad row: nothing of it.
        ['PISCB', 'PIS1', '', '', '2026-03-04', 'PIP2', 3, 1, '否', '', ''],
        ['PISCB', 'PIS1', '', '', '2026-03-04', 'PIP2', 3, -2, '否', '', ''],
        ['PISCB', 'PIS1', '', '', '', 'PIP2', 3, 1, '否', '', ''],
        // A second bad row of the first bad group, with two reasons: every row and reason is listed.
        ['PISCB', 'PIS1', '', '', '2026-03-04', 'PIP2', '1.239', '十', '否', '', ''],
      ])
      expect(p.hasError).toBe(true)
      expect(p.tipMsgs).toEqual(['第7行：收货数量必须大于0', '第9行：收货数量必须为整数', '第9行：采购价最多允许2位小数！', '第8行：实际到货日期不能为空'])
      const sheets = await documents('/purchase/receive/sheet', f.supplierId)
      expect(sheets.length - before).toBe(2)
      const june = sheets.find((s) => s.paymentDate === '2026-06-30')!
      expect(june).toMatchObject({ status: 0, scId: f.scA, purchaserId: adminId, receiveDate: '2026-03-02', description: '收货一', totalNum: 2, totalGiftNum: 5, totalAmount: '24.00' })
      expect(june.details.map((l) => [l.productId, l.orderNum, l.taxPrice, l.isGift])).toEqual([
        [f.p1, 2, '12.00', false],
        [f.p3, 5, '0.00', true],
      ])
      expect(sheets.find((s) => s.paymentDate === '2026-07-31')).toMatchObject({ totalAmount: '12.00' })
      expect(sheets.filter((s) => s.receiveDate === '2026-03-04')).toEqual([])
      const cod = await documents('/purchase/receive/sheet', f.codSupplierId)
      expect(cod.length - beforeCod).toBe(1)
      expect(cod[0]).toMatchObject({ paymentDate: today(), receiveDate: '2026-03-03', totalAmount: '3.00' })
      // Approving an imported sheet posts stock like any other.
      expect((await t.call('PATCH', '/purchase/receive/sheet/approve/pass', { token: admin, body: { id: june.id } })).body.code).toBe(200)
    })
  })
})
