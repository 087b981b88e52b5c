import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { emptyTarget, openInstallation, type EmptyTarget } from '../support/installation.js'
import { startServerProcess, type ServerProcess } from '../support/server-process.js'
import { seedDemoCompany } from '../../src/server/demo/demo-company.js'
import { DEFAULT_ADMIN_PASSWORD } from '../../src/server/config.js'

const onPostgres = process.env.TEST_DB === 'postgres'
const root = path.resolve(import.meta.dirname, '../..')

/** The list, balance and stock calls a company checks after the move (one page of each, whole). */
const CALLS: [string, Record<string, string>][] = [
  ['/sale/out/sheet/query', { pageIndex: '1', pageSize: '200' }],
  ['/purchase/receive/sheet/query', { pageIndex: '1', pageSize: '200' }],
  ['/customer/settle/report', { pageIndex: '1', pageSize: '200' }],
  ['/settle/report/supplier', { pageIndex: '1', pageSize: '200' }],
  ['/stock/product/query', { pageIndex: '1', pageSize: '500' }],
]

/** An answer without the order of rows that tie on the list's sort (the two databases may break ties differently). */
const comparable = (data: { totalCount: number; datas: unknown[] }) => ({ totalCount: data.totalCount, datas: data.datas.map((r) => JSON.stringify(r)).sort() })

function runMove(env: Record<string, string>, to: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/move-to-postgres.ts', '--to', to], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    child.once('exit', (code) => resolve({ code, out }))
  })
}

/**
 * Issue 31's path of a growing company, end to end: the demo company on the embedded SQLite, then
 * `npm run move-to-postgres -- --to …`, then two server processes on PostgreSQL answering the same list,
 * balance and stock calls as the SQLite installation did. (Skipped on SQLite: the move's target is PostgreSQL.)
 */
describe.skipIf(!onPostgres)('moving the demo company from SQLite to PostgreSQL', () => {
  const targets: EmptyTarget[] = []
  const processes: ServerProcess[] = []
  afterAll(async () => {
    for (const p of processes) await p.stop()
    for (const target of targets) await target.drop()
  })

  it('copies every tenant, says what to set, and two processes answer as SQLite did', { timeout: 600_000 }, async () => {
    const sqlite = await emptyTarget('sqlite')
    targets.push(sqlite)
    const embedded = await openInstallation(sqlite)
    const before = new Map<string, unknown>()
    try {
      await seedDemoCompany(embedded.app)
      const admin = await embedded.login()
      for (const [url, query] of CALLS) {
        const answer = await embedded.call<{ totalCount: number; datas: unknown[] }>('GET', url, admin, query)
        expect(answer.code, url).toBe(200)
        expect(answer.data.totalCount, url).toBeGreaterThan(0)
        before.set(url, comparable(answer.data))
      }
    } finally {
      await embedded.close()
    }

    const postgres = await emptyTarget('postgres')
    targets.push(postgres)
    const env = { DATABASE_URL: sqlite.databaseUrl, DATA_DIR: sqlite.dataDir, LOG_LEVEL: 'silent' }
    const moved = await runMove(env, postgres.databaseUrl)
    expect(moved.code, moved.out).toBe(0)
    expect(moved.out).toContain('行数与库存、结算台账校验通过')
    expect(moved.out).toContain(`DATABASE_URL=${postgres.databaseUrl}`)
    expect(moved.out).toContain(`DATA_DIR=${sqlite.dataDir}`)
    // A second move into the now filled database is refused and changes nothing.
    const again = await runMove(env, postgres.databaseUrl)
    expect(again.code).toBe(1)
    expect(again.out).toMatch(/目标不是空的（schema platform、schema tenant_1000）/)

    for (let i = 0; i < 2; i++) processes.push(await startServerProcess(postgres.databaseUrl, sqlite.dataDir))
    const login = await fetch(`${processes[0].base}/cloud-api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: DEFAULT_ADMIN_PASSWORD }),
    })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    for (const server of processes) {
      for (const [url, query] of CALLS) {
        const r = await fetch(`${server.base}/cloud-api${url}?${new URLSearchParams(query)}`, { headers: { 'x-auth-token': token } })
        const body = (await r.json()) as { code: number; data: { totalCount: number; datas: unknown[] } }
        expect(body.code, `${server.base} ${url}`).toBe(200)
        expect(comparable(body.data), `${server.base} ${url}`).toEqual(before.get(url))
      }
    }
  })
})
