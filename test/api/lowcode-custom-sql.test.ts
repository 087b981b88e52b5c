import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { buildLowcodeFixture } from '../support/lowcode-fixtures.js'

/**
 * Custom SQL columns the database refuses (issue 27): a column that does not compile is refused when its
 * data object is saved, naming the column and the database's reason, and nothing is written; a statement
 * that still fails when a list runs answers 400 naming the list on every run-time call, never 500.
 */
describe('custom SQL columns the database refuses', () => {
  let t: TestApp
  let token: string
  let fx: Awaited<ReturnType<typeof buildLowcodeFixture>>
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    fx = await buildLowcodeFixture(t, token)
  })
  afterAll(async () => t?.close())

  const tenantDb = async () => t.app.services.databases.tenant((await t.app.services.tenantIds())[0])
  const dataObjs = async () => {
    const table = t.app.services.registry.get('genDataObj').table
    return (await (await tenantDb()).selectFrom(table).select(['id', 'custom_columns']).orderBy('id').execute()).map((r) => JSON.stringify(r))
  }
  const objBody = (customSql: string) => ({
    name: '坏字段',
    mainTableId: fx.productEntity,
    mainTableAlias: 'p',
    customColumns: [{ customName: '坏字段', customSql, customAlias: 'x', dataType: 1 }],
  })

  it.each(['p.code p.name', 'p.code +', '(p.code) (p.name)', 'p.code = = 1', 'p.code in'])(
    'refuses %j when the data object is created or modified, naming the column and the reason',
    async (customSql) => {
      const before = await dataObjs()
      const created = await t.call('POST', '/gen/data/obj', { token, body: objBody(customSql) })
      expect(created.status, created.raw).toBe(400)
      expect(created.body.msg).toMatch(/^第1个自定义查询字段【坏字段】：SQL无法执行（.+）$/)
      const modified = await t.call('PUT', '/gen/data/obj', { token, body: { id: fx.dataObj, ...objBody(customSql), name: '商品与类目' } })
      expect(modified.status, modified.raw).toBe(400)
      expect(modified.body.msg).toMatch(/^第1个自定义查询字段【坏字段】：SQL无法执行（.+）$/)
      expect(await dataObjs()).toEqual(before)
      // The list over the data object still runs.
      const list = await t.call('POST', '/gen/api/custom/list/query', { token, query: { id: fx.listId }, body: { pageIndex: 1, pageSize: 10 } })
      expect(list.status, list.raw).toBe(200)
    },
  )

  it('a column that compiles but fails on a row: every run-time call answers 400 naming the list', async () => {
    // Fails only when computed for a row: an integer overflow on SQLite, a division by zero on PostgreSQL.
    const customSql = t.dbKind === 'sqlite' ? 'abs(-9223372036854775808)' : '1 / (p.retail_price - p.retail_price)'
    const objId = (await t.call<string>('POST', '/gen/data/obj', { token, body: { ...objBody(customSql), name: '运行时失败' } })).body.data
    expect(typeof objId).toBe('string')
    const listId = (
      await t.call<string>('POST', '/gen/custom/list', {
        token,
        body: { name: '失败的列表', dataObjId: objId, listType: 2, labelWidth: 100, hasPage: true, treeData: false, idColumn: 'p_id', allowExport: true, fields: [{ relaId: 'p_code' }, { relaId: 'custom_x' }], queryParams: [] },
      })
    ).body.data
    expect(typeof listId).toBe('string')
    for (const url of ['query', 'query/list', 'query/tree', 'query/list/export']) {
      const r = await t.call('POST', `/gen/api/custom/list/${url}`, { token, query: { id: listId }, body: { pageIndex: 1, pageSize: 10 } })
      expect(r.status, `${url}: ${r.raw.slice(0, 200)}`).toBe(400)
      expect(r.body.msg, url).toBe('自定义列表【失败的列表】查询失败，请检查其数据对象的自定义查询字段')
    }
  })
})
