import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

interface MenuRow {
  id: string
  code: string
  title: string
  display: number
  parentId: string | null
}

/** The menu form's server rules: a proposed 编号, a duplicate named by its holder, buttons are leaves. */
describe('menu form', () => {
  let t: TestApp
  let admin: string
  let catalog: string
  let page: string
  let button: string
  const menus = async (title: string) =>
    (await t.call<MenuRow[]>('GET', '/system/menu/query', { token: admin, query: { title } })).body.data
  const create = async (body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', '/system/menu', { token: admin, body: { available: true, ...body } })
    expect(r.status, r.raw).toBe(200)
    return r.body.data
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    catalog = await create({ code: 'MF01', title: '测试目录', display: 0, path: '/mf' })
    page = await create({ code: 'MF02', title: '测试页面', display: 1, parentId: catalog, path: '/mf/page' })
    button = await create({ code: 'MF03', title: '测试按钮', display: 2, parentId: page, permission: 'mf:page:add' })
  })
  afterAll(async () => t?.close())

  it('proposes a 编号 no menu has', async () => {
    const r = await t.call<{ code: string }>('POST', '/system/code-rule/next', { token: admin, body: { target: 'menu.code' } })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.data.code).toMatch(/^M\d{4,}$/)
    const taken = await t.call<{ totalCount?: number } | MenuRow[]>('GET', '/system/menu/query', { token: admin, query: { code: r.body.data.code } })
    expect((taken.body.data as MenuRow[]).filter((m) => m.code === r.body.data.code)).toEqual([])
    await create({ code: r.body.data.code, title: '编号菜单', display: 1, parentId: catalog, path: '/mf/numbered' })
    const again = await t.call<{ code: string }>('POST', '/system/code-rule/next', { token: admin, body: { target: 'menu.code' } })
    expect(again.body.data.code).not.toBe(r.body.data.code)
  })

  it('a duplicate 编号 names the menu that has it, and nothing is saved', async () => {
    const r = await t.call('POST', '/system/menu', { token: admin, body: { code: 'MF02', title: '重复页面', display: 1, parentId: catalog, available: true } })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ code: 400, msg: '编号已被菜单【测试页面】使用，请重新输入' })
    expect(await menus('重复页面')).toEqual([])
    const moved = await t.call('PUT', '/system/menu', { token: admin, body: { id: button, code: 'MF01' } })
    expect(moved.body).toMatchObject({ code: 400, msg: '编号已被菜单【测试目录】使用，请重新输入' })
    expect((await menus('测试按钮'))[0].code).toBe('MF03')
  })

  it('refuses a button as parent, on create and on modify', async () => {
    const r = await t.call('POST', '/system/menu', { token: admin, body: { code: 'MF09', title: '按钮下的菜单', display: 1, parentId: button, available: true } })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ code: 400, msg: '上级菜单不能是按钮' })
    expect(await menus('按钮下的菜单')).toEqual([])
    const sideButton = await create({ code: 'MF04', title: '目录按钮', display: 2, parentId: catalog, permission: 'mf:export' })
    const moved = await t.call('PUT', '/system/menu', { token: admin, body: { id: page, parentId: sideButton } })
    expect(moved.body).toMatchObject({ code: 400, msg: '上级菜单不能是按钮' })
    expect((await menus('测试页面'))[0].parentId).toBe(catalog)
  })

  it('the parent picker offers directories and pages, not buttons', async () => {
    const r = await t.call<{ datas: MenuRow[] }>('GET', '/selector/menu', { token: admin, query: { title: '测试', pageSize: 1000 } })
    expect(r.status, r.raw).toBe(200)
    const ids = r.body.data.datas.map((m) => m.id)
    expect(ids).toEqual(expect.arrayContaining([catalog, page]))
    expect(ids).not.toContain(button)
    expect(r.body.data.datas.every((m) => m.display !== 2)).toBe(true)
    // A display asked for by the client does not undo it.
    const asked = await t.call<{ datas: MenuRow[] }>('GET', '/selector/menu', { token: admin, query: { display: 2, pageSize: 1000 } })
    expect(asked.body.data.datas.map((m) => m.id)).not.toContain(button)
  })
})
