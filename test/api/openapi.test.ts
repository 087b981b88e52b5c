import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { servedCalls } from '../support/endpoint-catalogue.js'
import { servedRoutes } from '../support/served-routes.js'
import { answerProblem } from '../support/answer-check.js'
import { userWithMenus } from '../support/access-helpers.js'

type Operation = { 'x-permissions': string[]; 'x-access': string; 'x-messages': { status: number; msg: string }[]; responses: Record<string, unknown> }
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, { description: string; content: Record<string, { examples: Record<string, { value: unknown }> }> }> } }

/** `GET /cloud-api/openapi.json`: every served call, valid OpenAPI 3.1, readable by a signed-in user only. */
describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: Doc
  beforeAll(async () => {
    t = await startTestApp()
    const res = await t.call<never>('GET', '/openapi.json', { token: await t.login() })
    expect(res.status, res.raw).toBe(200)
    doc = JSON.parse(res.raw) as Doc
  })
  afterAll(() => t?.close())

  it('is refused without a session, in the envelope', async () => {
    const res = await t.call('GET', '/openapi.json')
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ code: 401, msg: '请先登录！' })
  })

  it('is valid OpenAPI 3.1 by @redocly/openapi-core', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const config = await createConfig({ extends: ['minimal'], rules: { struct: 'error', 'no-unresolved-refs': 'error', 'operation-operationId-unique': 'error', 'path-parameters-defined': 'error' } })
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config })
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`)
    expect(errors).toEqual([])
  })

  it('lists every call of the catalogue the app serves and every other route it serves', async () => {
    const missing = servedCalls().filter((r) => !doc.paths[r.url]?.[r.method.toLowerCase()])
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([])
    const served = servedRoutes(t.app.printRoutes({ commonPrefix: false }))
    expect(served.length).toBeGreaterThan(servedCalls().length / 2)
    expect(served.filter((r) => !doc.paths[r.url]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`)).toEqual([])
  })

  it('names the permission keys and the Chinese messages of a call', () => {
    const create = doc.paths['/basedata/customer']?.post
    expect(create['x-access']).toBe('permission')
    expect(create['x-permissions']).toContain('base-data:customer:add')
    expect(create['x-messages']).toEqual(expect.arrayContaining([{ status: 403, msg: '无权限' }, { status: 401, msg: '请先登录！' }]))
    expect(create['x-messages'].some((m) => m.status === 400 && /请输入/.test(m.msg))).toBe(true)
    // A refusal is written once, under components.responses, and each call refers to it.
    const refused = (create.responses['403'] as { $ref: string }).$ref
    expect(refused).toMatch(/^#\/components\/responses\/Refusal403/)
    const response = doc.components.responses[refused.split('/').pop() as string]
    expect(response.description).toBe('无权限')
    expect(response.content['application/json'].examples.m1.value).toEqual({ code: 403, msg: '无权限' })
    const login = doc.paths['/auth/login']?.post
    expect(login['x-access']).toBe('public')
    expect(login['x-messages'].some((m) => m.status === 401)).toBe(false)
  })

  it('states the answer of a hand-written call from its contract and of an entity call from its file', () => {
    const json = JSON.stringify(doc.paths['/auth/info'].get.responses['200'])
    expect(json).toContain('#/components/schemas/CurrentUser')
    const page = JSON.stringify(doc.paths['/basedata/customer/query'].get.responses['200'])
    expect(page).toContain('#/components/schemas/Record.customer')
  })

  it('is what the harness checks every answer against: a drifting answer is named', () => {
    const check = (path: string, status: number, answer: unknown) => answerProblem(t.app, 'GET', `/cloud-api${path}`, status, 'application/json', JSON.stringify(answer))
    expect(check('/auth/info', 200, { code: 200, msg: '操作成功！', data: 'nobody' })).toMatch(/GET \/auth\/info answered 200 not as its OpenAPI document declares/)
    expect(check('/basedata/customer/query', 200, { code: 200, msg: '操作成功！', data: { datas: [{ id: '1', name: 7 }], totalCount: 1 } })).toMatch(/\/data\/datas\/0\/name/)
    expect(check('/basedata/customer/query', 403, { code: 403 })).toMatch(/msg/)
    expect(check('/basedata/customer/query', 200, { code: 200, msg: '操作成功！', data: { datas: [{ id: '1', name: '客户' }], totalCount: 1 } })).toBeUndefined()
  })
})

