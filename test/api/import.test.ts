import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { workbook, multipart, type ImportProgress as Progress, type Cell } from '../support/import-files.js'

/** The Excel import (000 §2 Other dialogs, §5 Import rules and Uploads, §3 import task progress). */

const SUPPLIER_HEADER = ['*编号', '*名称', '助记码', '联系人', '地区', '经营方式', '*结账方式', '状态', '备注']

describe('Excel import', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const upload = async (base: string, filename: string, bytes: Buffer, auth = token) => {
    const { payload, contentType } = multipart(filename, bytes)
    const r = await t.app.inject({
      method: 'POST',
      url: `/cloud-api${base}/import`,
      headers: { 'x-auth-token': auth, 'content-type': contentType },
      payload,
    })
    return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; msg: string; data: string } }
  }

  /** Polls the task as the client does (every 500 ms there; faster here) until it has finished. */
  const finished = async (id: string): Promise<Progress> => {
    for (let i = 0; i < 400; i++) {
      const r = await t.call<Progress>('GET', '/component/import/task', { token, query: { id } })
      expect(r.body.code).toBe(200)
      if (r.body.data.finished) return r.body.data
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('import task did not finish')
  }

  const importFile = async (base: string, header: string[], rows: Cell[][]) => {
    const r = await upload(base, '导入.xlsx', await workbook(header, rows))
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 200 })
    return finished(r.body.data)
  }

  const supplierByCode = async (code: string) => {
    const r = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/supplier/query', { token, query: { code } })
    return r.body.data.datas.find((d) => d.code === code)
  }
  const supplierCount = async () =>
    (await t.call<{ totalCount: number }>('GET', '/basedata/supplier/query', { token })).body.data.totalCount

  it('downloads a template whose header row is the import columns, required ones marked *, with a 说明 sheet', async () => {
    const r = await t.call('GET', '/basedata/supplier/import/template', { token })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toContain('spreadsheetml')
    expect(String(r.headers['content-disposition'])).toContain(encodeURIComponent('供应商导入模板.xlsx'))
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
    const header = (book.worksheets[0].getRow(1).values as unknown[]).slice(1)
    expect(header).toEqual([
      '*编号', '*名称', '助记码', '联系人', '联系电话', '电子邮箱', '邮编', '传真', '地区', '地址', '发货地址', '送货周期（天）',
      '经营方式', '*结账方式', '统一社会信用代码', '纳税人识别号', '开户银行', '户名', '银行账号', '状态', '备注',
    ])
    const help = book.getWorksheet('说明')
    expect(help).toBeDefined()
    const text = help!.getSheetValues().flat().filter((v) => typeof v === 'string').join('\n')
    expect(text).toContain('款到发货、货到付款')
    expect(text).toContain('启用或停用')
    expect(text).toContain('仅新增时使用')
    expect(text).toContain('省/市/区')
    expect(text).toContain('最多1000000行')
  })

  // The first template loads ExcelJS in the server and the test: on a busy machine that alone can take half a minute.
  it('names a reference column by the referenced code (上级类目编号) and the brand template has its labels', { timeout: 120_000 }, async () => {
    const load = async (base: string) => {
      const r = await t.call('GET', `${base}/import/template`, { token })
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
      return (book.worksheets[0].getRow(1).values as unknown[]).slice(1)
    }
    expect(await load('/basedata/product/category')).toEqual(['*编号', '*名称', '上级类目编号', '状态', '备注'])
    expect(await load('/basedata/product/brand')).toEqual(['*编号', '*名称', '简称', '简介', '状态', '备注'])
    expect(await load('/basedata/product')).toContain('*类目编号')
  })

  it('creates new codes and updates an existing code; the settle type is only used on create', async () => {
    const existing = await t.call<string>('POST', '/basedata/supplier', {
      token,
      body: { code: 'IMP-OLD', name: '旧名称', settleType: 1, contact: '张三', description: '旧备注' },
    })
    expect(existing.body.code).toBe(200)
    const before = await supplierCount()
    const progress = await importFile('/basedata/supplier', SUPPLIER_HEADER, [
      ['IMP-001', '杭州供应商', null, '李四', '浙江省/杭州市/西湖区', null, '款到发货', null, null],
      ['IMP-002', '宁波供应商', 'NB', null, '330200', '经销', '2', '停用', '备注'],
      ['IMP-OLD', '新名称', null, null, null, null, '货到付款', '启用', null],
    ])
    expect(progress).toMatchObject({ finished: true, hasError: false, process: 100, successProcess: 100, tipMsgs: [] })
    expect(progress.data).toEqual({ total: 3, created: 2, modified: 1 })
    expect(await supplierCount()).toBe(before + 2)

    expect(await supplierByCode('IMP-001')).toMatchObject({
      name: '杭州供应商', mnemonicCode: 'HZGYS', contact: '李四', cityId: '330106', manageType: 1, settleType: 1, available: true,
    })
    expect(await supplierByCode('IMP-002')).toMatchObject({ mnemonicCode: 'NB', cityId: '3302', settleType: 2, available: false })
    // Updated from the file; blank cells clear, the immutable settle type stays as created.
    expect(await supplierByCode('IMP-OLD')).toMatchObject({ name: '新名称', mnemonicCode: 'XMC', contact: null, settleType: 1, available: true })
  })

  // Master-data rows are independent (spec 000 §5 gives them no all-or-nothing rule; issue 14): a
  // failing row gets its message, the other rows are written.
  it('writes the good rows and reports every failing row as 第N行：…', async () => {
    const before = await supplierCount()
    const progress = await importFile('/basedata/supplier', SUPPLIER_HEADER, [
      ['BAD-001', '正常的行', null, null, null, null, '款到发货', null, null],
      ['BAD-002', null, null, null, null, null, '款到发货', null, null],
      ['BAD-003', '结账方式错', null, null, null, null, '月结', null, null],
      ['BAD-004', '地区错', null, null, '火星/某市', null, '款到发货', null, null],
      ['BAD-001', '重复编号', null, null, null, null, '款到发货', null, null],
      ['BAD 6', '编号格式错', null, null, null, null, '款到发货', '可能', null],
    ])
    expect(progress).toMatchObject({ finished: true, hasError: true, process: 100, successProcess: 16, data: { total: 6, created: 1, modified: 0 } })
    expect(progress.tipMsgs).toEqual([
      '第3行：请输入名称',
      '第4行：结账方式只能填写：款到发货、货到付款',
      '第5行：地区不存在：火星/某市，请按“省/市/区”填写',
      '第6行：编号与第2行重复',
      '第7行：状态只能填写：启用、停用',
    ])
    expect(await supplierCount()).toBe(before + 1)
    expect(await supplierByCode('BAD-001')).toMatchObject({ name: '正常的行' })
  })

  it('reports the store messages (format, uniqueness) and keeps the rows that passed', async () => {
    const before = await supplierCount()
    const progress = await importFile('/basedata/supplier', ['*编号', '*名称', '*结账方式', '电子邮箱'], [
      ['OK-1', '第一行', '款到发货', null],
      ['编号中文', '第二行', '款到发货', null],
      ['OK-2', '第三行', '款到发货', 'not-mail'],
    ])
    expect(progress.tipMsgs).toEqual(['第3行：编号必须由字母、数字、“-_.”组成，长度不能超过20位', '第4行：邮箱地址格式不正确'])
    expect(await supplierCount()).toBe(before + 1)
    expect(await supplierByCode('OK-1')).toMatchObject({ name: '第一行' })
  })

  it('imports brands and a category tree whose child names a parent of the same file', async () => {
    const brands = await importFile('/basedata/product/brand', ['*编号', '*名称', '简称', '状态'], [
      ['BR-1', '品牌一', '一', '启用'],
      ['BR-2', '品牌二', null, '停用'],
    ])
    expect(brands).toMatchObject({ hasError: false, data: { created: 2, modified: 0 } })
    const list = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/product/brand/query', { token, query: { code: 'BR-' } })
    expect(list.body.data.datas.map((d) => [d.code, d.name, d.available])).toEqual([['BR-1', '品牌一', true], ['BR-2', '品牌二', false]])

    const tree = await importFile('/basedata/product/category', ['*编号', '*名称', '上级类目编号'], [
      ['CAT-P', '服装', null],
      ['CAT-C', '上衣', 'CAT-P'],
    ])
    expect(tree).toMatchObject({ hasError: false, data: { created: 2 } })
    const rows = (await t.call<Record<string, unknown>[]>('GET', '/basedata/product/category/query', { token })).body.data
    const list2 = Array.isArray(rows) ? rows : (rows as unknown as { datas: Record<string, unknown>[] }).datas
    const parent = list2.find((r) => r.code === 'CAT-P')!
    expect(list2.find((r) => r.code === 'CAT-C')).toMatchObject({ parentId: parent.id })

    const ghost = await importFile('/basedata/product/category', ['*编号', '*名称', '上级类目编号'], [['CAT-X', '无上级', 'NOPE']])
    expect(ghost.tipMsgs).toEqual(['第2行：上级类目不存在：NOPE'])
  })

  it('imports products by category and brand code, and a SPU with its one SKU', async () => {
    const products = await importFile(
      '/basedata/product',
      ['*编号', '*名称', '*SKU', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）', '采购价'],
      [
        ['P-IMP-1', '上衣一号', 'SKU-IMP-1', 'CAT-C', 'BR-1', '17%', 10, '12.5'],
        ['P-IMP-2', '上衣二号', 'SKU-IMP-2', 'CAT-C', 'BR-1', 17, '免税', 8],
        // 服装 has a child (上衣): a product is filed under a leaf category, in a file as on the screen
        ['P-IMP-3', '服装三号', 'SKU-IMP-3', 'CAT-P', 'BR-1', 17, 17, 8],
      ],
    )
    expect(products.tipMsgs).toEqual(['第2行：销项税率（%）只能填写：17%、13%、11%、9%、6%、3%、0%、免税', '第4行：类目只能选择末级'])
    const fixed = await importFile(
      '/basedata/product',
      ['*编号', '*名称', '*SKU', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）', '采购价'],
      [
        ['P-IMP-1', '上衣一号', 'SKU-IMP-1', 'CAT-C', 'BR-1', '17%', 6, '12.5'],
        ['P-IMP-2', '上衣二号', 'SKU-IMP-2', 'CAT-C', 'BR-1', 17, '免税', 8],
      ],
    )
    // Row 3 of the first file was written already: the second file modifies it.
    expect(fixed).toMatchObject({ hasError: false, data: { created: 1, modified: 1 } })
    const list = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/product/query', { token, query: { code: 'P-IMP-1' } })
    expect(list.body.data.datas[0]).toMatchObject({ categoryName: '上衣', brandName: '品牌一', taxRate: 17, saleTaxRate: 6, purchasePrice: '12.50' })

    const spu = await importFile(
      '/basedata/product/poly',
      ['*货号', '*名称', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）'],
      [['SPU-IMP', 'T恤', 'CAT-C', 'BR-2', '6%', '6%']],
    )
    expect(spu).toMatchObject({ hasError: false, data: { created: 1 } })
    const sku = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/product/query', { token, query: { code: 'SPU-IMP' } })
    expect(sku.body.data.datas[0]).toMatchObject({ code: 'SPU-IMP', skuCode: 'SPU-IMP', name: 'T恤', brandName: '品牌二' })
    // The SPU row is written before its SKU fails (the code of a product above): that row is undone, the next is written.
    const clash = await importFile('/basedata/product/poly', ['*货号', '*名称', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）'], [
      ['P-IMP-1', '撞号SPU', 'CAT-C', 'BR-2', '6%', '6%'],
      ['SPU-OK', '正常SPU', 'CAT-C', 'BR-2', '6%', '6%'],
    ])
    expect(clash.tipMsgs).toEqual(['第2行：第1行商品新增失败，具体原因：编号重复，请重新输入'])
    const polys = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/product/poly/query', { token })
    expect(polys.body.data.datas.map((d) => d.code).sort()).toEqual(['SPU-IMP', 'SPU-OK'])

    const renamed = await importFile('/basedata/product/poly', ['*货号', '*名称', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）'], [
      ['SPU-IMP', 'T恤新款', 'CAT-C', 'BR-2', '6%', '6%'],
    ])
    expect(renamed).toMatchObject({ hasError: false, data: { modified: 1 } })
    const after = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/product/query', { token, query: { code: 'SPU-IMP' } })
    expect(after.body.data.datas[0]).toMatchObject({ name: 'T恤新款' })
  })

  it('refuses a file that is not .xls/.xlsx, an unreadable workbook, missing columns and too many rows', async () => {
    const csv = await upload('/basedata/supplier', 'suppliers.csv', Buffer.from('编号,名称\nA,B\n'))
    expect(csv.status).toBe(400)
    expect(csv.body.msg).toBe('仅支持上传xls、xlsx格式的文件！')

    const junk = await upload('/basedata/supplier', 'suppliers.xls', Buffer.from('not a workbook'))
    expect(junk.status).toBe(400)
    expect(junk.body.msg).toContain('无法读取该文件')

    const columns = await upload('/basedata/supplier', 'a.xlsx', await workbook(['*编号', '联系人'], [['X', '张三']]))
    expect(columns.body.msg).toBe('导入文件缺少列：名称、结账方式，请下载模板填写！')

    const empty = await upload('/basedata/supplier', 'a.xlsx', await workbook(SUPPLIER_HEADER, []))
    expect(empty.body.msg).toBe('导入文件中没有数据！')

    const params = await t.call<{ datas: { id: string; pKey: string }[] }>('GET', '/system/parameter/query', { token, query: { pKey: 'excel-import.max-size' } })
    const param = params.body.data.datas.find((p) => p.pKey === 'excel-import.max-size')!
    await t.call('PUT', '/system/parameter', { token, body: { id: param.id, pKey: param.pKey, pValue: '2' } })
    try {
      const many = await upload('/basedata/supplier', 'a.xlsx', await workbook(['*编号', '*名称', '*结账方式'], [['M1', 'a', '1'], ['M2', 'b', '1'], ['M3', 'c', '1']]))
      expect(many.status).toBe(400)
      expect(many.body.msg).toBe('每次最多导入2条数据！')
    } finally {
      await t.call('PUT', '/system/parameter', { token, body: { id: param.id, pKey: param.pKey, pValue: '2000' } })
    }
    expect(await supplierByCode('M1')).toBeUndefined()
  })

  it('answers the task at /component/import/task without the region prefix too, signed in only', async () => {
    const r = await upload('/basedata/product/brand', 'b.xlsx', await workbook(['*编号', '*名称'], [['BR-9', '品牌九']]))
    const id = r.body.data
    await finished(id)
    const bare = await t.app.inject({ method: 'GET', url: `/component/import/task?id=${id}`, headers: { 'x-auth-token': token } })
    expect(JSON.parse(bare.body)).toMatchObject({ code: 200, data: { finished: true, hasError: false, process: 100, data: { created: 1 } } })
    const anonymous = await t.app.inject({ method: 'GET', url: `/component/import/task?id=${id}` })
    expect(anonymous.statusCode).toBe(401)
    const unknown = await t.call('GET', '/component/import/task', { token, query: { id: 'nope' } })
    expect(unknown.body).toMatchObject({ code: 404, msg: '导入任务不存在！' })
  })

  it('needs the import permission and a multipart file', async () => {
    const anonymous = await upload('/basedata/supplier', 'a.xlsx', await workbook(['*编号'], [['A']]), '')
    expect(anonymous.status).toBe(401)
    const json = await t.call('POST', '/basedata/supplier/import', { token, body: {} })
    expect(json.status).toBe(400)
    expect(json.body.msg).toBe('请选择要导入的文件！')
  })

  it.each([
    '/basedata/product', '/basedata/product/brand', '/basedata/product/category', '/basedata/product/poly', '/basedata/customer',
    '/basedata/shop', '/basedata/storecenter', '/basedata/address', '/basedata/member', '/basedata/supplier',
  ])('serves the template of %s', async (base) => {
    const r = await t.call('GET', `${base}/import/template`, { token })
    expect(r.status).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer)
    expect(book.worksheets.map((w) => w.name)[1]).toBe('说明')
    expect((book.worksheets[0].getRow(1).values as unknown[]).length).toBeGreaterThan(2)
  })

  it('imports dates from date cells and text, and always creates where the entity has no code', async () => {
    const members = await importFile('/basedata/member', ['*编号', '*名称', '性别', '出生日期', '*入会日期', '地区'], [
      ['M-IMP-1', '会员一', '女', new Date(Date.UTC(1990, 4, 6)), '2024/1/2', '北京市/市辖区/朝阳区'],
      ['M-IMP-2', '会员二', null, null, '2024-13-01', null],
    ])
    expect(members.tipMsgs).toEqual(['第3行：入会日期格式不正确'])
    const ok = await importFile('/basedata/member', ['*编号', '*名称', '性别', '出生日期', '*入会日期'], [
      ['M-IMP-1', '会员一', '女', new Date(Date.UTC(1990, 4, 6)), '2024/1/2'],
    ])
    expect(ok.hasError).toBe(false)
    const m = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/member/query', { token, query: { code: 'M-IMP-1' } })
    expect(m.body.data.datas[0]).toMatchObject({ gender: 2, birthday: '1990-05-06', joinDay: '2024-01-02' })

    const header = ['*实体类型', '*实体ID', '*地址类型', '*姓名', '*手机号', '*地区', '*详细地址', '默认地址']
    const owner = await t.call<string>('POST', '/basedata/supplier', { token, body: { code: 'ADDR-OWNER', name: '地址供应商', settleType: 1, manageType: 1 } })
    const row = ['供应商', owner.body.data, '发货地址', '王五', '13800000000', '浙江省/杭州市/西湖区', '文三路1号', '否']
    for (let i = 0; i < 2; i++) expect(await importFile('/basedata/address', header, [row])).toMatchObject({ hasError: false, data: { created: 1 } })
    const ghost = await importFile('/basedata/address', header, [['供应商', 'no-such-id', ...row.slice(2)]])
    expect(ghost.tipMsgs).toEqual(['第2行：供应商不存在'])
  })

  it('exports what it imports: region as 省/市/区 text', async () => {
    const progress = await importFile('/basedata/storecenter', ['*编号', '*名称', '地区', '仓库人数'], [['SC-IMP', '导入仓', '广东省/深圳市/南山区', 12]])
    expect(progress.hasError).toBe(false)
    const sc = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/storecenter/query', { token, query: { code: 'SC-IMP' } })
    expect(sc.body.data.datas[0]).toMatchObject({ cityId: '440305', peopleNum: 12 })
  })
})
