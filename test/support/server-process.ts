import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createDatabase, dropDatabase, uniqueDatabaseName } from './postgres.js'

/** One real server process (src/server/main.ts) that a test may kill as a crash would. */
export interface ServerProcess {
  base: string
  pid: number
  /** Output so far (printed when a test fails). */
  output(): string
  /** SIGKILL: no shutdown hook runs, as when the machine or the process dies. */
  kill(): Promise<void>
  /** SIGTERM and wait (no-op once exited). */
  stop(): Promise<void>
  /** How the process ended, once it has (its exit code, or the signal that killed it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const root = path.resolve(import.meta.dirname, '../..')

/** The environment of a server process a test starts: its database, folder and port, no captcha, no demo data. */
export function serverEnv(databaseUrl: string, dataDir: string, port: number, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    WEB_ROOT: '',
    LOGIN_CAPTCHA: 'off',
    DEMO_DATA: 'off',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  }
}

/**
 * Starts the server as `npm start` runs it (node, tsx, main.ts) on `databaseUrl` (a database another
 * app of the test already migrated), captcha and demo data off; resolves once /healthz answers.
 */
export async function startServerProcess(databaseUrl: string, dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort()
  let log = ''
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnv(databaseUrl, dataDir, port, env),
  })
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const base = `http://127.0.0.1:${port}`
  const until = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server process exited with ${child.exitCode}\n${log.slice(-4000)}`)
    try {
      if ((await fetch(`${base}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL')
      throw new Error(`server process not healthy in 120 s\n${log.slice(-4000)}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill(name)
    await exited
  }
  return { base, pid: child.pid!, output: () => log, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM'), exited }
}

/** An empty database and DATA_DIR for server processes of one test (TEST_DB decides the kind); `drop` removes both. */
export interface ScratchDatabase {
  databaseUrl: string
  dataDir: string
  drop(): Promise<void>
}

/** A fresh SQLite file in a temporary folder, or (TEST_DB=postgres) a new database on TEST_PG_URL. */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `erp-${prefix}-`))
  if (process.env.TEST_DB !== 'postgres') {
    return { databaseUrl: `sqlite:${path.join(dataDir, 'app.db')}`, dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) }
  }
  const server = process.env.TEST_PG_URL ?? process.env.TEST_DATABASE_URL
  if (!server) throw new Error('TEST_DB=postgres needs TEST_PG_URL (a PostgreSQL superuser URL)')
  const name = uniqueDatabaseName(prefix)
  return {
    databaseUrl: await createDatabase(server, name),
    dataDir,
    drop: async () => {
      await dropDatabase(server, name).catch(() => {})
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
