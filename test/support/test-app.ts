import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'
import { checkShapedStatements } from '../../src/server/db/shaped-statements.js'
import { answerProblem } from './answer-check.js'
import { createDatabase, dropDatabase, uniqueDatabaseName } from './postgres.js'

export type DbKind = 'sqlite' | 'postgres'

/** The response envelope every `/cloud-api` route answers with. */
export interface Envelope<T = unknown> {
  code: number
  msg: string
  data: T
  [key: string]: unknown
}

export interface CallOptions {
  /** Sent as `X-Auth-Token`. */
  token?: string
  query?: Record<string, string | number | boolean | undefined | null>
  /** JSON body. */
  body?: unknown
  /** `application/x-www-form-urlencoded` body. */
  form?: Record<string, string | number | boolean | undefined | null>
  headers?: Record<string, string>
}

export interface CallResult<T = unknown> {
  status: number
  /** The parsed JSON answer; for a non-JSON answer (a file, HTML) an empty object, and `raw` holds it. */
  body: Envelope<T>
  raw: string
  rawPayload: Buffer
  headers: Record<string, string | string[] | number | undefined>
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface TestApp {
  app: FastifyInstance
  dbKind: DbKind
  /** Temporary DATA_DIR of this app (removed by `close`). */
  dataDir: string
  /** Logs in (captcha is off) and returns the token for `X-Auth-Token`; throws unless the answer is code 200. */
  login(username?: string, password?: string): Promise<string>
  /** Calls `/cloud-api<url>` through `inject`. */
  call<T = unknown>(method: HttpMethod, url: string, options?: CallOptions): Promise<CallResult<T>>
  /**
   * Stops the app and starts it again on the same database and DATA_DIR (a server restart: migrations and
   * seeds run again); `app` and `call` then reach the new one.
   */
  restart(): Promise<void>
  close(): Promise<void>
}

export interface StartTestAppOptions {
  entityDirs?: string[]
  /** Extra environment for `loadConfig`, e.g. `{ LOGIN_CAPTCHA: 'on' }`; wins over the defaults here. */
  env?: Record<string, string>
  /**
   * Whether every answer is checked against the OpenAPI document, and every statement bound from a kept plan
   * against the statement built anew (db/shaped-statements.ts; default yes). A bench that times calls turns it
   * off: the checks are the test's work, not the server's.
   */
  checkAnswers?: boolean
}

/**
 * A migrated and seeded database that test apps start from (test/api/setup/template-database.ts makes one
 * per vitest run): a copy of it replaces migrations and the seed on a fresh database, most of an API test
 * file's set-up. The app still starts on the copy as on any restart (migrations check, seed top-up).
 */
export interface DatabaseTemplate {
  dbKind: DbKind
  /** SQLite: the DATA_DIR holding the template's database files. */
  dataDir?: string
  /** PostgreSQL: the template database on the server of TEST_PG_URL. */
  database?: string
}

let template: DatabaseTemplate | undefined
/** Test apps of this process start from `t` (set by the api project's setup; benches start fresh). */
export function useDatabaseTemplate(t: DatabaseTemplate | undefined): void {
  template = t
}

const pgServer = () => process.env.TEST_PG_URL ?? process.env.TEST_DATABASE_URL

/** A fresh, empty database for one app: a SQLite file in `dataDir` or a new database on the test server. */
async function freshDatabase(dbKind: DbKind, dataDir: string, from?: DatabaseTemplate): Promise<{ url: string; pgDatabase?: string }> {
  if (dbKind === 'postgres') {
    const server = pgServer()
    if (!server) {
      throw new Error('TEST_DB=postgres needs TEST_PG_URL (a superuser URL; `npm test` starts an embedded server and sets it)')
    }
    const name = uniqueDatabaseName('erp')
    return { url: await createDatabase(server, name, from?.database), pgDatabase: name }
  }
  if (from?.dataDir) {
    for (const file of await readdir(from.dataDir)) {
      if (file.endsWith('.db')) await copyFile(path.join(from.dataDir, file), path.join(dataDir, file))
    }
  }
  return { url: `sqlite:${path.join(dataDir, 'app.db')}` }
}

/**
 * Makes the template database: the app started once on a fresh database with the test defaults and
 * closed (SQLite checkpoints its WAL into the file on close). `drop` removes it.
 */
export async function makeDatabaseTemplate(): Promise<DatabaseTemplate & { drop(): Promise<void> }> {
  const dbKind: DbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'erp-template-'))
  const { url, pgDatabase } = await freshDatabase(dbKind, dataDir)
  const app = await buildApp(testConfig(dataDir, url))
  await app.ready()
  await app.close()
  return {
    dbKind,
    dataDir: dbKind === 'sqlite' ? dataDir : undefined,
    database: pgDatabase,
    drop: async () => {
      if (pgDatabase) await dropDatabase(pgServer()!, pgDatabase)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Only what is set here: a developer's own DATABASE_URL or PORT must not leak into a test. */
function testConfig(dataDir: string, databaseUrl: string, env: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOGIN_CAPTCHA: 'off',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  })
}

