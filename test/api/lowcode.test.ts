import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { Ajv } from 'ajv'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { buildLowcodeFixture } from '../support/lowcode-fixtures.js'

type Page = { datas: Record<string, unknown>[]; totalCount: number }

describe('low-code: data entities, data objects, custom lists, forms, pages and code generation', () => {
  let t: TestApp
  let token: string
  let fx: Awaited<ReturnType<typeof buildLowcodeFixture>>
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    fx = await buildLowcodeFixture(t, token)
  })
  afterAll(async () => t?.close())

  const query = (conditions: unknown[], extra: Record<string, unknown> = {}) =>
    t.call<Page>('POST', '/gen/api/custom/list/query', { token, query: { id: fx.listId }, body: { pageIndex: 1, pageSize: 50, conditions, ...extra } })
  const codes = async (conditions: unknown[], extra: Record<string, unknown> = {}) => {
    const r = await query(conditions, extra)
    expect(r.body.msg).toBe('操作成功！')
    return r.body.data.datas.map((d) => d.p_code)
  }

  it('lists the tenant tables with their labels and a table picker', async () => {
    const r = await t.call<{ tableName: string; tableComment: string }[]>('GET', '/gen/simpledb/tables', { token })
    const names = r.body.data.map((x) => x.tableName)
    expect(names).toContain('base_data_product')
    expect(r.body.data.find((x) => x.tableName === 'base_data_product')?.tableComment).toBe('商品')
    const picker = await t.call<Page>('GET', '/selector/gen/table', { token, query: { tableName: 'product_category', pageSize: 5 } })
    expect(picker.body.data.datas.map((d) => d.tableName)).toContain('base_data_product_category')
  })

  it('loads a table\'s columns from the database with the label and types a data entity starts from', async () => {
    const r = await t.call<{ columnName: string; name: string; dataType: number; viewType: number; dbDataType: string; isKey: boolean }[]>('GET', '/gen/simpledb/columns', { token, query: { tableName: 'base_data_product' } })
    const byName = new Map(r.body.data.map((c) => [c.columnName, c]))
    expect(byName.get('id')).toMatchObject({ isKey: true })
    expect(byName.get('code')).toMatchObject({ name: '编号', dataType: 0, viewType: 0 })
    expect(byName.get('retail_price')).toMatchObject({ dataType: 9 })
    expect(byName.get('create_time')).toMatchObject({ dataType: 6, viewType: 2 })
    expect(byName.get('code')?.dbDataType).toMatch(/\S/)
    const hostile = await t.call('GET', '/gen/simpledb/columns', { token, query: { tableName: 'sys_user; drop table x' } })
    expect(hostile.status).toBe(400)
    expect(hostile.body.msg).toBe('数据表【sys_user; drop table x】不存在或不允许使用')
  })

  it('syncs a data entity from a table with labels and GEN_DATA_TYPE from the entity file', () => {
    expect(fx.pc.get('code')).toMatchObject({ name: '编号', dataType: 0 })
    expect(fx.pc.get('retail_price')).toMatchObject({ dataType: 9 })
    expect(fx.pc.get('available')).toMatchObject({ dataType: 8 })
    expect(fx.pc.get('create_time')).toMatchObject({ dataType: 6 })
  })

  it('answers the data object columns with their aliases', async () => {
    const r = await t.call<{ columnName: string; tableAlias: string }[]>('GET', '/gen/data/obj/columns', { token, query: { id: fx.dataObj } })
    const keys = r.body.data.map((c) => c.columnName)
    expect(keys).toEqual(expect.arrayContaining(['p_id', 'p_code', 'c_name', 'custom_double_price']))
  })

  it('answers the list config with fields, query params and buttons', async () => {
    const r = await t.call<Record<string, any>>('GET', '/gen/api/custom/list/config', { token, query: { id: fx.listId } })
    const cfg = r.body.data
    expect(cfg.listConfig).toMatchObject({ id: fx.listId, listType: 2, labelWidth: 100, hasPage: true, treeData: false, idColumn: 'p_id', allowExport: true })
    expect(cfg.listConfig.fields.map((f: { columnName: string }) => f.columnName)).toEqual(['p_code', 'p_name', 'p_retail_price', 'p_available', 'c_name', 'custom_double_price'])
    expect(cfg.listConfig.fields[1]).toMatchObject({ name: '商品名称', sortable: false })
    expect(cfg.listConfig.fields[2]).toMatchObject({ isNumberType: true, sortable: true })
    expect(cfg.queryParams[0]).toMatchObject({ tableAlias: 'p', columnName: 'code', queryType: 10, formWidth: 6, frontShow: true })
    expect(cfg.queryParams[5]).toMatchObject({ tableAlias: 'custom', columnName: 'double_price' })
    expect(cfg.toolbars[0]).toMatchObject({ name: '新增商品', viewType: 'primary', btnType: 1, btnConfig: '/basedata/product/add' })
    expect(cfg.handleColumns[0]).toMatchObject({ name: '修改备注', btnType: 2, btnConfig: fx.formId, width: 100 })
  })

  it('queries with paging, the join, the custom column and typed cells', async () => {
    const r = await query([], { pageSize: 2, sortField: 'p_code', sortOrder: 'desc' })
    expect(r.body.data.totalCount).toBe(4)
    expect(r.body.data.datas.map((d) => d.p_code)).toEqual(['P004', 'P003'])
    const all = (await query([], { sortField: 'p_code' })).body.data.datas
    expect(all[0]).toMatchObject({ p_code: 'P001', p_name: '可乐', c_name: '饮料', p_available: true, p_retail_price: '3.5', custom_double_price: '7' })
  })

  it('orders by a field marked sortable, either way, on the paged and the unpaged query; refuses one that is not', async () => {
    const prices = (rows: Record<string, unknown>[]) => rows.map((d) => Number(d.p_retail_price))
    const asc = (await query([], { sortField: 'p_retail_price', sortOrder: 'asc' })).body.data.datas
    const desc = (await query([], { sortField: 'p_retail_price', sortOrder: 'desc' })).body.data.datas
    expect(prices(asc)).toEqual([...prices(asc)].sort((a, b) => a - b))
    expect(prices(desc)).toEqual([...prices(asc)].sort((a, b) => b - a))
    expect(prices(desc)[0]).toBeGreaterThan(prices(asc)[0])
    const list = await t.call<Record<string, unknown>[]>('POST', '/gen/api/custom/list/query/list', { token, query: { id: fx.listId }, body: { conditions: [], sortField: 'p_retail_price', sortOrder: 'desc' } })
    expect(prices(list.body.data)).toEqual(prices(desc))
    // 商品名称 is not sortable: the order is the list's whitelist, not any column of the object.
    const refused = await query([], { sortField: 'p_name', sortOrder: 'asc' })
    expect(refused.body.msg).toBe('排序字段不存在')
  })

  it.each([
    [0, 'p', 'code', { value: 'P001' }, ['P001']],
    [1, 'p', 'retail_price', { value: '4' }, ['P003', 'P004']],
    [2, 'p', 'retail_price', { value: '4.00' }, ['P002', 'P003', 'P004']],
    [3, 'p', 'retail_price', { value: 4 }, ['P001']],
    [4, 'p', 'retail_price', { value: '4' }, ['P001', 'P002']],
    [5, 'p', 'code', { value: 'P001' }, ['P002', 'P003', 'P004']],
    [6, 'p', 'code', { values: ['P001', 'P003'] }, ['P001', 'P003']],
    [7, 'p', 'code', { values: ['P001', 'P003'] }, ['P002', 'P004']],
    [8, 'p', 'name', { value: '乐' }, ['P001']],
    [9, 'p', 'name', { value: '雪' }, ['P002']],
    [10, 'p', 'code', { value: '00' }, ['P001', 'P002', 'P003', 'P004']],
    [10, 'p', 'name', { value: '%_' }, ['P004']],
    [0, 'c', 'name', { value: '零食' }, ['P003', 'P004']],
    [0, 'p', 'available', { value: true }, ['P001', 'P002', 'P003', 'P004']],
    [1, 'custom', 'double_price', { value: '16' }, ['P003', 'P004']],
  ])('query type %i on %s.%s %j', async (queryType, tableAlias, columnName, value, expected) => {
    expect(await codes([{ tableAlias, columnName, queryType, ...value }], { sortField: 'p_code' })).toEqual(expected)
  })

  it('answers the unpaged list and exports the list fields to xlsx', async () => {
    const list = await t.call<Record<string, unknown>[]>('POST', '/gen/api/custom/list/query/list', { token, query: { id: fx.listId }, body: { conditions: [{ tableAlias: 'c', columnName: 'name', queryType: 0, value: '饮料' }] } })
    expect(list.body.data.map((d) => d.p_code).sort()).toEqual(['P001', 'P002'])
    const file = await t.call('POST', '/gen/api/custom/list/query/list/export', { token, query: { id: fx.listId }, body: { conditions: [] } })
    expect(file.status).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(file.rawPayload as never)
    const sheet = book.worksheets[0]
    expect(sheet.getRow(1).values).toEqual([undefined, '编号', '商品名称', '零售价', '状态', '类目', '双倍零售价'])
    expect(sheet.rowCount).toBe(5)
    const values = [2, 3, 4, 5].map((n) => sheet.getRow(n).getCell(4).value)
    expect(values).toEqual(['启用', '启用', '启用', '启用'])
  })

  it('answers a tree list expanded with the matching rows marked', async () => {
    const c = fx.cc
    const obj = await fx.created('/gen/data/obj', { name: '类目树', mainTableId: fx.categoryEntity, mainTableAlias: 'c' })
    const listId = await fx.created('/gen/custom/list', {
      name: '类目树',
      dataObjId: obj,
      listType: 0,
      hasPage: false,
      treeData: true,
      idColumn: 'c_id',
      treePidColumn: 'c_parent_id',
      treeNodeColumn: 'c_name',
      fields: [{ relaId: 'c_code' }, { relaId: 'c_name' }],
      queryParams: [{ relaId: 'c_name', queryType: 0 }],
    })
    expect(c.get('parent_id')).toBeTruthy()
    const r = await t.call<Record<string, unknown>[]>('POST', '/gen/api/custom/list/query/tree', { token, query: { id: listId }, body: { conditions: [{ tableAlias: 'c', columnName: 'name', queryType: 0, value: '零食' }] } })
    expect(r.body.data).toHaveLength(2)
    const byName = Object.fromEntries(r.body.data.map((row) => [row.c_name, row]))
    expect(byName['零食']).toMatchObject({ 'id@show': true, c_parent_id: fx.drinks })
    expect(byName['饮料']).toMatchObject({ 'id@show': false })
  })

  it('validates list elements with the element position in the message', async () => {
    const bad = async (patch: Record<string, unknown>, msg: string) => {
      const r = await t.call('POST', '/gen/custom/list', { token, body: { ...fx.listBody, ...patch } })
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe(msg)
    }
    await bad({ fields: [{ relaId: 'p_code' }, { relaId: 'p_password' }] }, '第2个列表字段：关联字段不存在')
    await bad({ fields: [] }, '请添加列表字段')
    await bad({ queryParams: [{ relaId: 'p_code', queryType: 11 }] }, '第1个查询条件：查询类型不正确')
    await bad({ toolbars: [{ name: '按钮', viewType: 'huge', btnType: 1, btnConfig: '/x' }] }, '第1个工具栏按钮：按钮样式不正确')
    await bad({ handleColumns: [{ name: '表单', viewType: 'link', btnType: 2, btnConfig: 'nope' }] }, '第1个操作列按钮：自定义表单不存在')
    await bad({ treeData: true, treePidColumn: '' }, '请选择父级ID字段')
  })

  it('serves custom form config, the query handler and a real submit handler', async () => {
    const cfg = await t.call<Record<string, unknown>>('GET', '/gen/api/custom/form/config', { token, query: { id: fx.formId } })
    expect(cfg.body.data).toMatchObject({ isDialog: true, dialogTittle: '修改备注', requireQuery: true, handleBean: 'updateProductCategoryRemark' })
    expect(JSON.parse(String(cfg.body.data.formConfig))).toMatchObject({ type: 'object' })
    const got = await t.call<Record<string, unknown>>('POST', '/gen/api/custom/form/get', { token, query: { id: fx.formId }, body: { id: fx.snacks } })
    expect(got.body.data).toMatchObject({ id: fx.snacks, name: '零食' })
    const done = await t.call('POST', '/gen/api/custom/form/handle', { token, query: { id: fx.formId }, body: { id: fx.snacks, description: '新备注' } })
    expect(done.body.code).toBe(200)
    const category = await t.call<Record<string, unknown>>('GET', '/basedata/product/category', { token, query: { id: fx.snacks } })
    expect(category.body.data.description).toBe('新备注')
    const tooLong = await t.call('POST', '/gen/api/custom/form/handle', { token, query: { id: fx.formId }, body: { id: fx.snacks, description: '一二三四五六七八九十一二三四五六七八九十一' } })
    expect(tooLong.body.msg).toBe('备注长度不能超过20个字符')
    const again = await t.call<Record<string, unknown>>('GET', '/basedata/product/category', { token, query: { id: fx.snacks } })
    expect(again.body.data.description).toBe('新备注')
  })

  it('publishes a notice through the createNotice handler and refuses bad form configs', async () => {
    const formConfig = JSON.stringify({ type: 'object', properties: { title: { type: 'string' } } })
    const formId = await fx.created('/gen/custom/form', { name: '发布通知', formConfig, handleBean: 'createNotice' })
    const r = await t.call<{ id: string }>('POST', '/gen/api/custom/form/handle', { token, query: { id: formId }, body: { title: '放假通知', content: '<p>明天放假</p>' } })
    expect(r.body.code).toBe(200)
    const notice = await t.call<Record<string, unknown>>('GET', '/system/notice', { token, query: { id: r.body.data.id } })
    expect(notice.body.data).toMatchObject({ title: '放假通知' })
    const missing = await t.call('POST', '/gen/api/custom/form/handle', { token, query: { id: formId }, body: { content: 'x' } })
    expect(missing.body.msg).toBe('请输入标题')
    for (const [body, msg] of [
      [{ name: '坏', formConfig: '{not json' }, '表单配置不是合法的JSON'],
      [{ name: '坏', formConfig: '{"type":"array"}' }, '表单配置必须是type为object且包含properties的JSON Schema'],
      [{ name: '坏', formConfig, handleBean: 'rm -rf' }, '提交处理器【rm -rf】不存在'],
      [{ name: '坏', formConfig, requireQuery: true, queryBean: 'createNotice' }, '查询处理器【createNotice】不存在'],
    ] as const) {
      const bad = await t.call('POST', '/gen/custom/form', { token, body })
      expect(bad.body.msg).toBe(msg)
    }
    const echo = await fx.created('/gen/custom/form', { name: '原样', formConfig, handleBean: 'echo' })
    const echoed = await t.call('POST', '/gen/api/custom/form/handle', { token, query: { id: echo }, body: { a: 1 } })
    expect(echoed.body.data).toEqual({ a: 1 })
    const batch = await t.call('DELETE', '/gen/custom/form/batch', { token, body: [echo, formId] })
    expect(batch.body.code).toBe(200)
    expect((await t.call('GET', '/gen/api/custom/form/config', { token, query: { id: echo } })).body.msg).toBe('自定义表单不存在')
  })

  it('serves custom page and selector configs, and their pickers', async () => {
    const pageId = await fx.created('/gen/custom/page', { name: '欢迎页', componentConfig: 'return { render: () => "hi" }' })
    const page = await t.call('GET', '/gen/api/custom/page/config', { token, query: { id: pageId } })
    expect(page.body.data).toEqual({ id: pageId, name: '欢迎页', componentConfig: 'return { render: () => "hi" }' })
    const selectorId = await fx.created('/gen/custom/selector', { name: '商品选择', customListId: fx.listId, idColumn: 'p_id', nameColumn: 'p_name', dialogTittle: '选择商品' })
    const cfg = await t.call('GET', '/gen/api/custom/selector/config', { token, query: { id: selectorId } })
    expect(cfg.body.data).toMatchObject({ customListId: fx.listId, idColumn: 'p_id', nameColumn: 'p_name', dialogTittle: '选择商品' })
    const badSelector = await t.call('POST', '/gen/custom/selector', { token, body: { name: '坏', customListId: fx.listId, idColumn: 'p_id', nameColumn: 'x_name' } })
    expect(badSelector.body.msg).toBe('名称字段不存在')
    // Each picker lists what exists of its kind.
    const present: Record<string, string[]> = {
      'gen/custom/page': [pageId],
      'gen/custom/list': [fx.listId],
      'gen/custom/form': [fx.formId],
      'gen/custom/selector': [selectorId],
      'gen/data/obj': [fx.dataObj],
      'gen/data/entity': [fx.productEntity, fx.categoryEntity],
    }
    for (const [kind, ids] of Object.entries(present)) {
      const r = await t.call<Page>('GET', `/selector/${kind}`, { token, query: { pageSize: 100 } })
      expect(r.body.code, kind).toBe(200)
      expect(r.body.data.datas.map((d) => d.id), kind).toEqual(expect.arrayContaining(ids))
    }
    const removed = await fx.created('/gen/custom/page', { name: '将删除', componentConfig: 'return {}' })
    expect((await t.call('DELETE', '/gen/custom/page', { token, body: { id: removed } })).body.code).toBe(200)
    const pages = await t.call<Page>('GET', '/selector/gen/custom/page', { token, query: { pageSize: 100 } })
    expect(pages.body.data.datas.map((d) => d.id)).not.toContain(removed)
    for (const kind of ['gen/data/entity/category', 'gen/custom/form/category', 'gen/custom/list/category', 'gen/custom/page/category', 'gen/custom/selector/category', 'gen/data/obj/category']) {
      const r = await t.call<Page>('GET', `/selector/${kind}`, { token })
      expect(r.body.code, kind).toBe(200)
      expect(r.body.data.datas.length, kind).toBe(r.body.data.totalCount)
    }
    const details = await t.call<Page>('GET', '/selector/gen/data/entity/detail', { token, query: { entityId: fx.productEntity, pageSize: 100 } })
    expect(details.body.data.datas.map((d) => d.columnName)).toContain('retail_price')
    const lists = await t.call<Page>('GET', '/selector/gen/custom/list', { token })
    expect(lists.body.data.datas.map((d) => d.name)).toContain('商品列表')
  })

  it('previews, generates and downloads the entity file and its wire type', async () => {
    const preview = await t.call<{ fileName: string; content: string }[]>('GET', '/gen/data/entity/preview', { token, query: { id: fx.productEntity } })
    expect(preview.body.data.map((f) => f.fileName)).toEqual(['schemas/entities/base-data-product.json', 'src/shared/generated/base-data-product.ts'])
    const entity = JSON.parse(preview.body.data[0].content)
    const meta = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schemas/meta/entity.schema.json'), 'utf8'))
    const validate = new Ajv({ allErrors: true, strict: false }).compile(meta)
    expect(validate(entity), JSON.stringify(validate.errors)).toBe(true)
    expect(entity).toMatchObject({ name: 'baseDataProduct', table: 'base_data_product', label: { 'zh-CN': '商品' } })
    expect(entity.fields.retailPrice).toMatchObject({ type: 'decimal', label: '零售价' })
    expect(entity.fields.available).toMatchObject({ type: 'boolean', enum: 'AVAILABLE' })
    expect(entity.fields.id).toBeUndefined()
    expect(preview.body.data[1].content).toContain('export interface BaseDataProduct')
    expect(preview.body.data[1].content).toContain('retailPrice?: string')
    const generated = await t.call('POST', '/gen/data/entity/generate', { token, body: { id: fx.productEntity } })
    expect(generated.body.code).toBe(200)
    const after = await t.call<Record<string, unknown>>('GET', '/gen/data/entity', { token, query: { id: fx.productEntity } })
    expect(after.body.data.genStatus).toBe(0)
    const zip = await t.call('GET', '/gen/data/entity/download', { token, query: { id: fx.productEntity } })
    expect(zip.headers['content-type']).toBe('application/zip')
    const files = await JSZip.loadAsync(zip.rawPayload)
    expect(Object.values(files.files).filter((f) => !f.dir).map((f) => f.name).sort()).toEqual(['schemas/entities/base-data-product.json', 'src/shared/generated/base-data-product.ts'])
    expect(await files.file('schemas/entities/base-data-product.json')!.async('string')).toBe(preview.body.data[0].content)
  })

  it('refreshes a data entity from its table keeping column ids, and guards deletes in use', async () => {
    const before = fx.pc.get('code')!
    const r = await t.call('POST', '/gen/data/entity/sync/table', { token, body: { id: fx.productEntity } })
    expect(r.body.code).toBe(200)
    const cols = await t.call<{ id: string; columnName: string }[]>('GET', '/gen/data/entity/columns', { token, query: { id: fx.productEntity } })
    expect(cols.body.data.find((c) => c.columnName === 'code')?.id).toBe(before.id)
    const del = await t.call('DELETE', '/gen/data/entity', { token, body: { id: fx.categoryEntity } })
    expect(del.body.msg).toBe('数据实体已被数据对象使用，不允许删除！')
    const list = await t.call('DELETE', '/gen/data/obj', { token, body: { id: fx.dataObj } })
    expect(list.body.msg).toBe('数据对象已被自定义列表使用，不允许删除！')
  })
})
