import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { QUERY_TYPE as Q } from '../../src/shared/generated/enum-codes.js'

type Row = Record<string, unknown>
type Page = { datas: Row[]; totalCount: number }

/**
 * A custom list whose data object LEFT JOINs other tables on their id (products with their category
 * and brand) counts and pages its main table alone and joins only the page's rows; a condition or a
 * sort on a joined column joins first. Either way every page is the slice of the whole list (query/list,
 * which always joins first) that it should be, with the joined names of its own rows.
 */
describe('a custom list joined on ids, page by page', () => {
  let t: TestApp
  let admin: string
  let listId = ''
  const expected: { code: string; name: string; category: string; brand: string }[] = []

  const ok = async <T>(method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await t.call<T>(method, url, { token: admin, body, query })
    expect(r.body.code, r.raw).toBe(200)
    return r.body.data
  }
  const page = (body: Record<string, unknown>) => ok<Page>('POST', '/gen/api/custom/list/query', body, { id: listId })
  const all = (body: Record<string, unknown>) => ok<Row[]>('POST', '/gen/api/custom/list/query/list', body, { id: listId })
  const codes = (rows: Row[]) => rows.map((r) => r.p_code)

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    const categories = ['饮料', '零食', '日用']
    const brands = ['甲牌', '乙牌']
    const categoryIds = await Promise.all(categories.map((name, i) => ok<string>('POST', '/basedata/product/category', { code: `JC${i}`, name, available: true })))
    const brandIds = await Promise.all(brands.map((name, i) => ok<string>('POST', '/basedata/product/brand', { code: `JB${i}`, name, available: true })))
    for (let i = 0; i < 17; i++) {
      const code = `JP${String(i).padStart(2, '0')}`
      const [c, b] = [i % 3, i % 2]
      await ok('POST', '/basedata/product', { code, name: `联表商品${i}`, skuCode: `JS${i}`, categoryId: categoryIds[c], brandId: brandIds[b], productType: 1, taxRate: 13, saleTaxRate: 13, available: true })
      expected.push({ code, name: `联表商品${i}`, category: categories[c], brand: brands[b] })
    }
    const entity = async (tableName: string) => {
      const id = await ok<string>('POST', '/gen/data/entity/sync/table', { tableName, name: tableName })
      const columns = await ok<{ id: string; columnName: string }[]>('GET', '/gen/data/entity/columns', undefined, { id })
      return { id, column: (name: string) => columns.find((c) => c.columnName === name)?.id }
    }
    const product = await entity('base_data_product')
    const category = await entity('base_data_product_category')
    const brand = await entity('base_data_product_brand')
    const join = (sub: typeof category, alias: string, mainColumn: string) => ({
      subTableId: sub.id,
      subTableAlias: alias,
      relaType: 0,
      relaMode: 0,
      mainTableDetailIds: [product.column(mainColumn)],
      subTableDetailIds: [sub.column('id')],
    })
    const dataObjId = await ok<string>('POST', '/gen/data/obj', { name: '联表商品', mainTableId: product.id, mainTableAlias: 'p', joins: [join(category, 'c', 'category_id'), join(brand, 'b', 'brand_id')] })
    listId = await ok<string>('POST', '/gen/custom/list', {
      name: '联表商品',
      dataObjId,
      listType: 2,
      hasPage: true,
      treeData: false,
      idColumn: 'p_id',
      fields: ['p_id', 'p_code', 'p_name', 'c_name', 'b_name'].map((relaId) => ({ relaId, sortable: true })),
      queryParams: [{ relaId: 'p_code', queryType: Q.RIGHT_LIKE }, { relaId: 'c_name', queryType: Q.EQ }],
    })
  })
  afterAll(() => t?.close())

  it('answers each page as the slice of the whole list, with its rows’ own category and brand', async () => {
    const mine = (rows: Row[]) => rows.filter((r) => String(r.p_code).startsWith('JP'))
    const whole = mine(await all({ sortField: 'p_code', sortOrder: 'asc' }))
    expect(codes(whole)).toEqual(expected.map((e) => e.code))
    for (const r of whole) {
      const e = expected.find((x) => x.code === r.p_code)!
      expect([r.p_name, r.c_name, r.b_name]).toEqual([e.name, e.category, e.brand])
    }
    const condition = [{ tableAlias: 'p', columnName: 'code', queryType: Q.RIGHT_LIKE, value: 'JP' }]
    const seen: Row[] = []
    for (let pageIndex = 1; pageIndex <= 4; pageIndex++) {
      const p = await page({ pageIndex, pageSize: 5, sortField: 'p_code', sortOrder: 'asc', conditions: condition })
      expect(p.totalCount).toBe(17)
      seen.push(...p.datas)
    }
    expect(seen).toEqual(whole)
    const down = await page({ pageIndex: 2, pageSize: 5, sortField: 'p_code', sortOrder: 'desc', conditions: condition })
    expect(codes(down.datas)).toEqual([...codes(whole)].reverse().slice(5, 10))
  })

  it('joins first for a condition or a sort on a joined column, and answers the same rows', async () => {
    const snacks = await page({ pageIndex: 1, pageSize: 50, sortField: 'p_code', sortOrder: 'asc', conditions: [{ tableAlias: 'c', columnName: 'name', queryType: Q.EQ, value: '零食' }] })
    expect(codes(snacks.datas)).toEqual(expected.filter((e) => e.category === '零食').map((e) => e.code))
    expect(snacks.totalCount).toBe(snacks.datas.length)
    const byCategory = await page({ pageIndex: 1, pageSize: 50, sortField: 'c_name', sortOrder: 'asc', conditions: [{ tableAlias: 'p', columnName: 'code', queryType: Q.RIGHT_LIKE, value: 'JP' }] })
    expect(byCategory.totalCount).toBe(17)
    const names = byCategory.datas.map((r) => String(r.c_name))
    expect(names).toEqual([...names].sort())
  })
})
