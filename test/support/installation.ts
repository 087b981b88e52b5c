import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'
import { createDatabase, dropDatabase, uniqueDatabaseName } from './postgres.js'

const pgServer = () => process.env.TEST_PG_URL ?? process.env.TEST_DATABASE_URL

/** An empty place to restore into: a fresh DATA_DIR, and a fresh PostgreSQL database when the kind asks for one. */
export interface EmptyTarget {
  databaseUrl: string
  dataDir: string
  drop(): Promise<void>
}

export const postgresAvailable = () => Boolean(pgServer())

export async function emptyTarget(kind: 'sqlite' | 'postgres'): Promise<EmptyTarget> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'erp-target-'))
  if (kind === 'sqlite') return { databaseUrl: `sqlite:${path.join(dataDir, 'app.db')}`, dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) }
  const name = uniqueDatabaseName('restore')
  const databaseUrl = await createDatabase(pgServer()!, name)
  return {
    databaseUrl,
    dataDir,
    drop: async () => {
      await dropDatabase(pgServer()!, name)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** The app opened on an existing installation (a restored copy): migrations and seed top-up run as on any start. */
export async function openInstallation(target: { databaseUrl: string; dataDir: string }): Promise<{
  app: FastifyInstance
  call<T>(method: 'GET' | 'POST', url: string, token?: string, query?: Record<string, string>): Promise<{ status: number; code: number; msg: string; data: T }>
  login(username?: string): Promise<string>
  close(): Promise<void>
}> {
  const config = loadConfig({ DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl, LOGIN_CAPTCHA: 'off', LOG_LEVEL: 'silent', SCHEDULER: 'off' })
  const app = await buildApp(config)
  await app.ready()
  const call = async <T>(method: 'GET' | 'POST', url: string, token?: string, query?: Record<string, string>) => {
    const r = await app.inject({ method, url: `/cloud-api${url}`, query, headers: token ? { 'x-auth-token': token } : {} })
    const body = r.json() as { code: number; msg: string; data: T }
    return { status: r.statusCode, ...body }
  }
  return {
    app,
    call,
    login: async (username = 'admin') => {
      const r = await app.inject({ method: 'POST', url: '/cloud-api/auth/login', payload: { username, password: config.adminPassword } })
      const token = (r.json() as { data?: { token?: string } }).data?.token
      if (!token) throw new Error(`login failed: ${r.body}`)
      return token
    },
    close: () => app.close(),
  }
}
