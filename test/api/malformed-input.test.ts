import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { servedCalls } from '../support/endpoint-catalogue.js'

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
