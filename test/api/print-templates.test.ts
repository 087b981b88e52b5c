import { PDFParse } from 'pdf-parse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import type { PrintTemplateContent } from '../../src/shared/print/print-template.js'
import { rmbCapitals } from '../../src/shared/print/rmb-capitals.js'

/**
 * Print templates (issue 34) on the real app: printing purchase orders to PDF with the built-in layout,
 * a designed one and an older version of it; counts and op log per print; who may print or design;
 * export and import; refusals that change nothing.
 */
describe('print templates and printing', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let roleId: string
  let f: TradeFixtures
  const orders: string[] = []

  const pdfText = async (raw: Buffer) => new PDFParse({ data: new Uint8Array(raw) }).getText()
  const printOf = (token: string, query: Record<string, string | number>) => t.call('GET', '/print/pdf', { token, query: { kind: 'purchaseOrder', ...query } })
  const order = async (id: string) => (await t.call<Record<string, unknown>>('GET', '/purchase/order', { token: admin, query: { id } })).body.data
  const printLogs = async () =>
    (await t.call<{ datas: { name: string; extra: string | null }[] }>('GET', '/system/oplog/query', { token: admin, query: { pageSize: 500 } })).body.data.datas.filter((l) => l.name.startsWith('打印采购订单'))
  const templates = async () => (await t.call<{ id: string; version: number; isDefault: boolean; name: string }[]>('GET', '/system/print-template/query', { token: admin, query: { kind: 'purchaseOrder' } })).body.data
  const builtin = async (paper = 'A4') => (await t.call<PrintTemplateContent>('GET', '/system/print-template/builtin', { token: admin, query: { kind: 'purchaseOrder', paper } })).body.data

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    f = await createTradeFixtures(t, admin)
    for (const [num, price] of [[3, '12.50'], [2, '4000.00'], [1, '0.35']] as const) {
      const r = await t.call<string>('POST', '/purchase/order', {
        token: admin,
        body: { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: num, taxPrice: price }, { productId: f.p2, orderNum: 1, taxPrice: '1.00' }], payTypes: [{ id: f.payTypeId, payAmount: (num * Number(price) + 1).toFixed(2) }] },
      })
      expect(r.body.code, r.raw).toBe(200)
      orders.push(r.body.data)
    }
    const created = async (url: string, body: unknown) => {
      const r = await t.call<string>('POST', url, { token: admin, body })
      if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
      return r.body.data
    }
    const userId = await created('/system/user', { code: 'pr01', name: '打印员', username: 'pr01user', password: 'secret123', gender: 0, available: true })
    roleId = await created('/system/role', { code: 'PRT', name: '只读采购', available: true })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [userId], roleIds: [roleId] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin, query: { roleId } })
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [roleId], menuIds: menus.body.data.filter((m) => m.permission === 'purchase:order:query').map((m) => m.id) } })
    clerk = await t.login('pr01user', 'secret123')
  }, 120_000)
  afterAll(async () => t?.close())

  it('prints a purchase order with the built-in layout: fields, lines, total and capitals in order; counts the print and logs it', async () => {
    const before = await order(orders[0])
    expect(before.printCount ?? 0).toBe(0)
    const r = await printOf(admin, { ids: orders[0] })
    expect(r.status, r.raw.slice(0, 300)).toBe(200)
    expect(String(r.headers['content-type'])).toContain('application/pdf')
    const text = (await pdfText(r.rawPayload)).text
    const order0 = await order(orders[0])
    const at = (s: string) => {
      const i = text.indexOf(s)
      expect(i, `${s} in ${text}`).toBeGreaterThanOrEqual(0)
      return i
    }
    // Title, number, supplier, head row, the two lines, grand total, capitals: in reading order.
    const positions = [at('采购订单'), at(String(order0.code)), at('供应商'), at('序号'), at('FP1'), at('FP2'), at('38.50'), at(rmbCapitals('38.50'))]
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(rmbCapitals('38.50')).toBe('叁拾捌元伍角')
    expect(order0.printCount).toBe(1)
    expect(order0.lastPrintTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    const logs = await printLogs()
    expect(logs.map((l) => l.name)).toEqual([`打印采购订单，单号：${String(order0.code)}`])
    expect(JSON.parse(logs[0].extra ?? '{}')).toMatchObject({ id: orders[0], templateId: null, version: 0, printCount: 1 })
  })

  it('prints a batch of 3 into one PDF of 3 × the pages, counting each', async () => {
    const one = await pdfText((await printOf(admin, { ids: orders[1] })).rawPayload)
    const r = await printOf(admin, { ids: orders.join(',') })
    expect(r.status).toBe(200)
    const all = await pdfText(r.rawPayload)
    expect(one.total).toBe(1)
    expect(all.total).toBe(3 * one.total)
    expect((await Promise.all(orders.map(order))).map((o) => o.printCount)).toEqual([2, 2, 1])
    expect(await printLogs()).toHaveLength(1 + 1 + 3)
  })

  it('saves versions of a designed template; a print uses the default one, or the version asked for; a stale save is refused', async () => {
    const v1 = await builtin('241x93.1')
    expect(v1.paper).toEqual({ preset: '241x93.1', width: 241, height: 93.1 })
    const created = await t.call<string>('POST', '/system/print-template', { token: admin, body: { kind: 'purchaseOrder', name: '三联套打', content: v1 } })
    expect(created.body.code, created.raw).toBe(200)
    const id = created.body.data
    expect(await templates()).toMatchObject([{ id, name: '三联套打', version: 1, isDefault: true }])
    const v2: PrintTemplateContent = { ...v1, schemas: v1.schemas.map((s) => (s.name === 'title' ? { ...s, content: '采购订单（套打）' } : s)) }
    const saved = await t.call<number>('PUT', '/system/print-template', { token: admin, body: { id, name: '三联套打', version: 1, content: v2 } })
    expect(saved.body).toMatchObject({ code: 200, data: 2 })
    const stale = await t.call('PUT', '/system/print-template', { token: admin, body: { id, name: '覆盖', version: 1, content: v1 } })
    expect(stale.status).toBe(400)
    expect(stale.body.msg).toBe('打印模板已被他人修改，请刷新后重试')
    expect(await templates()).toMatchObject([{ id, name: '三联套打', version: 2 }])
    expect((await t.call<PrintTemplateContent>('GET', '/system/print-template', { token: admin, query: { id, version: 1 } })).body.data).toMatchObject({ content: v1, version: 1 })

    const byDefault = (await pdfText((await printOf(admin, { ids: orders[2] })).rawPayload)).text
    expect(byDefault).toContain('采购订单（套打）')
    const older = (await pdfText((await printOf(admin, { ids: orders[2], templateId: id, version: 1 })).rawPayload)).text
    expect(older).toContain('采购订单')
    expect(older).not.toContain('套打')
    const logs = await printLogs()
    expect(logs.slice(0, 2).map((l) => JSON.parse(l.extra ?? '{}'))).toEqual(
      expect.arrayContaining([expect.objectContaining({ templateId: id, version: 1 }), expect.objectContaining({ templateId: id, version: 2 })]),
    )
  })

  it('exports a template as a file and imports it back as a new template of the kind', async () => {
    const [first] = await templates()
    const exported = await t.call('GET', '/system/print-template/export', { token: admin, query: { id: first.id } })
    expect(exported.status).toBe(200)
    expect(String(exported.headers['content-disposition'])).toContain('.print.json')
    const file = JSON.parse(exported.raw) as { format: string; name: string; content: PrintTemplateContent }
    expect(file.format).toBe('xingyun-print/1')
    const imported = await t.call<string>('POST', '/system/print-template/import', { token: admin, body: { kind: 'purchaseOrder', file } })
    expect(imported.body.code, imported.raw).toBe(200)
    const back = await t.call<{ content: PrintTemplateContent; isDefault: boolean }>('GET', '/system/print-template', { token: admin, query: { id: imported.body.data } })
    expect(back.body.data.content).toEqual(file.content)
    expect(back.body.data.isDefault).toBe(false)
    expect(await templates()).toHaveLength(2)
  })

  it('refuses bad templates and bad print requests with a Chinese message, changing nothing', async () => {
    const base = await builtin()
    const before = JSON.stringify(await templates())
    const logsBefore = (await printLogs()).length
    const counts = JSON.stringify((await Promise.all(orders.map(order))).map((o) => o.printCount))
    const refused: [string, unknown, string][] = [
      ['unknown field', { ...base, schemas: [...base.schemas, { ...base.schemas[3], name: 'password' }] }, '打印模板中的字段不属于该单据或不可读：password'],
      ['a line column of another kind', { ...base, lineColumns: ['rowNo', 'saleNum'] }, '明细表的列只能是该单据的明细字段'],
      ['an expression', { ...base, schemas: [...base.schemas, { ...base.schemas[0], name: 'x', content: '{1+1}' }] }, '打印模板中的文字不能包含花括号'],
      ['a fetched image', { ...base, schemas: [...base.schemas, { name: 'logo', type: 'image', readOnly: true, content: 'http://10.0.0.1/x.png', position: { x: 1, y: 1 }, width: 10, height: 10 }] }, '图片只能是不超过2MB的png或jpeg图片'],
      ['a plugin that is not offered', { ...base, schemas: [...base.schemas, { ...base.schemas[0], name: 'sig', type: 'signature' }] }, '打印模板不支持该元素类型：signature'],
      ['another kind', { ...base, kind: 'saleOrder' }, '打印模板不属于该单据类型'],
      ['a paper too large', { ...base, paper: { preset: 'custom', width: 5000, height: 100 } }, '纸张设置不正确'],
      ['not a template', 'x', '打印模板内容格式不正确'],
    ]
    for (const [why, content, msg] of refused) {
      const r = await t.call('POST', '/system/print-template', { token: admin, body: { kind: 'purchaseOrder', name: why, content } })
      expect({ why, status: r.status, msg: r.body.msg }).toEqual({ why, status: 400, msg })
    }
    const noName = await t.call('POST', '/system/print-template', { token: admin, body: { kind: 'purchaseOrder', name: ' ', content: base } })
    expect(noName.body).toMatchObject({ code: 400, msg: '模板名称不能为空' })
    const badImport = await t.call('POST', '/system/print-template/import', { token: admin, body: { kind: 'purchaseOrder', file: { format: 'other' } } })
    expect(badImport.body).toMatchObject({ code: 400, msg: '文件不是打印模板' })
    const badKind = await printOf(admin, { kind: 'nothing', ids: orders[0] })
    expect(badKind.body).toMatchObject({ code: 400, msg: '请选择单据类型' })
    expect((await printOf(admin, { ids: '' })).body).toMatchObject({ code: 400, msg: '请选择要打印的采购订单' })
    const missing = await printOf(admin, { ids: `${orders[0]},nope` })
    expect(missing.body).toMatchObject({ code: 404, msg: '采购订单不存在！' })
    const [tpl] = await templates()
    const wrongKind = await t.call('GET', '/print/pdf', { token: admin, query: { kind: 'saleOrder', ids: orders[0], templateId: tpl.id } })
    expect(wrongKind.body).toMatchObject({ code: 400, msg: '打印模板不属于该单据类型' })
    expect(JSON.stringify(await templates())).toBe(before)
    expect((await printLogs()).length).toBe(logsBefore)
    expect(JSON.stringify((await Promise.all(orders.map(order))).map((o) => o.printCount))).toBe(counts)
  })

  it('lets a reader of purchase orders print them, not design templates nor print other kinds; rows outside the data permission are not printed', async () => {
    const r = await printOf(clerk, { ids: orders[0] })
    expect(r.status).toBe(200)
    expect((await t.call('GET', '/system/print-template/query', { token: clerk })).status).toBe(403)
    expect((await t.call('POST', '/system/print-template', { token: clerk, body: { kind: 'purchaseOrder', name: 'x', content: await builtin() } })).status).toBe(403)
    expect((await t.call('GET', '/print/pdf', { token: clerk, query: { kind: 'saleOrder', ids: orders[0] } })).status).toBe(403)
    const count = (await order(orders[0])).printCount
    const logs = (await printLogs()).length
    // Data permission of the order model: only orders created after 2999 (detail 17 = 创建时间, condition 1 = greater than).
    const saved = await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [roleId], bizType: 0, permissionType: 2, permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 17, conditionType: 1, value: '2999-01-01 00:00:00' }] }]) },
    })
    expect(saved.body.code).toBe(200)
    const hidden = await printOf(clerk, { ids: orders[0] })
    expect(hidden.body).toMatchObject({ code: 404, msg: '采购订单不存在！' })
    expect((await order(orders[0])).printCount).toBe(count)
    expect((await printLogs()).length).toBe(logs)
  })
})
