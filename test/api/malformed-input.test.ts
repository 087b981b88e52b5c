import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { servedCalls } from '../support/endpoint-catalogue.js'
import { createTradeFixtures } from '../support/trade-fixtures.js'
import type { EntityModel, FieldModel } from '../../src/shared/metadata/entity-model.js'
import { writableFields } from '../../src/shared/metadata/validate-record.js'
import { linesEntityName } from '../../src/shared/metadata/document-model.js'

/**
 * A malformed-input sweep over every served call of the spec's catalogue, as admin: oversize strings,
 * huge numbers, NUL and other control characters, 10,000-level nesting and wrong types, in the body and
 * in the query. Nothing may answer 5xx. `/auth/logout` is left out (it would end the admin session the
 * sweep runs in); a 401 along the way logs in again, so every call is tried signed in.
 */
const NAMES = [
  'id', 'ids', 'name', 'code', 'username', 'condition', 'description', 'remark', 'title', 'content', 'value',
  'pageIndex', 'pageSize', 'scId', 'productId', 'supplierId', 'customerId', 'memberId', 'menuId', 'roleId',
  'userId', 'parentId', 'categoryId', 'taxPrice', 'orderNum', 'available', 'status', 'createTimeStart', 'refuseReason',
]
const every = (value: unknown) => Object.fromEntries(NAMES.map((n) => [n, value]))
const line = (value: unknown) => ({ productId: value, orderNum: value, taxPrice: value, description: value, id: value })
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

const LONG = 'X'.repeat(5000)
/** Numbers no column holds and texts outside the decimal grammar, spread over the names. */
const HUGE = ['99999999999999999999', '-1e308', '1e400', '9'.repeat(400), 'NaN', 'Infinity', '0x7fffffff', '1e2', ' 1.00 ', '-0']
const spread = <T>(values: T[]) => Object.fromEntries(NAMES.map((n, i) => [n, values[i % values.length]]))
const WRONG: unknown[] = [{ $gt: '' }, true, [], [{}], null, false, 0, [[1]], { 0: 'a' }]

const cases: { name: string; body: string; query: string }[] = [
  {
    name: 'oversize strings',
    body: JSON.stringify({ ...every(LONG), products: [line(LONG)], payTypes: [{ id: LONG, payAmount: LONG }] }),
    query: `name=${'Y'.repeat(2000)}&code=${'Z'.repeat(2000)}&id=${'W'.repeat(2000)}&pageIndex=1`,
  },
  {
    name: 'huge numbers and texts outside the grammar',
    body: JSON.stringify({ ...spread(HUGE), products: HUGE.map((h) => line(h)), payTypes: HUGE.map((h) => ({ id: 'x', payAmount: h })) }),
    query: HUGE.map((h, i) => `${['pageIndex', 'pageSize', 'id', 'orderNum', 'createTimeStart', 'taxPrice', 'scId', 'status', 'bizType', 'available'][i]}=${encodeURIComponent(h)}`).join('&'),
  },
  {
    name: 'JSON numbers beyond every column',
    body: `{${NAMES.map((n, i) => `"${n}": ${['1e20', '9007199254740993', '-1e308', '1e400', '0.30000000000000004'][i % 5]}`).join(', ')}, "products": [{"productId": "x", "orderNum": 1e400, "taxPrice": 1e21}, {"orderNum": 9007199254740993, "taxPrice": -1e-7}]}`,
    query: 'pageIndex=99999999999999999999&pageSize=-99999999999999999999',
  },
  { name: 'NUL', body: JSON.stringify({ ...every('a\u0000b'), products: [line('\u0000')] }), query: 'name=%00&code=a%00&id=%00&condition=%00' },
  {
    name: 'control characters',
    body: JSON.stringify({ ...every('\u0001\u001b[31m\u007f'), products: [line('\u0008')] }),
    query: 'name=%01&code=%1B&condition=%7F&productName=%0A&bizCode=%09',
  },
  { name: '10,000-level nesting', body: `{"id": ${deep(10_000)}, "products": ${deep(10_000)}}`, query: '' },
  {
    name: 'wrong types',
    body: JSON.stringify({ ...spread(WRONG), products: ['x', 1, null, [[]], { productId: [], orderNum: {}, taxPrice: [] }, line(true)], payTypes: 'x' }),
    query: 'id=a&id=b&ids=&pageIndex=abc&available=maybe&createTimeStart=notadate&createTimeEnd=2026-13-45&status=99&bizType=x&scId=true',
  },
]

