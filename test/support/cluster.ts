import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createDatabase, dropDatabase, uniqueDatabaseName } from './postgres.js'
import { serverEnv } from './server-process.js'

/** `npm run cluster` started for a test on a fresh PostgreSQL database. */
export interface TestCluster {
  /** The round-robin proxy. */
  proxy: string
  /** Each server process, for calls that must reach one of them. */
  workers: string[]
  /** The cluster's database, for a test that must arrange rows the API cannot (e.g. age them). */
  databaseUrl: string
  /** Output of the cluster and its processes so far (printed when a test fails). */
  output(): string
  stop(): Promise<void>
}

const root = path.resolve(import.meta.dirname, '../..')

/**
 * Runs scripts/cluster.mjs exactly as a user would (node, the real server processes, the proxy) against
 * a new database on TEST_PG_URL, captcha off. Resolves once the proxy says it is ready.
 */
export async function startCluster(workers = 2, env: Record<string, string> = {}): Promise<TestCluster> {
  const server = process.env.TEST_PG_URL ?? process.env.TEST_DATABASE_URL
  if (!server) throw new Error('the cluster test needs TEST_PG_URL (a PostgreSQL superuser URL)')
  const name = uniqueDatabaseName('cluster')
  const databaseUrl = await createDatabase(server, name)
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'erp-cluster-'))
  const port = await freeRange(workers + 1)
  let log = ''
  const child: ChildProcess = spawn(process.execPath, ['scripts/cluster.mjs'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnv(databaseUrl, dataDir, port, { CLUSTER_WORKERS: String(workers), ...env }),
  })
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cluster not ready in 120 s\n${log.slice(-4000)}`)), 120_000)
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes('[cluster] ready')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`cluster exited with ${code}\n${log.slice(-4000)}`))
    })
  })
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    }
    await dropDatabase(server, name).catch(() => {})
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    await ready
  } catch (error) {
    await stop()
    throw error
  }
  return {
    proxy: `http://127.0.0.1:${port}`,
    workers: Array.from({ length: workers }, (_, i) => `http://127.0.0.1:${port + 1 + i}`),
    databaseUrl,
    output: () => log,
    stop,
  }
}

/** A first port of `n` consecutive free ones. */
async function freeRange(n: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const start = 20000 + Math.floor(Math.random() * 40000)
    const free = await Promise.all(Array.from({ length: n }, (_, i) => isFree(start + i)))
    if (free.every(Boolean)) return start
  }
  throw new Error('no free port range')
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}
