import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** A new business object described as one JSON file, with no TypeScript, gets table, API and picker. */
describe('a new entity from one JSON file', () => {
  let t: TestApp
  let token: string
  let scId: string
  beforeAll(async () => {
    t = await startTestApp({ entityDirs: [path.resolve(import.meta.dirname, '../fixtures/entities')] })
    token = await t.login()
    scId = (await t.call<string>('POST', '/basedata/storecenter', { token, body: { code: 'SC01', name: '一号仓' } })).body.data
  })
  afterAll(async () => t?.close())

  it('creates, validates, lists with the reference label, exports and picks', async () => {
    const bad = await t.call('POST', '/basedata/shelf-zone', { token, body: { code: 'Z1', name: 'A区', scId, capacity: '1.23456' } })
    expect(bad.body.msg).toBe('容量（立方米）最多允许3位小数！')
    const noSc = await t.call('POST', '/basedata/shelf-zone', { token, body: { code: 'Z1', name: 'A区' } })
    expect(noSc.body.msg).toBe('请选择仓库')
    const ghost = await t.call('POST', '/basedata/shelf-zone', { token, body: { code: 'Z1', name: 'A区', scId: 'nope' } })
    expect(ghost.body.msg).toBe('仓库不存在')
    const ok = await t.call<string>('POST', '/basedata/shelf-zone', { token, body: { code: 'Z1', name: 'A区', scId, capacity: 12.5, levels: 4 } })
    expect(ok.body.code).toBe(200)

    const list = await t.call<{ datas: Record<string, unknown>[] }>('GET', '/basedata/shelf-zone/query', { token, query: { scId } })
    expect(list.body.data.datas).toMatchObject([{ code: 'Z1', scId, scName: '一号仓', capacity: '12.500', levels: 4, available: true }])

    const exported = await t.call('POST', '/basedata/shelf-zone/export', { token, body: {} })
    expect(exported.headers['content-type']).toContain('spreadsheetml')
    expect(exported.rawPayload.subarray(0, 2).toString()).toBe('PK')

    const picked = await t.call<{ datas: { code: string }[] }>('GET', '/selector/shelf-zone', { token, query: { name: 'A' } })
    expect(picked.body.data.datas.map((d) => d.code)).toEqual(['Z1'])
  })

  it('refuses to delete a warehouse a zone refers to', async () => {
    const r = await t.call('DELETE', '/basedata/storecenter', { token, body: { id: scId } })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('仓库已被货架区域使用，不允许删除！')
  })

  it('serves the entity to the browser runtime through the metadata bundle', async () => {
    const meta = await t.call<{ entities: Record<string, { table: string }> }>('GET', '/meta/bundle', { token })
    expect(meta.body.data.entities.shelfZone.table).toBe('base_data_shelf_zone')
  })
})
