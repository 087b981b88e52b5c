import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValuesNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { workbook, multipart, type ImportProgress as Progress, type Cell } from '../support/import-files.js'
import type { Db } from '../../src/server/db/dialect.js'
import type { RequestContext } from '../../src/server/platform/request-context.js'
import { importColumns } from '../../src/server/engine/import/columns.js'
import { runImport } from '../../src/server/engine/import/runner.js'
import type { ImportSummary } from '../../src/server/engine/import/units.js'
import type { ImportRow } from '../../src/server/engine/import/units.js'

/**
 * The set-based import writer (engine/import/batch.ts): a batch mixing good rows, failing rows, codes
 * twice in the file, existing codes (modify), references to rows of the same file (a category's
 * parent) and unique values taken in the file or in the database gives the row-by-row path's messages
 * and records; a batch whose multi-row INSERT the database refuses is written row by row instead, with
 * the same result.
 */

const CATEGORY_HEADER = ['*编号', '*名称', '上级类目编号', '状态', '备注']
const PRODUCT_HEADER = ['*编号', '*名称', '*SKU', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）', '采购价', '销售价', '规格', '单位']

/** Refuses every INSERT of more than one row into `table`, as a database rule no check foresaw would. */
class MultiRowInsertRefused implements KyselyPlugin {
  refused = 0
  constructor(private readonly table: string) {}
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === this.table && node.values && ValuesNode.is(node.values) && node.values.values.length > 1) {
      this.refused++
      throw new Error(`multi-row insert into ${this.table} refused`)
    }
    return node
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result
  }
}