/**
 * The real app on a database of its own: a fresh SQLite file in a temporary DATA_DIR, or, when
 * `TEST_DB=postgres`, a fresh database on the server at `TEST_PG_URL` (which `npm test` starts); a copy
 * of the run's template when there is one and the options do not change what the seed makes.
 */
export async function startTestApp(options: StartTestAppOptions = {}): Promise<TestApp> {
  const dbKind: DbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'erp-test-'))
  // Extra entity folders add tables, another admin password another seed: those start from nothing.
  const from = template?.dbKind === dbKind && !options.entityDirs && !options.env?.ADMIN_PASSWORD ? template : undefined
  let pgDatabase: string | undefined
  let databaseUrl: string
  try {
    ;({ url: databaseUrl, pgDatabase } = await freshDatabase(dbKind, dataDir, from))
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }

  const config = testConfig(dataDir, databaseUrl, options.env)

  const dropEverything = async () => {
    if (pgDatabase) await dropDatabase(pgServer()!, pgDatabase)
    await rm(dataDir, { recursive: true, force: true })
  }

  checkShapedStatements(options.checkAnswers !== false)
  const build = async () => {
    const built = await buildApp(config, options.entityDirs ? { entityDirs: options.entityDirs } : undefined)
    await built.ready()
    return built
  }
  let app: FastifyInstance
  try {
    app = await build()
  } catch (error) {
    await dropEverything().catch(() => {})
    throw error
  }

  const call = async <T = unknown>(method: HttpMethod, url: string, callOptions: CallOptions = {}) => {
    const headers: Record<string, string> = { ...callOptions.headers }
    if (callOptions.token) headers['x-auth-token'] = callOptions.token
    const request: InjectOptions = { method, url: `/cloud-api${url}`, headers }
    if (callOptions.query) request.query = stringValues(callOptions.query)
    if (callOptions.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      request.payload = new URLSearchParams(stringValues(callOptions.form)).toString()
    } else if (callOptions.body !== undefined) {
      headers['content-type'] = 'application/json'
      request.payload = JSON.stringify(callOptions.body)
    }
    const response = await app.inject(request)
    const raw = response.body
    // Every answer as the OpenAPI document declares it: an answer that drifts from the document fails here.
    const problem = options.checkAnswers === false ? undefined : answerProblem(app, method, url, response.statusCode, String(response.headers['content-type'] ?? ''), raw)
    if (problem) throw new Error(problem)
    let body = {} as Envelope<T>
    if (String(response.headers['content-type'] ?? '').includes('json') && raw.length > 0) {
      body = JSON.parse(raw) as Envelope<T>
    }
    return { status: response.statusCode, body, raw, rawPayload: response.rawPayload, headers: response.headers }
  }

  const login = async (username = 'admin', password = config.adminPassword) => {
    const response = await call<{ token?: string }>('POST', '/auth/login', { body: { username, password } })
    const token = response.body.data?.token
    if (response.status !== 200 || response.body.code !== 200 || typeof token !== 'string') {
      throw new Error(`login as ${username} failed: HTTP ${response.status} ${response.raw.slice(0, 500)}`)
    }
    return token
  }

  let closed = false
  let running = true
  const close = async () => {
    if (closed) return
    closed = true
    try {
      if (running) await app.close()
    } finally {
      await dropEverything()
    }
  }

  const restart = async () => {
    if (closed) throw new Error('restart after close')
    running = false
    await app.close()
    app = await build()
    running = true
  }

  return {
    get app() {
      return app
    },
    dbKind,
    dataDir,
    login,
    call,
    restart,
    close,
  }
}

function stringValues(values: Record<string, string | number | boolean | undefined | null>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) result[key] = String(value)
  }
  return result
}
