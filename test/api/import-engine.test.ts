import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { zipEntries } from '../../src/server/engine/import/zip-entries.js'
import { workbook, multipart, type ImportProgress as Progress, type Cell } from '../support/import-files.js'

/**
 * The import engine of issue 14: .xls read (a file saved by LibreOffice), the type told by content,
 * the row cap, per-row messages (capped), cancel, restart, and streamed exports equal to the list.
 */

const FIXTURES = path.resolve(__dirname, '../fixtures/import')
const BRAND_HEADER = ['*编号', '*名称', '简称', '状态']

describe('import engine and streamed exports', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const upload = async (base: string, filename: string, bytes: Buffer) => {
    const { payload, contentType } = multipart(filename, bytes)
    const r = await t.app.inject({
      method: 'POST',
      url: `/cloud-api${base}/import`,
      headers: { 'x-auth-token': token, 'content-type': contentType },
      payload,
    })
    return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; msg: string; data: string } }
  }
  const task = async (id: string) => (await t.call<Progress>('GET', '/component/import/task', { token, query: { id } })).body.data
  const finished = async (id: string): Promise<Progress> => {
    for (let i = 0; i < 2400; i++) {
      const p = await task(id)
      if (p.finished) return p
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('import task did not finish')
  }
  const importFile = async (base: string, filename: string, bytes: Buffer) => {
    const r = await upload(base, filename, bytes)
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 200 })
    return finished(r.body.data)
  }
  const brands = async (code: string) =>
    (await t.call<{ totalCount: number; datas: Record<string, unknown>[] }>('GET', '/basedata/product/brand/query', { token, query: { code, pageSize: 500 } })).body.data
  const members = async (code: string) =>
    (await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/member/query', { token, query: { code } })).body.data.datas

  it('reads an .xls saved by LibreOffice: text codes, date cells, a row message with its row number', async () => {
    const bytes = fs.readFileSync(path.join(FIXTURES, 'members.xls'))
    expect(bytes.subarray(0, 4).toString('hex')).toBe('d0cf11e0')
    const p = await importFile('/basedata/member', 'members.xls', bytes)
    expect(p).toMatchObject({ finished: true, hasError: true, process: 100, tipMsgs: ['第4行：请输入名称'], data: { total: 3, created: 2, modified: 0 } })
    expect((await members('001')).find((m) => m.code === '001')).toMatchObject({ name: 'xls会员一', gender: 2, birthday: '1990-05-06', joinDay: '2024-01-02' })
    expect((await members('XLS-002'))[0]).toMatchObject({ name: 'xls会员二', joinDay: '2024-03-05' })
    expect(await members('XLS-003')).toEqual([])
  })

  it('tells the type by content, not by the name', async () => {
    const xlsx = await workbook(BRAND_HEADER, [['SNIFF-1', '按内容识别', null, null]])
    // An .xlsx named .xls is read as what it is.
    expect(await importFile('/basedata/product/brand', 'renamed.xls', xlsx)).toMatchObject({ hasError: false, data: { created: 1 } })
    // A zip that is no workbook, a PNG named .xlsx, an .xls named .xlsx that is text: refused at once.
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    for (const [name, bytes] of [['a.xlsx', png], ['b.xlsx', Buffer.from('编号,名称\nA,B')], ['c.xlsx', Buffer.from('504b030400000000', 'hex')]] as const) {
      const r = await upload('/basedata/product/brand', name, bytes)
      expect(r.status, name).toBe(400)
      expect(r.body.msg, name).toBe('无法读取该文件，请下载模板填写后上传！')
    }
    const csv = await upload('/basedata/product/brand', 'a.csv', xlsx)
    expect(csv.body.msg).toBe('仅支持上传xls、xlsx格式的文件！')
  })

  it('caps rows by the parameter excel-import.max-size (default 1,000,000) and writes nothing beyond it', async () => {
    const params = await t.call<{ datas: { id: string; pKey: string; pValue: string }[] }>('GET', '/system/parameter/query', { token, query: { pKey: 'excel-import.max-size' } })
    const param = params.body.data.datas.find((p) => p.pKey === 'excel-import.max-size')!
    expect(Number(param.pValue)).toBeGreaterThanOrEqual(1_000_000)
    await t.call('PUT', '/system/parameter', { token, body: { id: param.id, pKey: param.pKey, pValue: '3' } })
    try {
      const four = await workbook(BRAND_HEADER, [1, 2, 3, 4].map((i) => [`CAP-${i}`, `品牌${i}`, null, null]))
      const r = await upload('/basedata/product/brand', 'cap.xlsx', four)
      expect(r).toMatchObject({ status: 400, body: { msg: '每次最多导入3条数据！' } })
      expect((await brands('CAP-')).totalCount).toBe(0)
      const three = await workbook(BRAND_HEADER, [1, 2, 3].map((i) => [`CAP-${i}`, `品牌${i}`, null, null]))
      expect(await importFile('/basedata/product/brand', 'cap.xlsx', three)).toMatchObject({ hasError: false, data: { created: 3 } })
    } finally {
      await t.call('PUT', '/system/parameter', { token, body: { id: param.id, pKey: param.pKey, pValue: param.pValue } })
    }
  })

  it('caps the rows of a file, not its blank formatted rows: a file over the cap by its row elements is counted exactly', async () => {
    const params = await t.call<{ datas: { id: string; pKey: string; pValue: string }[] }>('GET', '/system/parameter/query', { token, query: { pKey: 'excel-import.max-size' } })
    const param = params.body.data.datas.find((p) => p.pKey === 'excel-import.max-size')!
    await t.call('PUT', '/system/parameter', { token, body: { id: param.id, pKey: param.pKey, pValue: '3' } })
    try {
      const book = new ExcelJS.Workbook()
      const sheet = book.addWorksheet('品牌')
      sheet.addRow(BRAND_HEADER)
      for (const i of [1, 2, 3]) sheet.addRow([`BLANKFMT-${i}`, `格式品牌${i}`])
      // Rows 5-9 have a styled cell and no value: row elements a writer leaves in the file.
      for (let r = 5; r < 10; r++) sheet.getRow(r).getCell(1).style = { font: { bold: true } }
      const bytes = Buffer.from(await book.xlsx.writeBuffer())
      expect(bytes.toString('latin1')).not.toContain('BLANKFMT-4')
      expect(await importFile('/basedata/product/brand', 'blank-rows.xlsx', bytes)).toMatchObject({ hasError: false, data: { total: 3, created: 3 } })
    } finally {
      await t.call('PUT', '/system/parameter', { token, body: { id: param.id, pKey: param.pKey, pValue: param.pValue } })
    }
  })

  it('refuses a file whose sheet is damaged further on at once, and writes none of its rows', async () => {
    const rows: Cell[][] = []
    for (let i = 1; i <= 3000; i++) rows.push([`DAMAGED-${i}`, `损坏品牌${i}`, null, null])
    const bytes = await workbook(BRAND_HEADER, rows)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'damaged-'))
    try {
      fs.writeFileSync(path.join(dir, 'a.xlsx'), bytes)
      const sheet = [...zipEntries(path.join(dir, 'a.xlsx')).values()].find((e) => e.name.startsWith('xl/worksheets/'))!
      const data = sheet.offset + 30 + bytes.readUInt16LE(sheet.offset + 26) + bytes.readUInt16LE(sheet.offset + 28)
      // Two thirds into the compressed sheet: its first rows inflate fine, then the stream is broken.
      bytes.fill(0xff, data + Math.floor((sheet.compressedSize * 2) / 3), data + Math.floor((sheet.compressedSize * 2) / 3) + 64)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    const r = await upload('/basedata/product/brand', 'damaged.xlsx', bytes)
    expect(r).toMatchObject({ status: 400, body: { msg: '无法读取该文件，请下载模板填写后上传！' } })
    expect((await brands('DAMAGED-')).totalCount).toBe(0)
  })

  it('lists failing rows as 第N行：…, at most 1000 of them and a count of the rest; the good rows are written', async () => {
    const rows: Cell[][] = []
    for (let i = 1; i <= 1203; i++) rows.push([`MANY-${i}`, i % 100 === 0 ? `好品牌${i}` : null, null, null])
    const p = await importFile('/basedata/product/brand', 'many.xlsx', await workbook(BRAND_HEADER, rows))
    expect(p.hasError).toBe(true)
    expect(p.tipMsgs).toHaveLength(1001)
    expect(p.tipMsgs.slice(0, 2)).toEqual(['第2行：请输入名称', '第3行：请输入名称'])
    expect(p.tipMsgs[1000]).toBe('……共1191处错误，仅列出前1000条')
    expect(p.data).toEqual({ total: 1203, created: 12, modified: 0 })
    expect(p.successProcess).toBe(Math.floor((12 * 100) / 1203))
    expect((await brands('MANY-')).totalCount).toBe(12)
  }, 240_000)

  it('cancels a running import at a batch boundary, keeping what was committed', async () => {
    const rows: Cell[][] = []
    for (let i = 1; i <= 20000; i++) rows.push([`CANCEL-${i}`, `取消品牌${i}`, null, null])
    const r = await upload('/basedata/product/brand', 'cancel.xlsx', await workbook(BRAND_HEADER, rows))
    expect(r.body.code).toBe(200)
    const cancel = await t.call('DELETE', '/component/import/task', { token, query: { id: r.body.data } })
    expect(cancel.body).toMatchObject({ code: 200 })
    const p = await finished(r.body.data)
    expect(p).toMatchObject({ finished: true, hasError: true })
    const kept = Number(/^导入已取消：取消前已导入的(\d+)条数据已保存，其余未导入。$/.exec(p.tipMsgs[0])?.[1])
    expect(kept).toBeLessThan(20000)
    expect(kept % 1000).toBe(0)
    expect((await brands('CANCEL-')).totalCount).toBe(kept)
    // Without the region prefix too, and only while running.
    const bare = await t.app.inject({ method: 'DELETE', url: `/component/import/task?id=${r.body.data}`, headers: { 'x-auth-token': token } })
    expect(JSON.parse(bare.body)).toMatchObject({ code: 400, msg: '导入任务已结束或不存在，无法取消！' })
  }, 240_000)

  it('marks a task the previous process left unfinished as failed at start-up', async () => {
    const platform = t.app.services.databases.platform
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
    const audit = { create_by: 'x', create_by_id: 'x', create_time: now, update_by: 'x', update_by_id: 'x', update_time: now }
    const login = await t.call<{ id: string }>('GET', '/auth/info', { token })
    const user = await platform.selectFrom('sys_import_task').select(['tenant_id', 'user_id']).executeTakeFirstOrThrow()
    expect(login.status).toBe(200)
    await platform
      .insertInto('sys_import_task')
      .values({ id: 'crashed-task', tenant_id: user.tenant_id, user_id: user.user_id, entity: 'brand', total: 10, process: 40, success_process: 40, tip_msgs: '[]', has_error: 0, finished: 0, data: null, ...audit })
      .execute()
    await t.restart()
    token = await t.login()
    expect(await task('crashed-task')).toMatchObject({
      finished: true,
      hasError: true,
      successProcess: 40,
      tipMsgs: ['导入任务因服务重启而中断：整体导入的文件未保存任何数据；逐行或按组导入的文件中断前已导入的数据已保存，请核对后重新导入其余数据！'],
    })
  })

  it('streams an export whose rows equal the list, over several slices (keyset on the list order)', async () => {
    const owner = await t.call<string>('POST', '/basedata/supplier', { token, body: { code: 'EXP-OWNER', name: '导出供应商', settleType: 1, manageType: 1 } })
    const header = ['*实体类型', '*实体ID', '*地址类型', '*姓名', '*手机号', '*地区', '*详细地址', '默认地址']
    const rows: Cell[][] = []
    for (let i = 1; i <= 2345; i++)
      rows.push(['供应商', owner.body.data, i % 2 ? '发货地址' : '收货地址', `导出${String(i).padStart(5, '0')}`, `138${String(i % 7).repeat(8)}`, '浙江省/杭州市/西湖区', `文三路${i}号`, '否'])
    expect(await importFile('/basedata/address', 'export.xlsx', await workbook(header, rows))).toMatchObject({ hasError: false, data: { created: 2345 } })
    // The list's own order (createTime desc, ties by id: the rows share seconds), a sort on a required
    // column with ties (telephone), and a unique-valued one (name).
    for (const sort of [{}, { sortField: 'telephone', sortOrder: 'asc' }, { sortField: 'name', sortOrder: 'desc' }]) {
      const query = { entityId: owner.body.data, ...sort }
      const r = await t.call('POST', '/basedata/address/export', { token, query })
      expect(r.status).toBe(200)
      expect(r.headers['x-total-count']).toBe('2345')
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
      const sheet = book.worksheets[0]
      expect(sheet.getRow(1).getCell(4).value).toBe('姓名')
      const exported: string[] = []
      sheet.eachRow((row, n) => {
        if (n > 1) exported.push(`${row.getCell(4).value}|${row.getCell(5).value}|${row.getCell(3).value}|${row.getCell(6).value}`)
      })
      const listed: string[] = []
      for (let page = 1; listed.length < 2345; page++) {
        const l = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/address/query', { token, query: { ...query, pageIndex: page, pageSize: 500 } })
        listed.push(...l.body.data.datas.map((d) => `${d.name}|${d.telephone}|${d.addressType === 1 ? '发货地址' : '收货地址'}|浙江省/杭州市/西湖区`))
      }
      expect(exported).toEqual(listed)
    }
  }, 240_000)

  it('streams a document export equal to its list', async () => {
    const list = await t.call<{ totalCount: number; datas: { id: string }[] }>('GET', '/purchase/order/query', { token, query: { pageSize: 500 } })
    const r = await t.call('GET', '/purchase/order/export', { token })
    expect(r.status).toBe(200)
    expect(r.headers['x-total-count']).toBe(String(list.body.data.totalCount))
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
    expect(book.worksheets[0].rowCount).toBe(list.body.data.totalCount + 1)
  })
})
