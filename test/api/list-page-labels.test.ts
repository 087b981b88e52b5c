import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompiledQuery } from 'kysely'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * A list's ref labels (categoryName, brandName) are joined to the page's rows after the page is cut
 * (entity-store list): every page, in either order, with a search condition or none, holds the rows the
 * order gives, each with its own labels. Each page's total is exact, and a page that is not full
 * answers it without a count.
 */
describe('list pages and their ref labels', () => {
  let t: TestApp
  let token: string
  let brandId = ''
  const expected: { code: string; categoryName: string; brandName: string }[] = []

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    const post = async (url: string, body: unknown) => {
      const r = await t.call<string>('POST', url, { token, body })
      if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
      return r.body.data
    }
    const categories = [] as { id: string; name: string }[]
    for (let i = 0; i < 3; i++) categories.push({ id: await post('/basedata/product/category', { code: `LPC${i}`, name: `分页类目${i}` }), name: `分页类目${i}` })
    const brands = [] as { id: string; name: string }[]
    for (let i = 0; i < 2; i++) brands.push({ id: await post('/basedata/product/brand', { code: `LPB${i}`, name: `分页品牌${i}` }), name: `分页品牌${i}` })
    brandId = brands[0].id
    for (let i = 0; i < 25; i++) {
      const category = categories[(i * 7) % 3]
      const brand = brands[i % 4 === 0 ? 1 : 0]
      const code = `LP${String((i * 11) % 25).padStart(3, '0')}`
      await post('/basedata/product', {
        code, name: `分页商品${i}`, skuCode: `LPSKU${i}`, categoryId: category.id, brandId: brand.id, productType: 1, taxRate: 13, saleTaxRate: 13,
      })
      expected.push({ code, categoryName: category.name, brandName: brand.name })
    }
    expected.sort((a, b) => a.code.localeCompare(b.code))
  })
  afterAll(async () => t?.close())

  const page = async (query: Record<string, string>) => {
    const r = await t.call<{ totalCount: number; datas: { code: string; categoryName: string; brandName: string | null }[] }>('GET', '/basedata/product/query', { token, query })
    expect(r.body.code).toBe(200)
    return r.body.data!
  }

  it('cuts each page in the asked order and labels its rows', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const all = order === 'asc' ? expected : [...expected].reverse()
      for (const pageIndex of [1, 2, 3]) {
        const got = await page({ pageIndex: String(pageIndex), pageSize: '10', code: 'LP', sortField: 'code', sortOrder: order })
        expect(got.totalCount).toBe(25)
        const want = all.slice((pageIndex - 1) * 10, pageIndex * 10)
        expect(got.datas.map((d) => ({ code: d.code, categoryName: d.categoryName, brandName: d.brandName }))).toEqual(want)
      }
    }
  })

  it('narrows by a ref before the page is cut and labels what is left', async () => {
    const withBrand = expected.filter((d) => d.brandName === '分页品牌0')
    const got = await page({ pageIndex: '2', pageSize: '5', code: 'LP', brandId, sortField: 'code', sortOrder: 'desc' })
    expect(got.totalCount).toBe(withBrand.length)
    expect(got.datas.map((d) => ({ code: d.code, categoryName: d.categoryName, brandName: d.brandName }))).toEqual([...withBrand].reverse().slice(5, 10))
  })

  it('totals every page exactly, and counts only when the page cannot tell', async () => {
    // Every statement over the product table that counts, while the list answers.
    const counts: string[] = []
    const executor = t.app.services.databases.tenant('1000').getExecutor()
    const execute = executor.executeQuery.bind(executor)
    executor.executeQuery = (async (query: CompiledQuery) => {
      if (/^select count\(\*\)/.test(query.sql) && query.sql.includes('base_data_product')) counts.push(query.sql)
      return execute(query)
    }) as typeof executor.executeQuery
    try {
      const cases: [query: Record<string, string>, total: number, rows: number, counted: boolean][] = [
        [{ pageIndex: '1', pageSize: '20', code: 'LP' }, 25, 20, true], // full: more may follow
        [{ pageIndex: '2', pageSize: '20', code: 'LP' }, 25, 5, false], // the last page says where the end is
        [{ pageIndex: '3', pageSize: '20', code: 'LP' }, 25, 0, true], // past the end: nothing to tell from
        [{ pageIndex: '1', pageSize: '20', code: 'LP00' }, 10, 10, false],
        [{ pageIndex: '1', pageSize: '20', code: 'LP-none' }, 0, 0, false],
        // A text the search index narrows (3 characters and more) counts in the page's own pass (count(*) over ()):
        // full pages need no count statement of their own; past the end there is no row to carry the total.
        [{ pageIndex: '1', pageSize: '5', code: 'LP00' }, 10, 5, false],
        [{ pageIndex: '2', pageSize: '5', code: 'LP00' }, 10, 5, false],
        [{ pageIndex: '3', pageSize: '5', code: 'LP00' }, 10, 0, true],
      ]
      for (const [query, total, rows, counted] of cases) {
        counts.length = 0
        const got = await page({ ...query, sortField: 'code', sortOrder: 'asc' })
        expect([got.totalCount, got.datas.length], JSON.stringify(query)).toEqual([total, rows])
        expect(counts.length > 0, JSON.stringify(query)).toBe(counted)
      }
    } finally {
      executor.executeQuery = execute
    }
  })
})
