// `npm run cluster`: N server processes (CLUSTER_WORKERS, default 2) on one PostgreSQL behind a small
// round-robin proxy on PORT (default 8080), websockets included. For trying the app as several processes:
// sessions, verification codes, import tasks and document numbers are in the database, and the message bus
// spans the processes through @socket.io/postgres-adapter. A real deployment puts its own load balancer
// in front (no sticky sessions needed: the client's bus socket is websocket-only).
import { spawn } from 'node:child_process'
import http from 'node:http'
import httpProxy from 'http-proxy'

const url = process.env.DATABASE_URL ?? ''
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'npm run cluster needs PostgreSQL: set DATABASE_URL=postgres://user:password@host:5432/database.\n' +
      'SQLite (the default without DATABASE_URL) is one process only: several processes on one SQLite file would\n' +
      'not share the message bus, and its stock and settlement ledgers assume a single writer.',
  )
  process.exit(1)
}

const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST ?? '0.0.0.0'
const workers = Math.max(1, Number(process.env.CLUSTER_WORKERS ?? 2))
const firstWorkerPort = Number(process.env.CLUSTER_WORKER_PORT ?? port + 1)
const targets = Array.from({ length: workers }, (_, i) => `http://127.0.0.1:${firstWorkerPort + i}`)
const children = []
let stopping = false

function startWorker(i) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(firstWorkerPort + i), HOST: '127.0.0.1', CLUSTER_WORKER: String(i + 1) },
  })
  child.on('exit', (code, signal) => {
    if (stopping) return
    console.error(`[cluster] worker ${i + 1} exited (${signal ?? code}); stopping the cluster`)
    stop(1)
  })
  children.push(child)
}

async function healthy(target, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      const response = await fetch(`${target}/healthz`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${target} did not become healthy in ${timeoutMs} ms`)
}

function stop(code = 0) {
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  proxyServer.close()
  // Each process finishes its running requests and job runs first (SHUTDOWN_TIMEOUT_MS, 20 s by default).
  setTimeout(() => process.exit(code), Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 20_000) + 5000).unref()
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code))
}

const proxy = httpProxy.createProxyServer({ xfwd: true, ws: true })
proxy.on('error', (error, _req, res) => {
  // A worker that is down answers like any failed call, in the envelope.
  if (res instanceof http.ServerResponse && !res.headersSent) {
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify({ code: 502, msg: '服务暂不可用，请稍后重试！' }))
  } else if (typeof res?.destroy === 'function') res.destroy()
  console.error(`[cluster] proxy: ${error.message}`)
})
let next = 0
const pick = () => targets[next++ % targets.length]
const proxyServer = http.createServer((req, res) => proxy.web(req, res, { target: pick() }))
proxyServer.on('upgrade', (req, socket, head) => proxy.ws(req, socket, head, { target: pick() }))

process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

// The first process migrates and seeds alone; the others start on a database that is ready.
startWorker(0)
await healthy(targets[0])
for (let i = 1; i < workers; i++) startWorker(i)
await Promise.all(targets.slice(1).map((t) => healthy(t)))
proxyServer.listen(port, host, () => {
  console.log(`[cluster] ready: proxy http://${host === '0.0.0.0' ? 'localhost' : host}:${port} -> ${targets.join(' ')}`)
})
