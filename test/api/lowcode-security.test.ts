import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { buildLowcodeFixture } from '../support/lowcode-fixtures.js'

type Page = { datas: Record<string, unknown>[]; totalCount: number }

const INJECTIONS = [
  "' OR '1'='1",
  "P001' OR 1=1 --",
  "x'); DROP TABLE base_data_product; --",
  '1 UNION SELECT password FROM sys_user',
  '"; DELETE FROM sys_user; --',
  '../../etc/passwd',
  '%',
  '\\',
]

/**
 * The custom-list runtime builds SQL only from stored, checked configuration: hostile values, aliases,
 * column names, sort and paging fields and hostile configurations change nothing and leak nothing.
 */
describe('low-code security: whitelisted identifiers, bound values, data permission', () => {
  let t: TestApp
  let token: string
  let fx: Awaited<ReturnType<typeof buildLowcodeFixture>>
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    fx = await buildLowcodeFixture(t, token)
  })
  afterAll(async () => t?.close())

  const query = (body: unknown, tok = token) => t.call<Page>('POST', '/gen/api/custom/list/query', { token: tok, query: { id: fx.listId }, body })
  const productCount = async () => (await t.call<Page>('GET', '/basedata/product/query', { token, query: { available: '' } })).body.data.totalCount
  const userCount = async () => (await t.call<Page>('GET', '/system/user/query', { token })).body.data.totalCount
  /** Every answered key is a column of the data object; no password hash anywhere. */
  const clean = (raw: string, datas: Record<string, unknown>[]) => {
    expect(raw).not.toMatch(/argon2|\$2[aby]\$|password/i)
    for (const row of datas) for (const key of Object.keys(row)) expect(key).toMatch(/^(p|c|custom)_[a-z0-9_]+$/)
  }

  it.each(INJECTIONS)('treats %s in every condition value as a value', async (payload) => {
    const before = await productCount()
    for (const [tableAlias, columnName, queryType] of [['p', 'code', 0], ['p', 'name', 10], ['p', 'code', 8], ['p', 'code', 9], ['c', 'name', 5], ['p', 'code', 6], ['p', 'code', 7]] as const) {
      const cond = queryType === 6 || queryType === 7 ? { tableAlias, columnName, queryType, values: [payload, 'P001'] } : { tableAlias, columnName, queryType, value: payload }
      const r = await query({ pageIndex: 1, pageSize: 50, conditions: [cond] })
      expect(r.status).toBe(200)
      clean(r.raw, r.body.data.datas)
      // `%` is matched literally: only the product whose name holds a `%` (百分%_号) contains it.
      const literalPercent = payload === '%' && columnName === 'name' ? 1 : 0
      const expected = queryType === 5 ? 4 : queryType === 6 ? 1 : queryType === 7 ? 3 : literalPercent
      expect(r.body.data.totalCount, `${columnName} ${queryType}`).toBe(expected)
    }
    expect(await productCount()).toBe(before)
  })

  it('refuses hostile values on typed columns with a message, not an SQL error', async () => {
    for (const [columnName, value, msg] of [
      ['retail_price', "1 OR 1=1", '查询条件【零售价】必须为数字'],
      ['retail_price', { $gt: 1 }, '查询条件【零售价】格式不正确'],
      ['available', "1' OR '1'='1", '查询条件【状态】取值不正确'],
    ] as const) {
      const r = await query({ conditions: [{ tableAlias: 'p', columnName, queryType: 0, value }] })
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe(msg)
    }
    const many = await query({ conditions: [{ tableAlias: 'p', columnName: 'code', queryType: 6, values: Array.from({ length: 501 }, (_, i) => `P${i}`) }] })
    expect(many.body.msg).toBe('查询条件【编号】的值不能超过500个')
    const badType = await query({ conditions: [{ tableAlias: 'p', columnName: 'code', queryType: '0 OR 1=1', value: 'x' }] })
    expect(badType.body.msg).toBe('查询类型不正确')
  })

  it.each([
    ['p; DROP TABLE base_data_product', 'code'],
    ['p', 'code; DROP TABLE base_data_product'],
    ['sys_user', 'password'],
    ['p', 'password'],
    ['p', 'create_by'],
    ['u', 'username'],
    ['"p"', 'code'],
    ['p', 'code" OR "1"="1'],
    ['custom', 'double_price) OR (1=1'],
    ['../', '../sys_session'],
  ])('refuses condition %s.%s that is not a configured column: 查询条件不存在', async (tableAlias, columnName) => {
    const r = await query({ conditions: [{ tableAlias, columnName, queryType: 0, value: 'x' }] })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('查询条件不存在')
  })

  it('refuses hostile sort fields and clamps hostile paging', async () => {
    for (const sortField of ['p_name', 'p_code; DROP TABLE x', '1', 'password', 'p_code desc, (select 1)']) {
      const r = await query({ sortField })
      expect(r.body.msg).toBe('排序字段不存在')
    }
    const r = await query({ pageIndex: '1; DROP TABLE x', pageSize: '100000 OR 1=1', sortField: 'p_code', sortOrder: 'desc; DROP TABLE x' })
    expect(r.status).toBe(200)
    expect(r.body.data.totalCount).toBe(4)
    expect(r.body.data.datas[0].p_code).toBe('P001')
    const huge = await query({ pageIndex: 2, pageSize: 10 ** 9 })
    expect(huge.body.data.datas).toHaveLength(0)
    expect(await productCount()).toBe(4)
  })

  it('offers only the tenant business tables and no secret columns', async () => {
    const tables = (await t.call<{ tableName: string }[]>('GET', '/gen/simpledb/tables', { token })).body.data.map((x) => x.tableName)
    for (const denied of ['sys_session', 'sys_captcha', 'sys_verify_code', 'gen_custom_list', 'gen_data_obj', 'kysely_migration']) expect(tables).not.toContain(denied)
    expect(tables.some((x) => x.startsWith('sqlite_') || x.startsWith('pg_'))).toBe(false)
    const userColumns = await t.call<{ columnName: string }[]>('GET', '/gen/simpledb/columns', { token, query: { tableName: 'sys_user' } })
    expect(userColumns.body.data.map((c) => c.columnName)).not.toContain('password')
  })

  it.each(['sys_session', '../sys_user', "base_data_product; DROP TABLE base_data_product", "base_data_product' --", 'gen_custom_list', 'platform.tenant', 'sqlite_master', 'nope'])(
    'refuses data entity table %s',
    async (tableName) => {
      const r = await t.call('POST', '/gen/data/entity/sync/table', { token, body: { tableName } })
      expect(r.status).toBe(400)
      expect(r.body.msg).toMatch(/^数据表【.*】不存在或不允许使用$/)
      expect(await productCount()).toBe(4)
    },
  )

  it('never lets a password column into a data entity, a data object or custom SQL', async () => {
    const usersBefore = await userCount()
    const userEntity = await fx.created('/gen/data/entity/sync/table', { tableName: 'sys_user' })
    const cols = (await t.call<{ id: string; columnName: string }[]>('GET', '/gen/data/entity/columns', { token, query: { id: userEntity } })).body.data
    expect(cols.map((c) => c.columnName)).not.toContain('password')
    const withPassword = await t.call('PUT', '/gen/data/entity', {
      token,
      body: { id: userEntity, name: '用户', tableName: 'sys_user', columns: [...cols, { name: '密码', columnName: 'password', dataType: 0, viewType: 0 }] },
    })
    expect(withPassword.body.msg).toBe(`第${cols.length + 1}个字段：数据表中不存在字段【password】`)
    const obj = (customSql: string) =>
      t.call('POST', '/gen/data/obj', { token, body: { name: '用户对象', mainTableId: userEntity, mainTableAlias: 'u', customColumns: [{ customName: '自定义', customAlias: 'x', customSql, dataType: 0 }] } })
    for (const [customSql, msg] of [
      ['u.password', '第1个自定义查询字段：字段【u.password】不存在'],
      ['(select password from sys_user limit 1)', '第1个自定义查询字段：不允许包含关键字【select】'],
      ['u.name; DROP TABLE sys_user', '第1个自定义查询字段：不允许包含分号'],
      ['u.name -- comment', '第1个自定义查询字段：不允许包含注释'],
      ['u.name /* x */', '第1个自定义查询字段：不允许包含注释'],
      ['password', '第1个自定义查询字段：字段【password】必须写成“别名.字段名”'],
      ["load_extension('x')", '第1个自定义查询字段：不允许包含关键字【load_extension】'],
      ['sqlite_version()', '第1个自定义查询字段：不允许使用函数【sqlite_version】'],
      ['pg_read_file(\'/etc/passwd\')', '第1个自定义查询字段：不允许使用函数【pg_read_file】'],
      ['s.code', '第1个自定义查询字段：字段【s.code】不存在'],
      ["u.name || '\\' ", '第1个自定义查询字段：字符串未结束或包含反斜杠'],
      ['u.name)', '第1个自定义查询字段：括号不匹配'],
      ['"u"."password"', '第1个自定义查询字段：不允许包含字符【"】'],
      ['u.name` ', '第1个自定义查询字段：不允许包含字符【`】'],
    ]) {
      const r = await obj(customSql)
      expect(r.body.msg, customSql).toBe(msg)
    }
    const ok = await obj("coalesce(u.name, '') || '（' || u.code || '）'")
    expect(ok.body.code).toBe(200)
    for (const [mainTableAlias, msg] of [
      ['u; drop', '主表别名只能由小写字母和数字组成，以字母开头，且不能为custom'],
      ['sys_session', '主表别名只能由小写字母和数字组成，以字母开头，且不能为custom'],
      ['custom', '主表别名只能由小写字母和数字组成，以字母开头，且不能为custom'],
    ]) {
      const r = await t.call('POST', '/gen/data/obj', { token, body: { name: '坏', mainTableId: userEntity, mainTableAlias } })
      expect(r.body.msg).toBe(msg)
    }
    const dupAlias = await t.call('POST', '/gen/data/obj', {
      token,
      body: { name: '坏', mainTableId: fx.productEntity, mainTableAlias: 'p', joins: [{ subTableId: fx.categoryEntity, subTableAlias: 'p', relaMode: 0, mainTableDetailIds: [fx.pc.get('category_id')!.id], subTableDetailIds: [fx.cc.get('id')!.id] }] },
    })
    expect(dupAlias.body.msg).toBe('第1个关联表：别名【p】重复')
    const badPair = await t.call('POST', '/gen/data/obj', {
      token,
      body: { name: '坏', mainTableId: fx.productEntity, mainTableAlias: 'p', joins: [{ subTableId: fx.categoryEntity, subTableAlias: 'c', relaMode: 9, mainTableDetailIds: ["' OR 1=1"], subTableDetailIds: [fx.cc.get('id')!.id] }] },
    })
    expect(badPair.body.msg).toBe('第1个关联表：关联方式不正确')
    // The users table is untouched by every hostile configuration above.
    expect(usersBefore).toBeGreaterThan(0)
    expect(await userCount()).toBe(usersBefore)
  })

  it('joins LEFT, RIGHT and INNER only on configured column pairs, each with its own rows', async () => {
    // Joined on product.category_id = category.parent_id, the fixture tells the join types apart: 可乐 and
    // 雪碧 (饮料) meet 零食 (whose parent is 饮料); 薯片 and 百分%_号 (零食) meet no category, because no
    // category has 零食 as parent; 饮料 has no parent, so no product meets it.
    const expected: Record<number, [string | null, string | null][]> = {
      0: [['P001', '零食'], ['P002', '零食'], ['P003', null], ['P004', null]],
      1: [['P001', '零食'], ['P002', '零食'], [null, '饮料']],
      2: [['P001', '零食'], ['P002', '零食']],
    }
    for (const relaMode of [0, 1, 2]) {
      const obj = await fx.created('/gen/data/obj', {
        name: `连接${relaMode}`,
        mainTableId: fx.productEntity,
        mainTableAlias: 'p',
        joins: [{ subTableId: fx.categoryEntity, subTableAlias: 'c', relaType: 0, relaMode, mainTableDetailIds: [fx.pc.get('category_id')!.id], subTableDetailIds: [fx.cc.get('parent_id')!.id] }],
      })
      const list = await fx.created('/gen/custom/list', { name: `连接${relaMode}`, dataObjId: obj, fields: [{ relaId: 'p_code' }, { relaId: 'c_name' }] })
      const r = await t.call<Page>('POST', '/gen/api/custom/list/query', { token, query: { id: list }, body: { pageSize: 50 } })
      expect(r.body.msg, `relaMode ${relaMode}`).toBe('操作成功！')
      const rows = r.body.data.datas.map((d) => [d.p_code ?? null, d.c_name ?? null] as [string | null, string | null])
      const order = (a: [string | null, string | null], b: [string | null, string | null]) => JSON.stringify(a).localeCompare(JSON.stringify(b))
      expect(rows.sort(order), `relaMode ${relaMode}`).toEqual(expected[relaMode].sort(order))
      expect(r.body.data.totalCount).toBe(expected[relaMode].length)
    }
  })

  it('narrows a restricted user by the product data permission; runtime needs a menu opening the list, admin calls need keys', async () => {
    const userId = await fx.created('/system/user', { code: 'lc01', name: '低代码用户', username: 'lc01user', password: 'secret123', gender: 0, available: true })
    const roleId = await fx.created('/system/role', { code: 'LC', name: '限P001', available: true })
    await t.call('POST', '/system/user/role/setting', { token, body: { userIds: [userId], roleIds: [roleId] } })
    const clerk = await t.login('lc01user', 'secret123')
    expect((await query({}, clerk)).status).toBe(403)
    const menuId = await fx.created('/system/menu', { code: 'LCM01', title: '低代码列表', display: 1, componentType: 1, component: fx.listId, path: '/lc/list01', available: true })
    await t.call('POST', '/system/role/menu/setting', { token, body: { roleIds: [roleId], menuIds: [menuId] } })
    expect((await query({}, clerk)).body.data.totalCount).toBe(4)
    const tree = [{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 1, conditionType: 9, value: 'P00' }, { nodeType: 2, detailId: 1, conditionType: 5, value: 'P002' }] }]
    const saved = await t.call('POST', '/system/data/permission/data/saveData', { token, body: { bizIds: [roleId], bizType: 0, permissionType: 1, permission: JSON.stringify(tree) } })
    expect(saved.body.code).toBe(200)
    const narrowed = await query({ pageSize: 50 }, clerk)
    expect(narrowed.body.data.datas.map((d) => d.p_code).sort()).toEqual(['P001', 'P003', 'P004'])
    expect((await query({}, token)).body.data.totalCount).toBe(4)
    const exported = await t.call('POST', '/gen/api/custom/list/query/list', { token: clerk, query: { id: fx.listId }, body: {} })
    expect((exported.body.data as unknown[]).length).toBe(3)
    expect((await t.call('GET', '/gen/simpledb/tables', { token: clerk })).status).toBe(403)
    expect((await t.call('POST', '/gen/data/entity/sync/table', { token: clerk, body: { tableName: 'base_data_product' } })).status).toBe(403)
    expect((await t.call('POST', '/gen/api/custom/list/query', { query: { id: fx.listId }, body: {} })).status).toBe(401)
  })

  it('refuses hostile ids on the config calls without leaking anything', async () => {
    for (const id of ["' OR '1'='1", '../../etc/passwd', 'x; DROP TABLE gen_custom_list']) {
      for (const url of ['/gen/api/custom/list/config', '/gen/api/custom/form/config', '/gen/api/custom/page/config', '/gen/api/custom/selector/config']) {
        const r = await t.call('GET', url, { token, query: { id } })
        expect(r.status, url).toBe(400)
        expect(r.body.msg).toMatch(/不存在$/)
      }
    }
    const list = await t.call('GET', '/gen/api/custom/list/config', { token, query: { id: fx.listId } })
    expect(list.body.code).toBe(200)
    expect(list.raw).not.toMatch(/retail_price \*|select|base_data_product/)
  })
})
