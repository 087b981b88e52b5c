import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'
import { createDatabase, dropDatabase, uniqueDatabaseName } from './postgres.js'
import { loadPostgresDump } from './postgres-dump.js'

export const UPGRADE_FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/upgrade')

/** A private copy of the upgrade fixture (test/fixtures/upgrade) that an app can be started on. */
export interface FixtureCopy {
  kind: 'sqlite' | 'postgres'
  /** DATA_DIR of the app (SQLite: holds the database files). */
  dataDir: string
  databaseUrl: string
  /** What `snapshotDatabase` reads: the SQLite folder or the PostgreSQL URL. */
  location: string
  /** The current app on this copy, started (migrations and seeds run) and ready; the caller closes it. */
  start(): Promise<FastifyInstance>
  drop(): Promise<void>
}

/** SQLite: the files unpacked into a temporary folder; PostgreSQL: the dump loaded into a new database on TEST_PG_URL. */
export async function copyUpgradeFixture(kind: 'sqlite' | 'postgres'): Promise<FixtureCopy> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'erp-upgrade-'))
  let databaseUrl: string
  let pgDatabase: string | undefined
  const server = process.env.TEST_PG_URL ?? process.env.TEST_DATABASE_URL
  if (kind === 'sqlite') {
    const packed = path.join(UPGRADE_FIXTURE_DIR, 'sqlite')
    for (const file of (await readdir(packed)).filter((f) => f.endsWith('.db.gz')))
      await writeFile(path.join(dataDir, file.slice(0, -'.gz'.length)), gunzipSync(await readFile(path.join(packed, file))))
    databaseUrl = `sqlite:${path.join(dataDir, 'app.db')}`
  } else {
    if (!server) throw new Error('TEST_DB=postgres needs TEST_PG_URL')
    pgDatabase = uniqueDatabaseName('upgrade')
    databaseUrl = await createDatabase(server, pgDatabase)
    await loadPostgresDump(databaseUrl, await readFile(path.join(UPGRADE_FIXTURE_DIR, 'postgres.sql'), 'utf8'))
  }
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOGIN_CAPTCHA: 'off', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' })
  return {
    kind,
    dataDir,
    databaseUrl,
    location: kind === 'sqlite' ? dataDir : databaseUrl,
    start: async () => {
      const app = await buildApp(config)
      try {
        await app.ready()
      } catch (error) {
        await app.close().catch(() => {})
        throw error
      }
      return app
    },
    drop: async () => {
      if (pgDatabase) await dropDatabase(server!, pgDatabase)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
