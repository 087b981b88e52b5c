import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { servedCalls } from '../support/endpoint-catalogue.js'
import { servedRoutes } from '../support/served-routes.js'
import { answerProblem } from '../support/answer-check.js'

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