describe('catalogue: malformed input over the spec catalogue never answers 5xx', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const calls = servedCalls().filter((r) => r.url !== '/auth/logout')

  it('sweeps the catalogue', () => {
    expect(calls.length).toBeGreaterThan(400)
  })

  it.each(calls.map((r) => [r.method, r.url]))('%s %s', async (method, url) => {
    for (const c of cases) {
      const send = () =>
        t.app.inject({
          method: method as 'GET',
          url: `/cloud-api${url}${c.query ? `?${c.query}` : ''}`,
          headers: { 'x-auth-token': token, 'content-type': 'application/json' },
          payload: method === 'GET' ? undefined : c.body,
        })
      let r = await send()
      if (r.statusCode === 401) {
        token = await t.login()
        r = await send()
      }
      expect(r.statusCode, `${c.name}: ${r.body.slice(0, 300)}`).toBeLessThan(500)
    }
  })
})

/**
 * Blanks around a number are refused, never trimmed (src/shared/metadata/decimal-grammar.ts): for every
 * numeric field of every entity with a create call and of every document's lines, as the schemas declare
 * them, each blank variant answers 400 with the field's Chinese message and writes nothing.
 */
const BLANKS = [' 2 ', '2 ', ' 2', '\t2', '2\u00a0', ' ']
const numberMessage = (f: FieldModel) => (f.type === 'integer' ? (f.integerMessage ?? `${f.label}必须为整数`) : `${f.label}必须为数字`)
const numeric = (e: EntityModel) => writableFields(e).filter((f) => f.type === 'integer' || f.type === 'decimal')

