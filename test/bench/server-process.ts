/**
 * The real server as a child process for the benches that measure its memory (import-export, spreadsheet):
 * started on a fresh SQLite DATA_DIR and a free port (no demo company), signed in as admin, and its RSS
 * read from /proc/<pid>/status, so the bench's own memory never counts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import net from 'node:net'

export const ROOT = path.resolve(import.meta.dirname, '../..')

export interface ServerProcess {
  base: string
  child: ChildProcess
  dataDir: string
  token: string
  stop(): Promise<void>
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/**
 * `webRoot`: the built client to serve (none by default); `nodeArgs`: e.g. `--cpu-prof`; `databaseUrl`: PostgreSQL
 * instead of the fresh SQLite file. BENCH_NODE_ARGS adds
 * node/V8 flags to every server the benches start (`--trace-gc`, `--max-semi-space-size=8`…) and
 * BENCH_SERVER_STDOUT=1 shows the server's stdout (where V8 traces go).
 */
/** The compiled server, as `npm start` runs it: built from the current sources once per bench run. */
let builtServer: string | undefined
function compiledServer(): string {
  if (!builtServer) {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'ignore' })
    builtServer = path.join(ROOT, 'dist-server', 'main.mjs')
  }
  return builtServer
}

export async function startServer(options: { prefix: string; webRoot?: string; nodeArgs?: string[]; databaseUrl?: string }): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix))
  const port = await freePort()
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), compiledServer()], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOGIN_CAPTCHA: 'off',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      WEB_ROOT: options.webRoot ?? path.join(dataDir, 'no-web'),
      DATABASE_URL: options.databaseUrl ?? `sqlite:${path.join(dataDir, 'app.db')}`,
    },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (i > 600 || child.exitCode !== null) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 200))
  }
  const login = (await (
    await fetch(`${base}/cloud-api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123456' }) })
  ).json()) as { data: { token: string } }
  return {
    base,
    child,
    dataDir,
    token: login.data.token,
    stop: async () => {
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r))
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A `/proc/<pid>/status` figure in MB (VmRSS now, VmHWM the high-water mark since start). */
export const procStatus = (pid: number, key: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

/**
 * The largest resident set of the server while `work` runs, sampled every 50 ms, with the time it took
 * and the kernel's high-water mark after it.
 */
export async function measureRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; seconds: number; peak: number; hwm: number; before: number }> {
  const before = procStatus(pid, 'VmRSS')
  let peak = before
  const timer = setInterval(() => {
    peak = Math.max(peak, procStatus(pid, 'VmRSS'))
  }, 50)
  const t0 = performance.now()
  try {
    const result = await work()
    peak = Math.max(peak, procStatus(pid, 'VmRSS'))
    return { result, seconds: (performance.now() - t0) / 1000, peak, hwm: procStatus(pid, 'VmHWM'), before }
  } finally {
    clearInterval(timer)
  }
}

/** A JSON call answering code 200, or an error naming the call. */
export async function call<T>(s: ServerProcess, method: string, url: string, body?: unknown): Promise<T> {
  const r = await fetch(`${s.base}/cloud-api${url}`, {
    method,
    headers: { 'x-auth-token': s.token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const json = (await r.json()) as { code: number; msg: string; data: T }
  if (json.code !== 200) throw new Error(`${method} ${url}: ${json.msg}`)
  return json.data
}