describe('set-based import writer', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const finished = async (id: string): Promise<Progress> => {
    for (let i = 0; i < 2400; i++) {
      const r = await t.call<Progress>('GET', '/component/import/task', { token, query: { id } })
      if (r.body.data.finished) return r.body.data
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('import task did not finish')
  }
  const importFile = async (base: string, header: string[], rows: Cell[][]) => {
    const { payload, contentType } = multipart('导入.xlsx', await workbook(header, rows))
    const r = await t.app.inject({ method: 'POST', url: `/cloud-api${base}/import`, headers: { 'x-auth-token': token, 'content-type': contentType }, payload })
    const body = JSON.parse(r.body) as { code: number; msg: string; data: string }
    expect(body, r.body).toMatchObject({ code: 200 })
    return finished(body.data)
  }
  const created = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const list = async (url: string, code: string) =>
    (await t.call<{ datas: Record<string, unknown>[] }>('GET', url, { token, query: { code, pageSize: 2000 } })).body.data.datas
  const categories = async (prefix: string) => {
    // The category list is a tree: one array of every category.
    const rows = (await t.call<Record<string, unknown>[]>('GET', '/basedata/product/category/query', { token })).body.data
    const codeOf = new Map(rows.map((r) => [r.id, r.code]))
    return rows
      .filter((r) => String(r.code).startsWith(prefix))
      .map((r) => ({ code: String(r.code).slice(prefix.length), name: r.name, parent: r.parentId ? String(codeOf.get(r.parentId) ?? 'outside').replace(prefix, '') : null }))
      .sort((a, b) => a.code.localeCompare(b.code))
  }

  /** A category file of every kind of row; `p` keeps two runs apart. */
  const categoryRows = (p: string): Cell[][] => [
    [`${p}C1`, '一级', null, null, null],
    [`${p}C2`, '二级', `${p}C1`, null, null],
    [`${p}C3`, '上级不存在', `${p}CX`, null, null],
    [`${p}C4`, null, null, null, null],
    [`${p}C5`, '上级未导入', `${p}C4`, null, null],
    [`${p}C2`, '编号重复', null, null, null],
    [`${p}E1`, '已有类目改名', `${p}C2`, null, null],
    [`${p}C6`, '改名之后', `${p}E1`, null, null],
    [`${p}C7`, '三级', `${p}C6`, '停用', null],
    [`${p}C8`, '自己做上级', `${p}C8`, null, null],
    [`${p}C9`, '下级在前', `${p}C10`, null, null],
    [`${p}C10`, '上级在后', null, '未知状态', null],
  ]

  it('imports a category file of good and failing rows, duplicates, an existing code and parents of the same file', async () => {
    await created('/basedata/product/category', { code: 'B-E1', name: '已有类目' })
    const p = await importFile('/basedata/product/category', CATEGORY_HEADER, categoryRows('B-'))
    expect(p).toMatchObject({ finished: true, hasError: true, data: { total: 12, created: 4, modified: 1 } })
    expect(p.tipMsgs).toEqual([
      '第4行：上级类目不存在：B-CX',
      '第5行：请输入名称',
      '第6行：上级类目不存在：B-C4',
      '第7行：编号与第3行重复',
      '第11行：上级类目不存在：B-C8',
      '第12行：上级类目不存在：B-C10',
      expect.stringMatching(/^第13行：状态只能填写：/),
    ])
    expect(await categories('B-')).toEqual([
      { code: 'C1', name: '一级', parent: null },
      { code: 'C2', name: '二级', parent: 'C1' },
      { code: 'C6', name: '改名之后', parent: 'E1' },
      { code: 'C7', name: '三级', parent: 'C6' },
      { code: 'E1', name: '已有类目改名', parent: 'C2' },
    ])
  })

  it('checks unique values against the file and the database, references by code, and writes exact prices', async () => {
    await created('/basedata/product/category', { code: 'BP-CAT', name: '批量类目' })
    await created('/basedata/product/brand', { code: 'BP-BRAND', name: '批量品牌' })
    const old = await importFile('/basedata/product', PRODUCT_HEADER, [['BP-OLD', '已有商品', 'BP-SKU-OLD', 'BP-CAT', 'BP-BRAND', '17%', '17%', 1, 2, null, null]])
    expect(old).toMatchObject({ hasError: false, data: { created: 1 } })
    const p = await importFile('/basedata/product', PRODUCT_HEADER, [
      ['BP-1', '商品一', 'BP-SKU-1', 'BP-CAT', 'BP-BRAND', '17%', '6%', '10.10', '12.34', '规格', '件'],
      ['BP-2', 'SKU在文件中重复', 'BP-SKU-1', 'BP-CAT', 'BP-BRAND', '17%', '6%', null, null, null, null],
      ['BP-3', 'SKU在库中已有', 'BP-SKU-OLD', 'BP-CAT', 'BP-BRAND', '17%', '6%', null, null, null, null],
      ['BP-4', '类目不存在', 'BP-SKU-4', 'BP-NOCAT', 'BP-BRAND', '17%', '6%', null, null, null, null],
      ['BP-5', '负价格', 'BP-SKU-5', 'BP-CAT', 'BP-BRAND', '17%', '6%', '-1', null, null, null],
      ['BP-OLD', '已有商品改名', 'BP-SKU-OLD', 'BP-CAT', 'BP-BRAND', '17%', '17%', '3.30', null, null, null],
      ['BP-6', 'SKU与失败行相同', 'BP-SKU-4', 'BP-CAT', 'BP-BRAND', '17%', '6%', '0.1', '0.2', null, null],
      ['BP-7', '税率不对', 'BP-SKU-7', 'BP-CAT', 'BP-BRAND', '15%', '6%', null, null, null, null],
    ])
    expect(p).toMatchObject({ finished: true, hasError: true, data: { total: 8, created: 2, modified: 1 } })
    expect(p.tipMsgs).toHaveLength(5)
    expect(p.tipMsgs.slice(0, 4)).toEqual(['第3行：SKU重复，请重新输入', '第4行：SKU重复，请重新输入', '第5行：类目不存在：BP-NOCAT', '第6行：采购价不允许小于0'])
    expect(p.tipMsgs[4]).toMatch(/^第9行：进项税率（%）只能填写：/)
    const products = (await list('/basedata/product/query', 'BP-')).filter((r) => String(r.code).startsWith('BP-'))
    const byCode = new Map(products.map((r) => [r.code, r]))
    expect([...byCode.keys()].sort()).toEqual(['BP-1', 'BP-6', 'BP-OLD'])
    expect(byCode.get('BP-1')).toMatchObject({ name: '商品一', skuCode: 'BP-SKU-1', purchasePrice: '10.10', salePrice: '12.34', spec: '规格', unit: '件' })
    expect(byCode.get('BP-6')).toMatchObject({ skuCode: 'BP-SKU-4', purchasePrice: '0.10', salePrice: '0.20' })
    expect(byCode.get('BP-OLD')).toMatchObject({ name: '已有商品改名', purchasePrice: '3.30' })
  })

  it('keeps a parent named across a batch boundary (1000 rows per transaction)', async () => {
    const rows: Cell[][] = [['BB-ROOT', '根', null, null, null]]
    for (let i = 1; i <= 1004; i++) rows.push([`BB-${i}`, `类目${i}`, i === 1004 ? 'BB-ROOT' : i % 2 ? 'BB-ROOT' : `BB-${i - 1}`, null, null])
    rows.push(['BB-ROOT', '重复', null, null, null])
    const p = await importFile('/basedata/product/category', CATEGORY_HEADER, rows)
    expect(p).toMatchObject({ hasError: true, tipMsgs: ['第1007行：编号与第2行重复'], data: { total: 1006, created: 1005, modified: 0 } })
    const stored = await categories('BB-')
    expect(stored.find((c) => c.code === '1004')).toMatchObject({ parent: 'ROOT' })
    expect(stored.find((c) => c.code === '1000')).toMatchObject({ parent: '999' })
    expect(stored.filter((c) => c.parent === 'ROOT')).toHaveLength(503)
  })

  it('writes a batch row by row when the database refuses its multi-row INSERT, with the same result', async () => {
    const services = t.app.services
    const entity = services.registry.get('productCategory')
    const columns = importColumns(services.registry, entity)
    const db: Db = services.databases.tenant('1000')
    const admin = await db.selectFrom('sys_user').select(['id', 'name']).where('username', '=', 'admin').executeTakeFirstOrThrow()
    const ctx = { token: '', tenantId: '1000', userId: String(admin.id), username: 'admin', name: String(admin.name), db, isAdmin: true, permissions: new Set<string>(), ip: '127.0.0.1' } as RequestContext
    const fields = CATEGORY_HEADER.map((h) => columns.find((c) => c.header === h.replace('*', ''))!.field.name)
    // Eight more rows after the last modify, so the last segment is written by multi-row statements.
    const extra = (p: string): Cell[][] => Array.from({ length: 8 }, (_, i) => [`${p}D${i}`, `末段${i}`, i ? `${p}D${i - 1}` : `${p}C1`, null, null])
    const rowsOf = (p: string): ImportRow[] =>
      [...categoryRows(p), ...extra(p)].map((cells, i) => ({ line: i + 2, cells: new Map(fields.map((f, j) => [f, cells[j] === null ? '' : String(cells[j])])) }))
    const run = async (p: string, on: Db): Promise<ImportSummary> => {
      await created('/basedata/product/category', { code: `${p}E1`, name: '已有类目' })
      const rows = rowsOf(p)
      return runImport(services, ctx, on, entity, columns, rows, rows.length, () => undefined)
    }
    const plain = await run('S-', db)
    const refusing = new MultiRowInsertRefused(entity.table)
    const fallback = await run('F-', db.withPlugin(refusing))
    expect(refusing.refused).toBeGreaterThan(0)
    expect(plain).toMatchObject({ total: 20, created: 12, modified: 1 })
    expect({ ...fallback, errors: fallback.errors.map((e) => e.replaceAll('F-', 'S-')) }).toEqual(plain)
    expect(await categories('F-')).toEqual(await categories('S-'))
  })
})