/** `GET /development/api-docs/query`: 接口文档's index of the document's calls, for holders of the page's key. */
describe('the index of the calls', () => {
  let t: TestApp
  let admin: string
  type Row = { id: string; tag: string; method: string; path: string; summary: string; permissions: string[]; access: string }
  const query = async (token: string, params: Record<string, string>) => t.call<{ totalCount: number; datas: Row[] }>('GET', '/development/api-docs/query', { token, query: params })
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
  })
  afterAll(() => t?.close())

  it('pages every call of the document, in the order of their paths', async () => {
    const doc = JSON.parse((await t.call<never>('GET', '/openapi.json', { token: admin })).raw) as Doc
    const calls = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0)
    const rows: Row[] = []
    for (let page = 1; rows.length < calls && page <= 10; page++) {
      const answer = await query(admin, { pageIndex: String(page), pageSize: '500' })
      expect(answer.body.data.totalCount).toBe(calls)
      rows.push(...answer.body.data.datas)
    }
    expect(rows.map((r) => r.id)).toEqual(rows.map((r) => `${r.method} ${r.path}`))
    expect(new Set(rows.map((r) => r.id)).size).toBe(calls)
    const paths = rows.map((r) => r.path)
    expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b)))
  })

  it('finds a call by a part of its method and path, its summary or a key, in any case', async () => {
    const byPath = await query(admin, { keyword: 'patch /sale/out/sheet/approve/' })
    expect(byPath.body.data.datas.map((r) => r.id)).toEqual([
      'PATCH /sale/out/sheet/approve/pass',
      'PATCH /sale/out/sheet/approve/pass/batch',
      'PATCH /sale/out/sheet/approve/refuse',
      'PATCH /sale/out/sheet/approve/refuse/batch',
    ])
    expect(byPath.body.data.datas[0]).toEqual({
      id: 'PATCH /sale/out/sheet/approve/pass',
      tag: 'sale',
      method: 'PATCH',
      path: '/sale/out/sheet/approve/pass',
      summary: expect.any(String),
      permissions: expect.arrayContaining(['sale:out:approve']),
      access: 'permission',
    })
    const byKey = await query(admin, { keyword: 'SYSTEM:BACKUP:QUERY', pageSize: '50' })
    expect(byKey.body.data.datas.map((r) => r.id)).toEqual(['GET /system/backup/query'])
    const bySummary = await query(admin, { keyword: '客户', pageSize: '500' })
    expect(bySummary.body.data.datas.length).toBeGreaterThan(5)
    expect(bySummary.body.data.datas.every((r) => r.summary.includes('客户'))).toBe(true)
    const login = await query(admin, { keyword: 'post /auth/login' })
    expect(login.body.data.datas.find((r) => r.id === 'POST /auth/login')).toMatchObject({ access: 'public', permissions: [] })
    expect((await query(admin, { keyword: 'no such call anywhere' })).body.data).toMatchObject({ totalCount: 0, datas: [] })
  })

  it('refuses a keyword it cannot read, and a caller without the page', async () => {
    const junk = await t.call('GET', '/development/api-docs/query?keyword=a&keyword=b', { token: admin })
    expect(junk.status).toBe(400)
    expect(junk.body).toMatchObject({ code: 400, msg: '查询条件“关键字”格式不正确' })
    const clerk = await userWithMenus(t, admin, 'apidocsclerk', ['base-data:customer:query'])
    expect((await query(clerk, {})).body).toMatchObject({ code: 403, msg: '无权限' })
    const reader = await userWithMenus(t, admin, 'apidocsreader', ['development:api-docs:query'])
    expect((await query(reader, { keyword: 'sale/out' })).body.data.totalCount).toBeGreaterThan(0)
  })
})
