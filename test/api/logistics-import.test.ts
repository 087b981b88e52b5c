import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { multipart, type ImportProgress as Progress } from '../support/import-files.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { saleHelpers, type Doc } from '../support/sale-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'

/**
 * The logistics imports (spec 000 §7 Imports: /logistics/sheet/import and /logistics/sheet/import/delivery,
 * each with its template): one row per sheet, each row on its own, per-row Chinese messages with the
 * row number; sheets created and delivered exactly as the calls do.
 */

describe('logistics imports', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const { call, ok, get, stockIn } = saleHelpers(() => t, () => token)
  const outs: Doc[] = []
  let retail: Doc

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'I')
    await stockIn(f.scA, f.supplierId, [{ productId: f.p1, orderNum: 50, taxPrice: '10.00' }])
    for (let i = 0; i < 3; i++)
      outs.push(await get('/sale/out/sheet', await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }] })))
    retail = await get('/retail/out/sheet', await ok<string>('POST', '/retail/out/sheet/approve/pass/direct', { scId: f.scA, products: [{ productId: f.p1, orderNum: 2, taxPrice: '15.00' }] }))
    await ok('POST', '/basedata/logistics/company', { code: 'ILC1', name: '顺丰', available: true })
    await ok('POST', '/basedata/logistics/company', { code: 'ILC2', name: '圆通', available: true })
  })
  afterAll(async () => t?.close())

  const upload = async (url: string, bytes: Buffer, auth = token) => {
    const { payload, contentType } = multipart('物流单.xlsx', bytes)
    const r = await t.app.inject({ method: 'POST', url: `/cloud-api${url}`, headers: { 'x-auth-token': auth, 'content-type': contentType }, payload })
    return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; msg: string; data: string } }
  }
  const finished = async (id: string): Promise<Progress> => {
    for (let i = 0; i < 400; i++) {
      const r = await t.call<Progress>('GET', '/component/import/task', { token, query: { id } })
      if (r.body.data.finished) return r.body.data
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('import task did not finish')
  }
  /** The downloaded template with rows filled in by header, as a user would. */
  const filled = async (url: string, rows: Record<string, string | number>[]) => {
    const template = await call('GET', `${url}/template`)
    expect(template.status).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map((h) => String(h).replace(/^\*/, ''))
    for (const r of rows) sheet.addRow(headers.map((h) => r[h] ?? null))
    return { headers, bytes: Buffer.from(await book.xlsx.writeBuffer()) }
  }
  const sheets = async () =>
    (await ok<{ datas: { id: string; code: string; status: number; logisticsNo: string | null; logisticsCompanyName: string; totalAmount: string | null }[] }>('GET', '/logistics/sheet/query', undefined, { pageSize: '50' })).datas

  const base = {
    物流公司编号: 'ILC1', 寄件人姓名: '张三', 寄件人联系电话: '13800000001', 寄件人地区: '北京市/市辖区/东城区', 寄件人地址: '东直门1号',
    收件人姓名: '李四', 收件人联系电话: '13800000002', 收件人地区: '广东省/深圳市/南山区', 收件人地址: '科技园2号',
  }

  it('creates one sheet per row; a refused row gets its message and the others are written', async () => {
    const { headers, bytes } = await filled('/logistics/sheet/import', [
      { ...base, 销售出库单号: outs[0].code, 零售出库单号: retail.code, '物流费（元）': 12.5, 备注: '第一单' },
      { ...base },
      { ...base, 销售出库单号: 'NOPE1' },
      { ...base, 销售出库单号: outs[0].code },
      { ...base, 销售出库单号: outs[1].code, 寄件人地区: '火星' },
      { ...base, 销售出库单号: outs[1].code, 物流公司编号: 'NOPE' },
      { ...base, 销售出库单号: outs[1].code, 收件人姓名: '' },
      { ...base, 销售出库单号: `${outs[1].code}，${outs[2].code}`, 物流单号: 'YT-9' },
    ])
    expect(headers).toEqual([
      '物流单号', '销售出库单号', '零售出库单号', '物流公司编号', '寄件人姓名', '寄件人联系电话', '寄件人地区', '寄件人地址',
      '收件人姓名', '收件人联系电话', '收件人地区', '收件人地址', '总重量（kg）', '总体积（cm3）', '物流费（元）', '备注',
    ])
    const r = await upload('/logistics/sheet/import', bytes)
    expect(r.body.code, r.body.msg).toBe(200)
    const task = await finished(r.body.data)
    expect(task.tipMsgs).toEqual([
      '第3行：“销售出库单号、零售出库单号”不能同时为空',
      '第4行：销售出库单号（NOPE1）不存在',
      `第5行：销售出库单【${outs[0].code}】已关联物流单，不允许再次关联物流单`,
      '第6行：寄件人地区（火星）不存在',
      '第7行：物流公司编号（NOPE）不存在',
      '第8行：收件人姓名不能为空',
    ])
    expect(task).toMatchObject({ hasError: true, finished: true, data: { total: 8, created: 2 } })
    const list = await sheets()
    expect(list).toHaveLength(2)
    const one = await get('/logistics/sheet', list.find((s) => s.logisticsNo === null)!.id)
    expect(one).toMatchObject({ status: 0, logisticsCompanyName: '顺丰', senderProvinceId: '11', receiverDistrictId: '440305', totalAmount: '12.50', description: '第一单' })
    expect(one.details.map((d) => [d.bizCode, d.bizType])).toEqual([[outs[0].code, 1], [retail.code, 2]])
    const two = await get('/logistics/sheet', list.find((s) => s.logisticsNo === 'YT-9')!.id)
    expect(two.details.map((d) => d.bizCode)).toEqual([outs[1].code, outs[2].code])
  })

  it('delivers existing sheets by number, each row on its own', async () => {
    const list = await sheets()
    const a = list.find((s) => s.logisticsNo === null)!
    const b = list.find((s) => s.logisticsNo === 'YT-9')!
    const { headers, bytes } = await filled('/logistics/sheet/import/delivery', [
      { 单据号: a.code, 物流公司编号: 'ILC2', 物流单号: 'YT-100', '物流费（元）': '9.9' },
      { 单据号: 'NOPE', 物流单号: 'X' },
      { 单据号: b.code, '物流费（元）': '-1' },
      { 单据号: a.code, 物流单号: 'YT-101' },
      { 单据号: b.code },
      { 单据号: a.code.slice(0, 8) },
    ])
    expect(headers).toEqual(['单据号', '物流公司编号', '物流单号', '物流费（元）'])
    const r = await upload('/logistics/sheet/import/delivery', bytes)
    expect(r.body.code, r.body.msg).toBe(200)
    const task = await finished(r.body.data)
    expect(task.tipMsgs).toEqual([
      '第3行：单据号（NOPE）不存在',
      '第4行：物流费（元）不允许小于0',
      '第5行：物流单已发货，无法重复发货！',
      `第7行：单据号（${a.code.slice(0, 8)}）不存在`,
    ])
    const after = new Map((await sheets()).map((s) => [s.id, s]))
    expect(after.get(a.id)).toMatchObject({ status: 3, logisticsNo: 'YT-100', logisticsCompanyName: '圆通', totalAmount: '9.90' })
    // Without a number in the file, the one already on the sheet is kept.
    expect(after.get(b.id)).toMatchObject({ status: 3, logisticsNo: 'YT-9', logisticsCompanyName: '顺丰' })
  })

  it('refuses a file without the required columns, and callers without the import keys', async () => {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('数据').addRow(['单据号'])
    book.worksheets[0].addRow(['X'])
    const r = await upload('/logistics/sheet/import', Buffer.from(await book.xlsx.writeBuffer()))
    expect(r.status).toBe(400)
    expect(r.body.msg).toMatch(/^导入文件缺少列：/)
    const viewer = await userWithMenus(t, token, 'lgimpview', ['logistics:sheet:query'])
    expect((await upload('/logistics/sheet/import', Buffer.from(await book.xlsx.writeBuffer()), viewer)).status).toBe(403)
    expect((await t.call('GET', '/logistics/sheet/import/delivery/template', { token: viewer })).status).toBe(403)
    // 批量Excel发货 is its own grant (the key its toolbar button declares): delivering one by one is not enough.
    const deliverer = await userWithMenus(t, token, 'lgimpdel', ['logistics:sheet:delivery'])
    expect((await t.call('GET', '/logistics/sheet/import/delivery/template', { token: deliverer })).status).toBe(403)
    const bulk = await userWithMenus(t, token, 'lgimpbulk', ['logistics:sheet:import-delivery'])
    expect((await t.call('GET', '/logistics/sheet/import/delivery/template', { token: bulk })).status).toBe(200)
    expect((await t.call('GET', '/logistics/sheet/import/template', { token: bulk })).status).toBe(403)
  })
})
