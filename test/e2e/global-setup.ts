import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'

/** Shared with global-teardown.ts, which Playwright runs in this same process. */
export interface E2eServer {
  child: ChildProcess
  dataDir: string
  logFile: string
}

export const SERVER_KEY = Symbol.for('erp.e2e.server')
type ServerHolder = { [SERVER_KEY]?: E2eServer }

const READY_TIMEOUT_MS = 120_000

/**
 * Starts the real server the way a user does (`node dist-server/main.mjs`, as `npm start`), serving the built
 * client from dist/, on a free loopback port with an empty DATA_DIR, and waits for /healthz. Tests get
 * the address as `baseURL` (E2E_BASE_URL).
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const root = config.configFile ? path.dirname(config.configFile) : process.cwd()
  const localeDirs = E2E_LOCALE_DIRS.map((dir) => path.join(root, dir)).join(path.delimiter)
  ensureClientLanguages(root, localeDirs)
  const port = await freePort()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'erp-e2e-'))
  const logDir = path.join(root, 'test-results')
  mkdirSync(logDir, { recursive: true })
  const logFile = path.join(logDir, 'e2e-server.log')
  const log = createWriteStream(logFile)

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOGIN_CAPTCHA: 'off',
    DEMO_DATA: 'off',
    WEB_ROOT: path.join(root, 'dist'),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
    // Entities described only by a JSON file (test/fixtures/entities/shelf-zone.json), on top of schemas/entities.
    ENTITY_DIRS: path.join(root, 'test', 'fixtures', 'entities'),
    // The fixture language, which the client build must carry too (ensureClientLanguages).
    LOCALE_DIRS: localeDirs,
  }
  // The SQLite file in DATA_DIR, unless a PostgreSQL run is asked for explicitly.
  delete env.DATABASE_URL
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL

  // The compiled server, as `npm start` runs it, built from the current sources first (half a second).
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'ignore' })
  const child = spawn(process.execPath, ['dist-server/main.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  ;(globalThis as ServerHolder)[SERVER_KEY] = { child, dataDir, logFile }
  // If Playwright dies without running the teardown, the server must not outlive it.
  process.once('exit', () => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })

  const baseURL = `http://127.0.0.1:${port}`
  try {
    await waitForHealth(baseURL, child)
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL')
    await new Promise((resolve) => setTimeout(resolve, 200))
    delete (globalThis as ServerHolder)[SERVER_KEY]
    await rm(dataDir, { recursive: true, force: true })
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n') : ''
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- ${logFile} (tail) ---\n${tail}`)
  }
  process.env.E2E_BASE_URL = baseURL
  process.env.E2E_DATA_DIR = dataDir
  // One administrator session for the whole run: signed in through the API (captcha off), saved as the
  // browser storage state the shell reads (src/client/app/session.ts), and its token for test data.
  const stateFile = path.join(logDir, 'e2e-admin-state.json')
  const token = await adminLogin(baseURL, stateFile)
  process.env.E2E_ADMIN_TOKEN = token
  process.env.E2E_STORAGE_STATE = stateFile
  console.log(`[e2e] server ready at ${baseURL} (log: ${path.relative(root, logFile)})`)
}

/**
 * The languages the e2e run adds from fixtures (`locale.json` + `catalogue.json` each): the server reads
 * them at start, the browser's table is compiled, so the client must be built with them (LOCALE_DIRS,
 * vite.config.ts). `npm test` and `npm run test:e2e` build so; a dist/ without them (`npm run build`) is
 * built again here once, in about half a minute.
 */
export const E2E_LOCALE_DIRS = ['test/fixtures/locale-fr-FR']

function ensureClientLanguages(root: string, localeDirs: string): void {
  const manifest = path.join(root, 'dist', '.vite', 'manifest.json')
  const chunks = existsSync(manifest) ? Object.keys(JSON.parse(readFileSync(manifest, 'utf8')) as object) : []
  const client = path.join(root, 'src', 'client')
  const carried = E2E_LOCALE_DIRS.every((dir) => chunks.includes(path.relative(client, path.join(root, dir, 'catalogue.json'))))
  if (carried) return
  console.log('[e2e] dist/ lacks the fixture languages: building the client with LOCALE_DIRS')
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, LOCALE_DIRS: localeDirs },
    stdio: 'inherit',
  })
}

/** The administrator of the first seed (README); tests of the login page itself sign in on their own. */
export const ADMIN = { username: 'admin', password: 'admin123456' }

async function adminLogin(baseURL: string, stateFile: string): Promise<string> {
  const response = await fetch(`${baseURL}/cloud-api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  const body = (await response.json()) as { code?: number; msg?: string; data?: { token: string; user: unknown; roles: string[]; permissions: string[] } }
  if (body.code !== 200 || !body.data?.token) throw new Error(`admin login through the API failed: HTTP ${response.status} ${body.msg ?? ''}`)
  const { token, user, roles, permissions } = body.data
  // The keys of STORAGE in src/client/api/http.ts, as saveSession writes them after a login.
  const state = {
    cookies: [],
    origins: [
      {
        origin: baseURL,
        localStorage: [
          { name: 'X-Auth-Token', value: token },
          { name: 'admin.user', value: JSON.stringify({ user, permissions }) },
          { name: 'admin.roles', value: JSON.stringify(roles) },
        ],
      },
    ],
  }
  writeFileSync(stateFile, JSON.stringify(state, null, 2))
  return token
}

async function waitForHealth(baseURL: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (code ${child.exitCode}, signal ${child.signalCode}) before /healthz answered`)
    }
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2_000) })
      const text = await response.text()
      if (response.status === 200 && (JSON.parse(text) as { status?: unknown }).status === 'ok') return
      last = `HTTP ${response.status} ${text.slice(0, 200)}`
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`server not healthy after ${READY_TIMEOUT_MS} ms: ${last}`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))))
    })
  })
}
