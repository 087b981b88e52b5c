/**
 * The engine's fixed cost per call (issue 33): the authenticated list of 10 brands (token -> session ->
 * tenant -> permission -> list engine -> count + page -> codec -> envelope) against a bare Fastify route that
 * answers the same JSON from the same prepared statements on the same database (bare-list-server.ts), both
 * real processes over HTTP with keep-alive, loaded by CONCURRENCY clients for ROUND_MS, in alternating rounds
 * so both see the same machine load. Prints requests per second and the ratio app ÷ bare (target ≥ 0.5x;
 * NocoBase's list serves 0.08x of bare Koa). Never pass/fail on speed; a wrong answer stops the bench.
 * BENCH_DB=sqlite|postgres picks one database (PostgreSQL: an embedded server unless TEST_DATABASE_URL).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import pg from 'pg'
import { call, freePort, startServer, type ServerProcess } from './server-process.js'

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 3000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const QUERY = 'pageIndex=1&pageSize=20&sortField=code&sortOrder=asc'

/** Completed requests per second of `url` with CONCURRENCY keep-alive clients for ROUND_MS. */
async function throughput(url: string, headers: Record<string, string>): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const get = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume()
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))))
        })
        .on('error', reject)
    })
  let done = 0
  const end = performance.now() + ROUND_MS
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await get()
        done++
      }
    }),
  )
  agent.destroy()
  return (done * 1000) / (performance.now() - t0)
}

async function startBare(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare-list-server.ts')], {
    env: { ...process.env, ...env, BARE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve())
    child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)))
  })
  return { base: `http://127.0.0.1:${port}`, child }
}

const get = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).json()
/** JSON with keys sorted: the same answer whatever order each server writes its fields in. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => p.localeCompare(q))) : x))

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  const app: ServerProcess = await startServer({ prefix: 'bench-fixed-', databaseUrl: pgUrl })
  let bare: { base: string; child: ChildProcess } | undefined
  try {
    for (let i = 1; i <= 10; i++) await call(app, 'POST', '/basedata/product/brand', { code: `BB${String(i).padStart(2, '0')}`, name: `压测品牌${i}`, available: true })
    bare = await startBare(
      kind === 'sqlite'
        ? { BARE_SQLITE: path.join(app.dataDir, 'app.tenant_1000.db') }
        : { BARE_PG: pgUrl!, BARE_SCHEMA: 'tenant_1000' },
    )
    const appUrl = `${app.base}/cloud-api/basedata/product/brand/query?${QUERY}`
    const bareUrl = `${bare.base}/bare/brand/query?${QUERY}`
    const headers = { 'x-auth-token': app.token }
    // The same answer, or the comparison means nothing.
    const [a, b] = [await get(appUrl, headers), await get(bareUrl)]
    if (canonical(a) !== canonical(b)) throw new Error(`answers differ:\napp  ${canonical(a).slice(0, 700)}\nbare ${canonical(b).slice(0, 700)}`)
    await throughput(appUrl, headers)
    await throughput(bareUrl, {})
    const appRates: number[] = []
    const bareRates: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      appRates.push(await throughput(appUrl, headers))
      bareRates.push(await throughput(bareUrl, {}))
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
    const [appRate, bareRate] = [median(appRates), median(bareRates)]
    console.log(
      `${kind.padEnd(8)} app ${appRate.toFixed(0).padStart(6)} req/s   bare ${bareRate.toFixed(0).padStart(6)} req/s   app ÷ bare ${(appRate / bareRate).toFixed(2)}x   (${CONCURRENCY} clients, median of ${ROUNDS} rounds of ${ROUND_MS} ms)`,
    )
  } finally {
    bare?.child.kill('SIGTERM')
    await app.stop()
  }
}

console.log('fixed cost: the authenticated 10-brand list against a bare Fastify route with the same statements (target app ÷ bare ≥ 0.5x)')
const only = process.env.BENCH_DB
if (!only || only === 'sqlite') await run('sqlite')
if (!only || only === 'postgres') {
  const external = process.env.TEST_DATABASE_URL
  const server = external ? undefined : await (await import('../support/postgres.js')).startPostgres()
  // A database of its own: the server's seeds and the bench's brands must start from nothing.
  const admin = new pg.Client({ connectionString: external ?? server!.url })
  await admin.connect()
  const name = `bench_fixed_${process.pid}`
  await admin.query(`create database ${name}`)
  const url = new URL(external ?? server!.url)
  url.pathname = `/${name}`
  try {
    await run('postgres', url.toString())
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
    await server?.stop()
  }
}

