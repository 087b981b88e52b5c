import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a receiver got. */
export interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  /** The status it was answered. */
  status: number
}

/**
 * A webhook receiver of a test: an HTTP server on 127.0.0.1 that records every request and answers 200,
 * or, per path, the statuses queued with `failNext` first.
 */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  base: string
  received: Received[]
  /** What `path` got so far. */
  at(path: string): Received[]
  /** The next requests to `path` are answered these statuses, in order (then 200 again). */
  answer(path: string, ...statuses: number[]): void
  /** Every request to `path` is answered `status` until `answer`/`always` says otherwise (undefined: 200). */
  always(path: string, status: number | undefined): void
  /** Requests to `path` get no answer until `release(path)` (a slow receiver). */
  hold(path: string): void
  release(path: string): void
  /** Requests to `path` held now. */
  held(path: string): number
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = []
  const queued = new Map<string, number[]>()
  const fixed = new Map<string, number>()
  const holding = new Set<string>()
  const waiting = new Map<string, (() => void)[]>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? '/'
      const reply = () => {
        const status = queued.get(path)?.shift() ?? fixed.get(path) ?? 200
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status })
        res.writeHead(status, { 'content-type': 'text/plain' })
        res.end(status < 300 ? 'ok' : `receiver says ${status}`)
      }
      if (holding.has(path)) waiting.set(path, [...(waiting.get(path) ?? []), reply])
      else reply()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    at: (path) => received.filter((r) => r.path === path),
    answer: (path, ...statuses) => queued.set(path, [...(queued.get(path) ?? []), ...statuses]),
    always: (path, status) => (status === undefined ? fixed.delete(path) : fixed.set(path, status)),
    hold: (path) => holding.add(path),
    release: (path) => {
      holding.delete(path)
      for (const reply of waiting.get(path) ?? []) reply()
      waiting.delete(path)
    },
    held: (path) => waiting.get(path)?.length ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Polls `check` until it answers something truthy, at most `ms`; fails with `what` otherwise. */
export async function until<T>(what: string, check: () => T | Promise<T>, ms = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
