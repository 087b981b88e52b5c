import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { dataPermissionSetup } from '../../src/server/modules/system/data-permission.js'
import { dataPermissionFilter } from '../../src/server/platform/data-permission-filter.js'
import type { RequestContext } from '../../src/server/platform/request-context.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import type { PaletteItem } from '../../src/shared/contracts/system.js'

const and = (...children: unknown[]) => ({ id: `n${Math.random()}`, nodeType: 1, calcType: 1, name: '并且', children })
const or = (...children: unknown[]) => ({ nodeType: 1, calcType: 2, name: '或者', children })
const cond = (detailId: number, conditionType: number | undefined, value?: unknown, values?: unknown[]) => ({
  nodeType: 2,
  detailId,
  conditionType,
  ...(value !== undefined && { value }),
  ...(values !== undefined && { values }),
})

type Palette = PaletteItem

describe('data permissions: palette, preview, save, query time', () => {
  let t: TestApp
  let admin: string
  let roleId: string
  let adminRoleId: string
  const users: Record<string, string> = {}
  const depts: Record<string, string> = {}

  const createUser = async (code: string, deptIds: string[]) => {
    const r = await t.call<string>('POST', '/system/user', {
      token: admin,
      body: { code, name: code, username: code, password: 'secret123', gender: 1, available: true, deptIds },
    })
    expect(r.status, r.raw).toBe(200)
    users[code] = r.body.data
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    for (const [code, parent] of [['D1', undefined], ['D2', 'D1'], ['D0', undefined]] as const) {
      const r = await t.call<string>('POST', '/system/dept', {
        token: admin,
        body: { code, name: `部门${code}`, shortName: code, available: true, ...(parent && { parentId: depts[parent] }) },
      })
      expect(r.status, r.raw).toBe(200)
      depts[code] = r.body.data
    }
    await createUser('clerk01', [depts.D1])
    await createUser('mate01', [depts.D1])
    await createUser('junior01', [depts.D2])
    await createUser('other01', [depts.D0])
    const role = await t.call<string>('POST', '/system/role', { token: admin, body: { code: 'R01', name: '录入', available: true } })
    roleId = role.body.data
    const roles = await t.call<{ datas: { id: string; permission: string }[] }>('GET', '/system/role/query', { token: admin })
    adminRoleId = roles.body.data.datas.find((r) => r.permission === 'admin')!.id
  })
  afterAll(async () => t?.close())

  it('answers the palette of a model and the models', async () => {
    const r = await t.call<Palette[]>('GET', '/system/data/permission/model/detail', { token: admin, query: { modelId: 1 } })
    expect(r.status).toBe(200)
    expect(r.body.data).toHaveLength(13)
    expect(r.body.data[0]).toEqual({
      id: 1,
      detailId: 1,
      modelId: 1,
      nodeType: 2,
      name: '编号',
      inputType: 0,
      conditionTypes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      enumName: null,
    })
    expect(r.body.data.find((d) => d.name === '状态')).toMatchObject({ inputType: 1, enumName: 'AVAILABLE', conditionTypes: [0, 5, 6, 7] })
    const order = await t.call<Palette[]>('GET', '/system/data/permission/model/detail', { token: admin, query: { modelId: 2 } })
    expect(order.body.data.map((d) => d.name)).toEqual(['创建人部门与本人相同', '创建人部门是本人的上级部门', '创建人部门是本人的下级部门', '创建时间', '往来单位编号', '往来单位名称'])
    const missing = await t.call('GET', '/system/data/permission/model/detail', { token: admin })
    expect(missing.status).toBe(400)
    expect(missing.body.msg).toBe('模型ID不能为空！')
    const models = await t.call('GET', '/system/data/permission/model/detail/query', { token: admin })
    expect(models.body.data).toEqual([
      { id: 1, name: '商品' },
      { id: 2, name: '单据' },
    ])
  })

  it('previews the SQL text, values as escaped literals', async () => {
    const tree = [and(cond(1, 0, "P'01"), or(cond(9, 10, '星云'), cond(12, 6, undefined, ['true'])))]
    const r = await t.call<string>('POST', '/system/data/permission/model/detail/preview', { token: admin, body: tree })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.data).toBe("(product.code = 'P''01' AND (brand.name LIKE '%星云%' OR product.available IN (TRUE)))")
    const asText = await t.call<string>('POST', '/system/data/permission/model/detail/preview', {
      token: admin,
      body: { modelId: 2, permission: JSON.stringify([and(cond(14, 6))]) },
    })
    expect(asText.body.data).toContain('order.create_by_id IN (SELECT __ud.owner_id FROM')
  })

  it('answers the designer\'s messages for invalid trees', async () => {
    const preview = (body: unknown) => t.call('POST', '/system/data/permission/model/detail/preview', { token: admin, body })
    for (const [tree, msg] of [
      [[cond(1, 0, 'A')], '最外层必须是运算节点'],
      [[and()], '运算节点必须包含子节点'],
      [[and(cond(2, 0, ''))], '节点：【名称】请输入值'],
      [[and(cond(4, 7, undefined, []))], '节点：【SKU】请输入值'],
    ] as const) {
      const r = await preview(tree)
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe(msg)
    }
    const wrongModel = await preview({ modelId: 1, permission: [and(cond(17, 0, '2024-01-01 00:00:00'))] })
    expect(wrongModel.body.msg).toBe('节点：【创建时间】不属于当前数据权限模型')
  })

  it('saves a role\'s permission (ancestor body) and reads it back', async () => {
    const tree = [and(cond(1, 9, 'P'), cond(12, 0, 'true'))]
    const save = await t.call('POST', '/system/data/permission/data', {
      token: admin,
      body: [{ bizIds: [roleId], bizType: 0, permissionType: 1, permission: JSON.stringify(tree) }],
    })
    expect(save.status, save.raw).toBe(200)
    const r = await t.call<{ bizId: string; bizType: number; permissionType: number; permission: string; nodes: unknown[] }>(
      'GET',
      '/system/data/permission/data/queryByBizId',
      { token: admin, query: { bizId: roleId, bizType: 0, permissionType: 1 } },
    )
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ bizId: roleId, bizType: 0, permissionType: 1 })
    expect(JSON.parse(r.body.data.permission)).toEqual([
      { id: tree[0].id, nodeType: 1, calcType: 1, children: [{ nodeType: 2, detailId: 1, conditionType: 9, value: 'P' }, { nodeType: 2, detailId: 12, conditionType: 0, value: 'true' }] },
    ])
    const described = [
      {
        id: tree[0].id,
        nodeType: 1,
        calcType: 1,
        name: '并且',
        children: [
          { nodeType: 2, detailId: 1, modelId: 1, name: '编号', inputType: 0, conditionType: 9, value: 'P', values: [] },
          { nodeType: 2, detailId: 12, modelId: 1, name: '状态', inputType: 1, enumName: 'AVAILABLE', conditionTypes: [0, 5, 6, 7], value: 'true' },
        ],
      },
    ]
    expect(r.body.data.nodes).toMatchObject(described)
    const viaModelQuery = await t.call('GET', '/system/data/permission/model/detail/query', {
      token: admin,
      query: { bizId: roleId, bizType: 0, permissionType: 1 },
    })
    expect(viaModelQuery.body.data).toMatchObject(described)
    const nothing = await t.call<{ permission: string; nodes: unknown[] }>('GET', '/system/data/permission/data/queryByBizId', {
      token: admin,
      query: { bizId: roleId, bizType: 0, permissionType: 2 },
    })
    expect(nothing.body.data).toMatchObject({ permission: '[]', nodes: [] })
  })

  it('saves for several ids at once, overwrites, and clears with an empty tree', async () => {
    const ids = [users.clerk01, users.mate01]
    const first = [and(cond(17, 2, '2024-01-01 00:00:00'))]
    const body = { bizIds: ids, bizType: 2, permissionType: 2, permission: first }
    expect((await t.call('POST', '/system/data/permission/data/saveData', { token: admin, body })).status).toBe(200)
    const second = [or(cond(14, 6), cond(16, 6))]
    expect((await t.call('POST', '/system/data/permission/data/saveData', { token: admin, body: { ...body, permission: second } })).status).toBe(200)
    for (const id of ids) {
      const r = await t.call<{ permission: string }>('GET', '/system/data/permission/data/queryByBizId', {
        token: admin,
        query: { bizId: id, bizType: 2, permissionType: 2 },
      })
      expect(JSON.parse(r.body.data.permission)).toEqual([
        { nodeType: 1, calcType: 2, children: [{ nodeType: 2, detailId: 14, conditionType: 6 }, { nodeType: 2, detailId: 16, conditionType: 6 }] },
      ])
    }
    await t.call('POST', '/system/data/permission/data/saveData', { token: admin, body: { bizIds: [users.mate01], bizType: 2, permissionType: 2, permission: '' } })
    const cleared = await t.call<{ permission: string }>('GET', '/system/data/permission/data/queryByBizId', {
      token: admin,
      query: { bizId: users.mate01, bizType: 2, permissionType: 2 },
    })
    expect(cleared.body.data.permission).toBe('[]')
  })

  it('stops the whole save when one permission type is invalid', async () => {
    const r = await t.call('POST', '/system/data/permission/data', {
      token: admin,
      body: [
        { bizIds: [depts.D0], bizType: 1, permissionType: 1, permission: [and(cond(2, 0, '甲'))] },
        { bizIds: [depts.D0], bizType: 1, permissionType: 2, permission: [and()] },
      ],
    })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('运算节点必须包含子节点')
    const product = await t.call<{ permission: string }>('GET', '/system/data/permission/data/queryByBizId', {
      token: admin,
      query: { bizId: depts.D0, bizType: 1, permissionType: 1 },
    })
    expect(product.body.data.permission).toBe('[]')
  })

  it('checks targets, types and the admin role', async () => {
    const save = (item: Record<string, unknown>) =>
      t.call('POST', '/system/data/permission/data', { token: admin, body: [{ permission: [and(cond(1, 0, 'A'))], ...item }] })
    expect((await save({ bizIds: [adminRoleId], bizType: 0, permissionType: 1 })).body.msg).toBe('权限【admin】为内置权限，不允许设置数据权限！')
    expect((await save({ bizIds: [], bizType: 0, permissionType: 1 })).body.msg).toBe('业务ID不能为空！')
    expect((await save({ bizIds: [roleId], permissionType: 1 })).body.msg).toBe('业务类型不能为空！')
    expect((await save({ bizIds: [roleId], bizType: 7, permissionType: 1 })).body.msg).toBe('业务类型格式错误！')
    expect((await save({ bizIds: [roleId], bizType: 0 })).body.msg).toBe('权限类型不能为空！')
    expect((await save({ bizIds: [roleId], bizType: 0, permissionType: 9 })).body.msg).toBe('权限类型格式错误！')
    expect((await save({ bizIds: ['no-such-user'], bizType: 2, permissionType: 1 })).body.msg).toBe('用户不存在！')
    expect((await save({ bizIds: [roleId], bizType: 0, permissionType: 1, permission: '{oops' })).body.msg).toBe('数据权限格式错误')
  })

  it('drops the permissions of a deleted role', async () => {
    const role = await t.call<string>('POST', '/system/role', { token: admin, body: { code: 'R09', name: '临时', available: true } })
    const id = role.body.data
    await t.call('POST', '/system/data/permission/data', { token: admin, body: [{ bizIds: [id], bizType: 0, permissionType: 1, permission: [and(cond(1, 0, 'A'))] }] })
    const db = t.app.services.databases.tenant(OPERATOR_TENANT_ID)
    const count = async () => (await db.selectFrom('sys_data_permission_data').select('id').where('biz_id', '=', id).execute()).length
    expect(await count()).toBe(1)
    const del = await t.call('DELETE', '/system/role', { token: admin, body: [id] })
    expect(del.status, del.raw).toBe(200)
    expect(await count()).toBe(0)
  })

  it('needs the data-permission key of the target kind', async () => {
    await createUser('setter01', [])
    const setterRole = await t.call<string>('POST', '/system/role', { token: admin, body: { code: 'R02', name: '授权员', available: true } })
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [users.setter01], roleIds: [setterRole.body.data] } })
    const menus = await t.call<{ id: string; permission: string | null }[]>('GET', '/system/role/menu/menus', { token: admin })
    const key = menus.body.data.find((m) => m.permission === 'system:role:data-permission')!
    await t.call('POST', '/system/role/menu/setting', { token: admin, body: { roleIds: [setterRole.body.data], menuIds: [key.id] } })
    const setter = await t.login('setter01', 'secret123')
    const permission = [and(cond(1, 0, 'A'))]
    const role = await t.call('POST', '/system/data/permission/data', { token: setter, body: [{ bizIds: [roleId], bizType: 0, permissionType: 1, permission }] })
    expect(role.status, role.raw).toBe(200)
    const user = await t.call('POST', '/system/data/permission/data', { token: setter, body: [{ bizIds: [users.other01], bizType: 2, permissionType: 1, permission }] })
    expect(user.status).toBe(403)
    const read = await t.call('GET', '/system/data/permission/data/queryByBizId', { token: setter, query: { bizId: users.other01, bizType: 2, permissionType: 1 } })
    expect(read.status).toBe(403)
    const outsider = await t.login('other01', 'secret123')
    expect((await t.call('GET', '/system/data/permission/model/detail', { token: outsider, query: { modelId: 1 } })).status).toBe(403)
  })

  it('filters rows at query time: same / lower departments, AND-ed with role templates, values bound', async () => {
    const { services } = t.app
    const db = services.databases.tenant(OPERATOR_TENANT_ID)
    // Documents created by each user (any table with the audit columns serves as "order").
    const rows = [
      ['clerk01', '2024-03-01 10:00:00'],
      ['mate01', '2024-03-01 10:00:00'],
      ['mate01', '2023-12-31 10:00:00'],
      ['junior01', '2024-03-01 10:00:00'],
      ['other01', '2024-03-01 10:00:00'],
    ]
    for (const [i, [user, time]] of rows.entries())
      await db
        .insertInto('sys_position')
        .values({ id: `doc${i}`, code: `DOC${i}`, name: `单据${i}`, available: services.databases.kind === 'postgres' ? true : 1, create_by_id: users[user], create_time: time })
        .execute()
    const ctx = { tenantId: OPERATOR_TENANT_ID, userId: users.clerk01, db, name: 'clerk01', isAdmin: false, permissions: new Set() } as unknown as RequestContext
    const visible = async () => {
      const where = await dataPermissionFilter(dataPermissionSetup(services), ctx.db, ctx, 2, { order: 't' })
      let q = db.selectFrom('sys_position as t').select('t.code').where('t.code', 'like', 'DOC%')
      if (where) q = q.where(where)
      return (await q.orderBy('t.code').execute()).map((r) => r.code)
    }

    // The user template saved above for clerk01: same department OR lower departments.
    expect(await visible()).toEqual(['DOC0', 'DOC1', 'DOC2', 'DOC3'])

    // A role template is AND-ed: documents from 2024 on; an injection attempt as the value stays a value.
    await t.call('POST', '/system/user/role/setting', { token: admin, body: { userIds: [users.clerk01], roleIds: [roleId] } })
    const save = (permission: unknown) =>
      t.call('POST', '/system/data/permission/data', { token: admin, body: [{ bizIds: [roleId], bizType: 0, permissionType: 2, permission }] })
    expect((await save([and(cond(17, 2, '2024-01-01 00:00:00'))])).status).toBe(200)
    expect(await visible()).toEqual(['DOC0', 'DOC1', 'DOC3'])

    // Only the lower departments, via the department's own template.
    await t.call('POST', '/system/data/permission/data', {
      token: admin,
      body: [{ bizIds: [depts.D1], bizType: 1, permissionType: 2, permission: [and(cond(16, 6))] }],
    })
    expect(await visible()).toEqual(['DOC3'])

    // A user without departments and templates is not restricted; one with only "same department" sees nothing.
    expect(await dataPermissionFilter(dataPermissionSetup(services), ctx.db, { ...ctx, userId: users.other01 }, 2, { order: 't' })).toBeUndefined()
    await t.call('POST', '/system/data/permission/data', {
      token: admin,
      body: [{ bizIds: [users.setter01], bizType: 2, permissionType: 2, permission: [and(cond(14, 6))] }],
    })
    const none = await dataPermissionFilter(dataPermissionSetup(services), ctx.db, { ...ctx, userId: users.setter01 }, 2, { order: 't' })
    expect((await db.selectFrom('sys_position as t').select('t.code').where(none!).execute()).length).toBe(0)
  })
})
