import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** A small integration an integrator would write against the generated client types. */
const INTEGRATION = `
import type { paths } from './api.js'

type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never

export const roles = (me: Answer<'/auth/info', 'get'>): string[] => me.roles
export const customerNames = (page: Answer<'/basedata/customer/query', 'get'>) => page.datas.map((c) => c.name ?? '')
export const newToken: paths['/system/api-token']['post']['requestBody']['content']['application/json'] = {
  name: '网店同步',
  expireTime: '2030-01-01 00:00:00',
  permissions: ['base-data:customer:query'],
}
export const shown = (made: Answer<'/system/api-token', 'post'>): string => made.token
export const query: paths['/basedata/customer/query']['get']['parameters']['query'] = { pageIndex: 1, pageSize: 20 }
`

/** Type-checks `files` (strict) in `dir`; answers the diagnostics as text. */
function typeCheck(dir: string, files: string[]): string[] {
  const program = ts.createProgram(files.map((f) => path.join(dir, f)), {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: false,
    types: [],
  })
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
}

/** openapi-typescript makes a TypeScript client from GET /cloud-api/openapi.json, and an integration type-checks against it. */
describe('a TypeScript client generated from the OpenAPI document', () => {
  let t: TestApp
  let dir: string
  beforeAll(async () => {
    t = await startTestApp()
    dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-client-'))
    const ast = await openapiTS(t.app.openApi() as never)
    await writeFile(path.join(dir, 'api.ts'), astToString(ast))
  })
  afterAll(async () => {
    await t?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('type-checks an integration written against it', async () => {
    await writeFile(path.join(dir, 'integration.ts'), INTEGRATION)
    expect(typeCheck(dir, ['api.ts', 'integration.ts'])).toEqual([])
  })

  it('refuses an integration that drifts from the document', async () => {
    await writeFile(path.join(dir, 'drift.ts'), `${INTEGRATION}\nexport const wrong = (me: Answer<'/auth/info', 'get'>): number => me.roles\nexport const missing: paths['/system/api-token']['post']['requestBody']['content']['application/json'] = { name: 'x' }\n`)
    const problems = typeCheck(dir, ['api.ts', 'drift.ts'])
    expect(problems.some((p) => /not assignable to type 'number'/.test(p)), problems.join('\n')).toBe(true)
    expect(problems.some((p) => /expireTime/.test(p)), problems.join('\n')).toBe(true)
  })
})
