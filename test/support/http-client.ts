import type { CallOptions, CallResult, Envelope, HttpMethod, TestApp } from './test-app.js'

/** What the API fixtures need of an app: calls and sign-in. */
export type ApiClient = Pick<TestApp, 'call' | 'login'>

/**
 * The calls of a TestApp over HTTP to a running server (a process of `startCluster`), so the same
 * fixtures set up data on either.
 */
export function httpClient(base: string, adminPassword = 'admin123456'): ApiClient {
  const call = async <T = unknown>(method: HttpMethod, url: string, options: CallOptions = {}): Promise<CallResult<T>> => {
    const query = new URLSearchParams()
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null) query.set(k, String(v))
    const headers: Record<string, string> = { ...options.headers }
    if (options.token) headers['x-auth-token'] = options.token
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${base}/cloud-api${url}${query.size ? `?${query}` : ''}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    })
    const rawPayload = Buffer.from(await response.arrayBuffer())
    const raw = rawPayload.toString()
    const json = (response.headers.get('content-type') ?? '').includes('json') && raw.length > 0
    return {
      status: response.status,
      body: (json ? JSON.parse(raw) : {}) as Envelope<T>,
      raw,
      rawPayload,
      headers: Object.fromEntries(response.headers.entries()),
    }
  }
  const login = async (username = 'admin', password = adminPassword) => {
    const r = await call<{ token?: string }>('POST', '/auth/login', { body: { username, password } })
    const token = r.body.data?.token
    if (r.status !== 200 || typeof token !== 'string') throw new Error(`login as ${username} failed: HTTP ${r.status} ${r.raw.slice(0, 500)}`)
    return token
  }
  return { call, login }
}
