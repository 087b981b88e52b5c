import { expect } from 'vitest'
import type { HttpMethod, TestApp } from './test-app.js'

let customers = 0

/** Calls that must succeed (code 200), answering `data`. */
export function crmCalls(t: () => TestApp, token: () => string) {
  const call = <T = unknown>(method: HttpMethod, url: string, body?: unknown, query?: Record<string, string | number | boolean | undefined>, as?: string) =>
    t().call<T>(method, url, { token: as ?? token(), body, query })
  const ok = async <T = unknown>(method: HttpMethod, url: string, body?: unknown, query?: Record<string, string | number | boolean | undefined>, as?: string) => {
    const r = await call<T>(method, url, body, query, as)
    expect(r.body.code, `${method} ${url}: ${r.raw}`).toBe(200)
    return r.body.data
  }
  /** A refused call: 4xx with the Chinese message. */
  const refused = async (method: HttpMethod, url: string, body: unknown, msg: string, query?: Record<string, string | number | boolean | undefined>, as?: string) => {
    const r = await call(method, url, body, query, as)
    expect(r.status, r.raw).toBeGreaterThanOrEqual(400)
    expect(r.status, r.raw).toBeLessThan(500)
    expect(r.body.msg).toBe(msg)
    return r
  }
  const customer = async (name = '华东贸易有限公司') => {
    const n = ++customers
    return ok<string>('POST', '/basedata/customer', { code: `CRMK${n}`, name: `${name}${n}`, settleType: 1 })
  }
  const userId = async (as: string) => (await ok<{ user: { id: string } }>('GET', '/auth/info', undefined, undefined, as)).user.id
  return { call, ok, refused, customer, userId }
}
