import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082',
  'hex',
)
const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`

function multipart(filename: string, content: Buffer) {
  const boundary = '----sw-upload-boundary'
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** A workbook with a merged, filled, bordered cell, a formula, fonts, alignment, sizes and an image. */
function richWorkbook() {
  return {
    sheets: [
      {
        name: '销售',
        order: 0,
        status: 1,
        celldata: [
          { r: 0, c: 0, v: { v: '标题', m: '标题', ct: { fa: 'General', t: 'g' }, bg: '#ffff00', bl: 1, fs: 14, fc: '#ff0000', ht: 0, vt: 0, mc: { r: 0, c: 0, rs: 1, cs: 2 } } },
          { r: 0, c: 1, v: { mc: { r: 0, c: 0 } } },
          { r: 1, c: 0, v: { v: 2, m: '2', ct: { fa: 'General', t: 'n' } } },
          { r: 1, c: 1, v: { v: 3, m: '3', ct: { fa: 'General', t: 'n' }, it: 1, ff: '宋体' } },
          { r: 2, c: 0, v: { v: 5, m: '5', f: '=A2+B2', ct: { fa: 'General', t: 'n' }, ht: 2 } },
        ],
        config: {
          merge: { '0_0': { r: 0, c: 0, rs: 1, cs: 2 } },
          rowlen: { '0': 30 },
          columnlen: { '0': 120 },
          borderInfo: [
            { rangeType: 'range', borderType: 'border-all', style: '8', color: '#0000ff', range: [{ row: [0, 0], column: [0, 1] }] },
            { rangeType: 'cell', value: { row_index: 2, col_index: 0, b: { style: 7, color: '#000000' } } },
          ],
        },
        images: [{ id: 'img1', src: PNG_URL, left: 200, top: 40, width: 30, height: 20 }],
      },
      { name: 'Sheet2', order: 1, celldata: [{ r: 0, c: 0, v: '纯文本' }] },
    ],
    info: { name: 'ignored' },
  }
}

/** 在线Excel (/sw/excel) and 文件收纳箱 (/sw/filebox) on the real app. */
describe('online spreadsheet and file box', () => {
  let t: TestApp
  let admin: string
  let alice: string
  let bob: string
  let bobId: string
  let carol: string
  let noRole: string
  let otherTenant: string
  const excelKeys = ['smart-work:online-excel:query', 'smart-work:online-excel:add', 'smart-work:online-excel:modify', 'smart-work:online-excel:send']
  const boxKeys = ['smart-work:file-box:query', 'smart-work:file-box:upload', 'smart-work:file-box:send']

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    alice = await userWithMenus(t, admin, 'swalice', [...excelKeys, ...boxKeys])
    bob = await userWithMenus(t, admin, 'swbob', [...excelKeys, ...boxKeys])
    carol = await userWithMenus(t, admin, 'swcarol', ['smart-work:online-excel:query', 'smart-work:file-box:query'])
    noRole = await userWithMenus(t, admin, 'swnorole', [])
    bobId = ((await t.call<{ user: { id: string } }>('GET', '/auth/info', { token: bob })).body.data).user.id
    const operator = admin
    const tenant = await t.call('POST', '/system/tenant', { token: operator, body: { id: '2000', name: '第二租户', available: true } })
    expect(tenant.status, tenant.raw).toBe(200)
    otherTenant = await t.login('2000@admin')
  }, 120_000)
  afterAll(async () => t?.close())

  const ok = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, token: string, body?: unknown, query?: Record<string, string>) => {
    const r = await t.call<T>(method, url, { token, body, query })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.code, r.raw).toBe(200)
    return r.body
  }
  const refused = async (method: 'GET' | 'POST' | 'PUT', url: string, token: string, body?: unknown, query?: Record<string, string>) => {
    const r = await t.call(method, url, { token, body, query })
    expect(r.status, r.raw).toBeGreaterThanOrEqual(400)
    expect(r.status, r.raw).toBeLessThan(500)
    return r.body
  }
  const createSheet = async (name: string, as = alice) => (await ok<string>('POST', '/sw/excel', as, { name })).data
  const listNames = async (as: string) =>
    (await ok<{ datas: { id: string; name: string; senderId: string | null; senderName?: string }[] }>('GET', '/sw/excel/query', as, undefined, { pageSize: '100' })).data.datas
  const upload = async (filename: string, content: Buffer, token = alice, url = '/sw/filebox/upload') => {
    const { payload, headers } = multipart(filename, content)
    const r = await t.app.inject({ method: 'POST', url: `/cloud-api${url}`, headers: { ...headers, 'x-auth-token': token }, payload })
    return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; msg: string; data: { id: string; name: string; fileSize: number } | string } }
  }

  it('creates, lists, gets and modifies a sheet; a new sheet opens on an empty Sheet1', async () => {
    const id = await createSheet('月度预算')
    const got = (await ok<{ name: string; ownerId: string }>('GET', '/sw/excel', alice, undefined, { id })).data
    expect(got.name).toBe('月度预算')
    const content = (await ok<{ sheets: { name: string; celldata: unknown[] }[]; info: { name: string } }>('GET', '/sw/excel/content', alice, undefined, { id })).data
    expect(content).toEqual({ sheets: [expect.objectContaining({ name: 'Sheet1', celldata: [] })], info: { name: '月度预算' } })
    await ok('PUT', '/sw/excel', alice, { id, name: '月度预算（改）', description: '第一版' })
    expect((await listNames(alice)).find((s) => s.id === id)?.name).toBe('月度预算（改）')
    expect((await refused('POST', '/sw/excel', alice, { name: '' })).msg).toBe('请输入名称')
  })

  it('saves content (保存成功) and answers it back; names the workbook after the sheet', async () => {
    const id = await createSheet('保存测试')
    const saved = await ok('PUT', '/sw/excel/content', alice, { id, content: JSON.stringify(richWorkbook()) })
    expect(saved.msg).toBe('保存成功')
    const back = (await ok<{ sheets: { name: string; celldata: { r: number; c: number }[]; images: unknown[] }[]; info: { name: string } }>('GET', '/sw/excel/content', alice, undefined, { id })).data
    expect(back.info.name).toBe('保存测试')
    expect(back.sheets.map((s) => s.name)).toEqual(['销售', 'Sheet2'])
    expect(back.sheets[0].celldata).toHaveLength(5)
    expect(back.sheets[0].images).toHaveLength(1)
  })

  it("answers 'Excel文件不存在！' for a missing id, someone else's sheet and another tenant's", async () => {
    const id = await createSheet('私有表格')
    for (const [token, query] of [
      [alice, {}],
      [alice, { id: 'no-such-sheet' }],
      [bob, { id }],
      [otherTenant, { id }],
    ] as const) {
      const r = await t.call('GET', '/sw/excel/content', { token, query })
      expect(r.status, r.raw).toBe(404)
      expect(r.body.msg).toBe('Excel文件不存在！')
    }
    expect((await refused('GET', '/sw/excel', bob, undefined, { id })).msg).toBe('在线Excel不存在！')
    expect((await refused('PUT', '/sw/excel/content', bob, { id, content: JSON.stringify(richWorkbook()) })).msg).toBe('Excel文件不存在！')
    expect((await refused('PUT', '/sw/excel', bob, { id, name: '偷改' })).msg).toBe('在线Excel不存在！')
    expect((await refused('GET', '/sw/excel/export', bob, undefined, { id })).msg).toBe('Excel文件不存在！')
    expect((await listNames(bob)).map((s) => s.id)).not.toContain(id)
    expect((await listNames(otherTenant)).map((s) => s.id)).not.toContain(id)
    // Nothing of Alice's changed.
    expect((await ok<{ name: string }>('GET', '/sw/excel', alice, undefined, { id })).data.name).toBe('私有表格')
  })

  it('refuses bad content with a Chinese 400 and keeps what was stored', async () => {
    const id = await createSheet('校验')
    await ok('PUT', '/sw/excel/content', alice, { id, content: JSON.stringify(richWorkbook()) })
    const bad: [unknown, string][] = [
      [undefined, '请传入表格内容'],
      ['{not json', '表格内容格式不正确！'],
      [JSON.stringify({ info: {} }), '表格内容格式不正确！缺少sheets'],
      [JSON.stringify({ sheets: [] }), '表格内容格式不正确！至少需要一个工作表'],
      [JSON.stringify({ sheets: [{ name: 'A', celldata: [{ r: -1, c: 0, v: 1 }] }] }), '表格内容格式不正确！工作表A有单元格位置不正确'],
      [JSON.stringify({ sheets: [{ name: 'A', celldata: [{ r: 0, c: 0, v: { f: 42 } }] }] }), '表格内容格式不正确！工作表A有公式不正确'],
      [JSON.stringify({ sheets: [{ name: 'A' }, { name: 'A' }] }), '表格内容格式不正确！工作表名称重复：A'],
      [JSON.stringify({ sheets: [{ name: 'A', config: { merge: { x: { r: 0 } } } }] }), '表格内容格式不正确！工作表A的合并单元格不正确'],
      [JSON.stringify({ sheets: [{ name: 'A', images: [{ src: 'http://example.invalid/x.png', left: 0, top: 0, width: 1, height: 1 }] }] }), '表格内容格式不正确！工作表A的图片不正确'],
      [42, '请传入表格内容'],
    ]
    for (const [content, msg] of bad) expect((await refused('PUT', '/sw/excel/content', alice, { id, content })).msg).toBe(msg)
    const back = (await ok<{ sheets: { name: string }[] }>('GET', '/sw/excel/content', alice, undefined, { id })).data
    expect(back.sheets.map((s) => s.name)).toEqual(['销售', 'Sheet2'])
  })

  it('refuses content over the size limit with a clear message', async () => {
    const id = await createSheet('超大')
    const cell = 'x'.repeat(1000)
    const celldata = Array.from({ length: 21_000 }, (_, i) => ({ r: i, c: 0, v: cell }))
    const content = JSON.stringify({ sheets: [{ name: 'Big', celldata }] })
    expect(Buffer.byteLength(content)).toBeGreaterThan(20 * 1024 * 1024)
    const r = await refused('PUT', '/sw/excel/content', alice, { id, content })
    expect(r.msg).toBe('表格内容不能超过20MB，请拆分后再保存！')
    // A body past the route's own limit (twice the content limit, for the escaping) is refused before parsing.
    const huge = await t.call('PUT', '/sw/excel/content', { token: alice, body: { id, content: 'x'.repeat(41 * 1024 * 1024) } })
    expect([huge.status, huge.body.msg]).toEqual([413, '请求内容过大，不能超过40MB'])
    const back = (await ok<{ sheets: { name: string }[] }>('GET', '/sw/excel/content', alice, undefined, { id })).data
    expect(back.sheets.map((s) => s.name)).toEqual(['Sheet1'])
  }, 60_000)

  it('exports values, formulas, fills, fonts, alignments, borders, merges, sizes and images; imports them back', async () => {
    const id = await createSheet('导出')
    await ok('PUT', '/sw/excel/content', alice, { id, content: JSON.stringify(richWorkbook()) })
    const r = await t.call('GET', '/sw/excel/export', { token: alice, query: { id } })
    expect(r.status, r.raw.slice(0, 300)).toBe(200)
    expect(String(r.headers['content-disposition'])).toContain(encodeURIComponent('导出.xlsx'))
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
    const ws = book.getWorksheet('销售')!
    expect(ws.getCell('A1').value).toBe('标题')
    expect(ws.getCell('A1').isMerged && ws.getCell('B1').master.address).toBe('A1')
    expect(ws.getCell('A1').fill).toMatchObject({ type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } })
    expect(ws.getCell('A1').font).toMatchObject({ bold: true, size: 14, color: { argb: 'FFFF0000' } })
    expect(ws.getCell('A1').alignment).toMatchObject({ horizontal: 'center', vertical: 'middle' })
    expect(ws.getCell('A1').border.top).toMatchObject({ style: 'medium', color: { argb: 'FF0000FF' } })
    expect(ws.getCell('B2').font).toMatchObject({ italic: true, name: '宋体', size: 10 })
    expect(ws.getCell('A3').value).toEqual({ formula: 'A2+B2', result: 5 })
    expect(ws.getCell('A3').border.bottom).toMatchObject({ style: 'double' })
    expect(ws.getCell('A3').alignment).toMatchObject({ horizontal: 'right' })
    expect(ws.getColumn(1).width).toBe(120 / 8)
    expect(ws.getRow(1).height).toBeCloseTo(30 * 1.2)
    expect(ws.getImages()).toHaveLength(1)
    expect(book.getWorksheet('Sheet2')!.getCell('A1').value).toBe('纯文本')

    // The same file imported becomes a new sheet of the caller's with the same cells.
    const imported = await upload('回读.xlsx', r.rawPayload, alice, '/sw/excel/import')
    expect(imported.body.code, JSON.stringify(imported.body)).toBe(200)
    const newId = imported.body.data as string
    const back = (await ok<{ sheets: { name: string; celldata: { r: number; c: number; v: Record<string, unknown> }[]; config: Record<string, any>; images: unknown[] }[]; info: { name: string } }>(
      'GET', '/sw/excel/content', alice, undefined, { id: newId },
    )).data
    expect(back.info.name).toBe('回读')
    const sales = back.sheets[0]
    const at = (r: number, c: number) => sales.celldata.find((x) => x.r === r && x.c === c)?.v
    expect(at(0, 0)).toMatchObject({ v: '标题', bg: '#ffff00', bl: 1, fs: 14, fc: '#ff0000', ht: 0, vt: 0 })
    expect(at(2, 0)).toMatchObject({ f: '=A2+B2', v: 5 })
    expect(sales.config.merge['0_0']).toEqual({ r: 0, c: 0, rs: 1, cs: 2 })
    expect(sales.config.columnlen['0']).toBe(120)
    expect(sales.config.rowlen['0']).toBe(30)
    expect(sales.images).toHaveLength(1)
    expect(sales.config.borderInfo.some((b: any) => b.value.row_index === 2 && b.value.b.style === 7)).toBe(true)
  })

  it('refuses an import that is no .xlsx', async () => {
    expect((await upload('x.txt', Buffer.from('hello'), alice, '/sw/excel/import')).body.msg).toBe('只能导入.xlsx格式的Excel文件！')
    expect((await upload('x.xlsx', Buffer.from('not a zip at all'), alice, '/sw/excel/import')).body.msg).toBe('只能导入.xlsx格式的Excel文件！')
    const fakeZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64)])
    const r = await upload('x.xlsx', fakeZip, alice, '/sw/excel/import')
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('无法读取该Excel文件，请上传.xlsx格式的文件！')
  })

  it('sends a copy to one receiver and to several; they see it in their lists and get a notice', async () => {
    const id = await createSheet('发送的表格')
    await ok('PUT', '/sw/excel/content', alice, { id, content: JSON.stringify(richWorkbook()) })
    const [copy] = (await ok<string[]>('POST', '/sw/excel/send', alice, { id, userId: bobId })).data
    const mine = (await listNames(bob)).find((s) => s.id === copy)
    expect(mine).toMatchObject({ name: '发送的表格', senderName: '用户swalice' })
    const content = (await ok<{ sheets: { name: string }[] }>('GET', '/sw/excel/content', bob, undefined, { id: copy })).data
    expect(content.sheets.map((s) => s.name)).toEqual(['销售', 'Sheet2'])
    // Bob's copy is his: his save does not touch Alice's sheet.
    await ok('PUT', '/sw/excel/content', bob, { id: copy, content: JSON.stringify({ sheets: [{ name: '改过', celldata: [] }] }) })
    expect((await ok<{ sheets: { name: string }[] }>('GET', '/sw/excel/content', alice, undefined, { id })).data.sheets[0].name).toBe('销售')
    const notices = (await ok<{ datas: { title: string }[] }>('GET', '/system/notice/query/my', bob, undefined, { pageSize: '50' })).data.datas
    expect(notices.map((n) => n.title)).toContain('用户swalice发送了在线Excel：发送的表格')

    const carolId = ((await t.call<{ user: { id: string } }>('GET', '/auth/info', { token: carol })).body.data).user.id
    const copies = (await ok<string[]>('POST', '/sw/excel/send/batch', alice, { id, userIds: [bobId, carolId] })).data
    expect(copies).toHaveLength(2)
    expect((await listNames(carol)).map((s) => s.name)).toContain('发送的表格')
  })

  it('refuses sends to nobody, to oneself, to unknown users, and of sheets not one’s own; nothing is written', async () => {
    const id = await createSheet('不发送')
    const aliceId = ((await t.call<{ user: { id: string } }>('GET', '/auth/info', { token: alice })).body.data).user.id
    const before = (await listNames(bob)).length
    expect((await refused('POST', '/sw/excel/send', alice, { id })).msg).toBe('请选择接收人')
    expect((await refused('POST', '/sw/excel/send', alice, { id, userId: aliceId })).msg).toBe('不能发送给自己')
    expect((await refused('POST', '/sw/excel/send/batch', alice, { id, userIds: [bobId, 'ghost'] })).msg).toBe('接收人不存在或已停用')
    expect((await refused('POST', '/sw/excel/send/batch', alice, { id, userIds: 'x' })).msg).toBe('请选择接收人')
    expect((await refused('POST', '/sw/excel/send', bob, { id, userId: aliceId })).msg).toBe('Excel文件不存在！')
    expect((await refused('POST', '/sw/excel/send', alice, [1, 2])).msg).toBe('请求参数格式错误')
    expect((await listNames(bob)).length).toBe(before)
  })

  it('holds each call to its permission key; a user without a role reaches none', async () => {
    const id = await createSheet('权限')
    // Carol may read (query) but neither create, save nor send.
    await refused('POST', '/sw/excel', carol, { name: 'x' })
    await refused('PUT', '/sw/excel/content', carol, { id, content: '{}' })
    await refused('POST', '/sw/excel/send', carol, { id, userId: bobId })
    for (const [method, url] of [
      ['GET', '/sw/excel/query'], ['GET', '/sw/excel'], ['POST', '/sw/excel'], ['PUT', '/sw/excel'], ['GET', '/sw/excel/content'], ['PUT', '/sw/excel/content'],
      ['POST', '/sw/excel/send'], ['POST', '/sw/excel/send/batch'], ['GET', '/sw/excel/export'], ['GET', '/sw/filebox/query'], ['POST', '/sw/filebox/send'],
      ['POST', '/sw/filebox/send/batch'], ['GET', '/sw/filebox/download'],
    ] as const) {
      const r = await t.call(method, url, { token: noRole, body: method === 'GET' ? undefined : { id }, query: { id } })
      expect(r.status, `${method} ${url}: ${r.raw}`).toBe(403)
    }
    expect((await upload('a.txt', Buffer.from('hi'), noRole)).status).toBe(403)
    expect((await upload('a.xlsx', Buffer.from('hi'), noRole, '/sw/excel/import')).status).toBe(403)
    const anonymous = await t.call('GET', '/sw/excel/query')
    expect(anonymous.status).toBe(401)
  })

  it('file box: uploads checked by content and size, lists and downloads one’s own, sends copies', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100, 0x20)])
    const up = await upload('合同.pdf', pdf)
    expect(up.body.code, JSON.stringify(up.body)).toBe(200)
    const file = up.body.data as { id: string; name: string; fileSize: number }
    expect(file).toMatchObject({ name: '合同.pdf', fileSize: pdf.length })
    const text = await upload('说明.txt', Buffer.from('中文说明'))
    expect(text.body.code).toBe(200)

    // An executable renamed, a PNG calling itself a PDF, a text with NUL bytes, an unknown type, nothing.
    const typeMsg = (await upload('x.exe', Buffer.from('MZ'))).body.msg
    expect(typeMsg).toMatch(/^只能上传pdf、png/)
    expect((await upload('x.pdf', PNG)).body.msg).toBe(typeMsg)
    expect((await upload('x.txt', Buffer.from([0x41, 0x00, 0x42]))).body.msg).toBe(typeMsg)
    expect((await upload('x.docx', Buffer.from('PK\u0003\u0004nothing'))).body.msg).toBe(typeMsg)
    expect((await upload('empty.txt', Buffer.alloc(0))).body.msg).toBe('请选择要上传的文件！')
    const big = await upload('big.txt', Buffer.alloc(20 * 1024 * 1024 + 10, 0x41))
    expect([big.status, big.body.msg]).toEqual([400, '文件大小不能超过20MB！'])

    const list = async (as: string) => (await ok<{ datas: { id: string; name: string; fileSize: number; url?: string }[] }>('GET', '/sw/filebox/query', as, undefined, { pageSize: '100' })).data.datas
    const mine = await list(alice)
    expect(mine.map((f) => f.name)).toEqual(expect.arrayContaining(['合同.pdf', '说明.txt']))
    expect(mine.every((f) => f.url === undefined)).toBe(true)
    const down = await t.call('GET', '/sw/filebox/download', { token: alice, query: { id: file.id } })
    expect(down.status).toBe(200)
    expect(down.rawPayload.equals(pdf)).toBe(true)
    expect(String(down.headers['content-disposition'])).toContain(encodeURIComponent('合同.pdf'))
    expect(String(down.headers['content-type'])).toBe('application/pdf')

    // Bob sees nothing of Alice's until she sends it; then his copy downloads the same bytes.
    expect((await list(bob)).map((f) => f.name)).not.toContain('合同.pdf')
    expect((await refused('GET', '/sw/filebox/download', bob, undefined, { id: file.id })).msg).toBe('文件不存在！')
    expect((await refused('GET', '/sw/filebox/download', otherTenant, undefined, { id: file.id })).msg).toBe('文件不存在！')
    expect((await refused('POST', '/sw/filebox/send', bob, { id: file.id, userId: bobId })).msg).toBe('文件不存在！')
    const [copy] = (await ok<string[]>('POST', '/sw/filebox/send', alice, { id: file.id, userId: bobId })).data
    expect((await list(bob)).find((f) => f.id === copy)).toMatchObject({ name: '合同.pdf', fileSize: pdf.length, senderName: '用户swalice' })
    const bobDown = await t.call('GET', '/sw/filebox/download', { token: bob, query: { id: copy } })
    expect(bobDown.rawPayload.equals(pdf)).toBe(true)
    const notices = (await ok<{ datas: { title: string }[] }>('GET', '/system/notice/query/my', bob, undefined, { pageSize: '50' })).data.datas
    expect(notices.map((n) => n.title)).toContain('用户swalice发送了文件：合同.pdf')

    const carolId = ((await t.call<{ user: { id: string } }>('GET', '/auth/info', { token: carol })).body.data).user.id
    expect((await ok<string[]>('POST', '/sw/filebox/send/batch', alice, { id: file.id, userIds: [bobId, carolId] })).data).toHaveLength(2)
    expect((await list(carol)).filter((f) => f.name === '合同.pdf')).toHaveLength(1)
    expect((await refused('POST', '/sw/filebox/send/batch', alice, { id: file.id, userIds: [] })).msg).toBe('请选择接收人')
    // Carol may list and download but neither upload nor send.
    expect((await upload('c.txt', Buffer.from('c'), carol)).status).toBe(403)
  }, 60_000)
})
