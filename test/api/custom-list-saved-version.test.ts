import dayjs from 'dayjs'
import type { CompiledQuery } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { now, setClock } from '../../src/server/platform/clock.js'

type Config = { listConfig: { name: string; fields: { columnName: string }[] } }

/**
 * A custom list's configuration and the access to it are kept per saved version, read from the database:
 * a run-time call reads no list, data object or menu while nothing was saved, and a save by another
 * process (written here straight into the database, past this process's hooks) is seen at the next call.
 * The clock is moved an hour on, so the saves of the set-up are no longer young (saved-config-cache.ts).
 */
describe('custom lists: configuration and access kept per saved version', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let listId: string
  let otherListId: string
  let menuId: string
  const statements: CompiledQuery[] = []

  const tenantDb = async () => t.app.services.databases.tenant((await t.app.services.tenantIds())[0])
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, token: string, body?: unknown, query?: Record<string, string>) => {
    const r = await t.call<T>(method, url, { token, body, query })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.code, r.raw).toBe(200)
    return r.body.data
  }
  const config = (token = clerk, id = listId) => t.call<Config>('GET', '/gen/api/custom/list/config', { token, query: { id } })
  /** Statements of the last call that read the saved configuration itself (not its version). */
  const configReads = () => statements.filter((q) => /"(gen_custom_list|gen_data_obj|gen_data_entity|gen_data_entity_detail|sys_menu)"/.test(q.sql) && !/max\(/.test(q.sql))
  const hourOn = () => setClock(dayjs().add(1, 'hour').toDate())

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    const entityId = await ok<string>('POST', '/gen/data/entity/sync/table', admin, { tableName: 'base_data_product_brand', name: '品牌' })
    const dataObjId = await ok<string>('POST', '/gen/data/obj', admin, { name: '品牌对象', mainTableId: entityId, mainTableAlias: 'b', joins: [] })
    const list = (name: string) =>
      ok<string>('POST', '/gen/custom/list', admin, { name, dataObjId, listType: 2, hasPage: true, treeData: false, idColumn: 'b_id', fields: [{ relaId: 'b_code' }, { relaId: 'b_name' }] })
    listId = await list('品牌列表')
    otherListId = await list('另一个品牌列表')
    menuId = await ok<string>('POST', '/system/menu', admin, { code: 'SAVEDVER', title: '品牌列表', display: 1, componentType: 1, component: listId, path: '/saved/brands', available: true })
    clerk = await userWithMenus(t, admin, 'savedver', [], [menuId])
    const executor = (await tenantDb()).getExecutor()
    const execute = executor.executeQuery.bind(executor)
    executor.executeQuery = (async (query: CompiledQuery) => {
      statements.push(query)
      return execute(query)
    }) as typeof executor.executeQuery
  })
  afterEach(() => setClock())
  afterAll(async () => {
    setClock()
    await t.close()
  })

  it('reads nothing of the list while nothing was saved, and sees another process’s save at the next call', async () => {
    hourOn()
    expect((await config()).body.data.listConfig.name).toBe('品牌列表')
    statements.length = 0
    const again = await config()
    expect(again.body.data.listConfig.name).toBe('品牌列表')
    expect(configReads().map((q) => q.sql)).toEqual([])
    await ok('POST', '/gen/api/custom/list/query', clerk, { pageSize: 5 }, { id: listId })
    expect(configReads().map((q) => q.sql)).toEqual([])

    const db = await tenantDb()
    await db.updateTable('gen_custom_list').set({ name: '别处改名', update_time: now() }).where('id', '=', listId).execute()
    expect((await config()).body.data.listConfig.name).toBe('别处改名')
    hourOn()
    await db.updateTable('gen_custom_list').set({ available: t.dbKind === 'postgres' ? false : 0, update_time: now() }).where('id', '=', listId).execute()
    const stopped = await config()
    expect(stopped.status).toBe(400)
    expect(stopped.body.msg).toBe('自定义列表已停用')
  })

  it('answers a second save made within the same second as the first', async () => {
    hourOn()
    const current = await ok<Record<string, unknown>>('GET', '/gen/custom/list', admin, undefined, { id: listId })
    await ok('PUT', '/gen/custom/list', admin, { ...current, available: true, name: '第一次' })
    expect((await config()).body.data.listConfig.name).toBe('第一次')
    await ok('PUT', '/gen/custom/list', admin, { ...current, available: true, name: '第二次' })
    expect((await config()).body.data.listConfig.name).toBe('第二次')
  })

  it('follows a menu changed by another process: the list it no longer opens is refused, the one it opens now answers', async () => {
    hourOn()
    expect((await config()).status).toBe(200)
    expect((await config(clerk, otherListId)).status).toBe(403)
    const db = await tenantDb()
    await db.updateTable('sys_menu').set({ component: otherListId, update_time: now() }).where('id', '=', menuId).execute()
    const refused = await config()
    expect(refused.status).toBe(403)
    expect(refused.body.msg).toBe('无权限')
    expect((await config(clerk, otherListId)).body.data.listConfig.name).toBe('另一个品牌列表')
  })
})