describe('blanks around numbers are refused for every numeric field', () => {
  let t: TestApp
  let token: string
  let tenantId: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    tenantId = (await t.app.services.tenantIds())[0]
  })
  afterAll(async () => t?.close())

  const dbOf = (e: EntityModel) => (e.scope === 'platform' ? t.app.services.databases.platform : t.app.services.databases.tenant(tenantId))
  const countOf = async (e: EntityModel) =>
    Number((await dbOf(e).selectFrom(e.table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

  /** A plausible value for a field answered before the one under test: by its type, a reference to a row that exists. */
  const filler = async (f: FieldModel): Promise<unknown> => {
    if (f.type === 'integer' || f.type === 'decimal') return f.min !== undefined ? String(f.min + 1) : '1'
    if (f.type === 'boolean') return false
    if (f.type === 'date') return '2026-01-01'
    if (f.type === 'datetime') return '2026-01-01 00:00:00'
    if (f.type === 'enum') return t.app.services.registry.enums.items(f.enum ?? '')[0]?.code
    if (f.type === 'json') return undefined
    if (f.type === 'ref') {
      const target = t.app.services.registry.find(f.ref ?? '')
      const row = target && (await dbOf(target).selectFrom(target.table).select('id').executeTakeFirst())
      return row ? (f.multiple ? [String(row.id)] : String(row.id)) : undefined
    }
    if (f.pattern === 'digits') return String(Date.now()).slice(-8)
    return f.pattern === 'email' ? 'a@b.cn' : f.pattern === 'telephone' || f.pattern === 'mobile' ? '13800000000' : `Z${Math.random().toString(36).slice(2, 8)}`
  }

  it('entities: every numeric field of every entity that is created through its own call', async () => {
    await createTradeFixtures(t, token, 'BE')
    const entities = t.app.services.registry.all().filter((e) => !e.file.document && e.file.api?.base && e.file.api.operations?.includes('create'))
    let fields = 0
    let reached = 0
    for (const e of entities) {
      for (const f of numeric(e)) {
        fields++
        for (const blank of BLANKS) {
          const before = await countOf(e)
          const body: Record<string, unknown> = { [f.name]: blank }
          let r = await t.call('POST', e.file.api!.base, { token, body })
          // Fill the fields answered before this one, as far as their type allows, until this one is answered.
          for (let i = 0; i < 12 && r.status === 400 && typeof r.body.field === 'string' && r.body.field !== f.name; i++) {
            const other = e.byName.get(r.body.field as string)
            const value = other && (await filler(other))
            if (value === undefined || body[other!.name] !== undefined) break
            body[other!.name] = value
            r = await t.call('POST', e.file.api!.base, { token, body })
          }
          const where = `${e.name}.${f.name} ${JSON.stringify(blank)}: ${r.raw.slice(0, 200)}`
          expect(r.status, where).toBe(400)
          expect(r.body.msg, where).toMatch(/[\u4e00-\u9fa5]/)
          expect(await countOf(e), where).toBe(before)
          if (r.body.field === f.name) {
            expect(r.body.msg, where).toContain(numberMessage(f))
            reached++
          } else {
            // Answered earlier only at a reference to a kind of row the fixtures do not make.
            expect(e.byName.get(String(r.body.field))?.type, where).toBe('ref')
          }
        }
      }
    }
    expect(fields).toBeGreaterThan(20)
    expect(reached, `${reached} of ${fields * BLANKS.length}`).toBeGreaterThan(fields * BLANKS.length * 0.7)
  })

  it('documents: every numeric header and line field of every document, on create and on create-and-approve', async () => {
    const f = await createTradeFixtures(t, token, 'BL')
    const documents = t.app.services.registry.documents()
    expect(documents.length).toBeGreaterThan(15)
    let checked = 0
    for (const doc of documents) {
      const lines = t.app.services.registry.get(linesEntityName(doc.name))
      const urls = [doc.file.api!.base, ...(doc.file.document!.approval !== false ? [`${doc.file.api!.base}/approve/pass/direct`] : [])]
      const cases = [...numeric(doc).map((field) => ({ field, inLine: false })), ...numeric(lines).map((field) => ({ field, inLine: true }))]
      for (const { field, inLine } of cases) {
        for (const blank of BLANKS) {
          for (const url of urls) {
            const before = await countOf(doc)
            const line = { productId: f.p1, orderNum: 1, taxPrice: '1.00', ...(inLine ? { [field.name]: blank } : {}) }
            const header = { scId: f.scA, supplierId: f.supplierId, customerId: f.customerId, ...(inLine ? {} : { [field.name]: blank }) }
            const r = await t.call('POST', url, { token, body: { ...header, products: [line] } })
            const where = `${doc.name} ${url} ${field.name} ${JSON.stringify(blank)}: ${r.raw.slice(0, 200)}`
            expect(r.status, where).toBe(400)
            expect(r.body.msg, where).toMatch(/[\u4e00-\u9fa5]/)
            expect(await countOf(doc), where).toBe(before)
            expect(r.body.field, where).toBe(field.name)
            expect(r.body.msg, where).toContain(numberMessage(field))
            checked++
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(400)
  })
})

/**
 * Over a real socket (not inject): a body past the 1 MB limit is answered `413 请求内容过大，不能超过1MB` in
 * the envelope at any size, the client finishing its upload without a reset (EPIPE/ECONNRESET); an URL
 * past Node's header limit is answered with the envelope too.
 */
describe('oversize requests over a real socket get the envelope, never a reset', () => {
  let t: TestApp
  let token: string
  let address: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    address = await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => t?.close())

  const suppliers = async () =>
    Number((await t.app.services.databases.tenant((await t.app.services.tenantIds())[0]).selectFrom('base_data_supplier').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

  /** Sends the whole body on its own connection; answers the status and body, or the socket error. */
  const post = (body: Buffer) =>
    new Promise<{ status?: number; body: string; error?: string }>((resolve) => {
      const { port } = new URL(address)
      let answer: { status?: number; body: string } = { body: '' }
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/cloud-api/basedata/supplier', agent: false, headers: { 'x-auth-token': token, 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          let text = ''
          res.on('data', (c) => (text += c))
          res.on('end', () => (answer = { status: res.statusCode, body: text }))
        },
      )
      req.on('error', (e) => resolve({ ...answer, error: e.message }))
      req.on('close', () => resolve(answer))
      req.end(body)
    })

  it.each([2, 10, 25])('%i MB, three times: 413 in the envelope, no reset, nothing written', async (mb) => {
    const before = await suppliers()
    const body = Buffer.from(JSON.stringify({ code: 'BIG1', name: '大', description: 'x'.repeat(mb * 1024 * 1024) }))
    for (let i = 0; i < 3; i++) {
      const answer = await post(body)
      expect(answer.error, `try ${i + 1}`).toBeUndefined()
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.body)).toEqual({ code: 413, msg: '请求内容过大，不能超过1MB' })
    }
    expect(await suppliers()).toBe(before)
    expect((await fetch(`${address}/healthz`)).status).toBe(200)
  })

  it('3,000 query parameters: the envelope, not a bare 431', async () => {
    const query = Array.from({ length: 3000 }, (_, i) => `name${i}=${i}`).join('&')
    const r = await fetch(`${address}/cloud-api/basedata/supplier/query?${query}`, { headers: { 'x-auth-token': token } })
    expect(r.status).toBe(431)
    expect(await r.json()).toEqual({ code: 431, msg: '请求地址或请求头过长' })
    expect((await fetch(`${address}/healthz`)).status).toBe(200)
  })
})
