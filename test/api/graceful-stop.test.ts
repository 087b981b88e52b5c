import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Databases } from '../../src/server/db/databases.js'
import { parseDatabaseUrl } from '../../src/server/db/connections.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { STOPPING_MESSAGE } from '../../src/server/platform/graceful-stop.js'
import { httpClient } from '../support/http-client.js'
import { saleOutDisagreements, stockDisagreements } from '../support/ledger-invariants.js'
import { scratchDatabase, startServerProcess, type ScratchDatabase, type ServerProcess } from '../support/server-process.js'
import { createTradeFixtures } from '../support/trade-fixtures.js'

/** Approvals fired at once; SIGTERM goes when the first is acknowledged. */
const STORM = 60
/** Approvals fired after SIGTERM was sent. */
const LATE = 20

type Outcome = { id: string; status?: number; body?: { code: number; msg: string }; error?: string; after: boolean }

/**
 * Graceful stop (issue 31, Logs and health): the real server process gets SIGTERM in the middle of an
 * approval storm while a job runs every second. It stops taking requests, lets the running ones and the
 * job run finish, and exits 0; started again on the same database, every acknowledged approval is there,
 * the stock and settlement ledgers agree with the documents, no job run is left half-done, and whatever
 * was refused was a connection error or a 503 in the envelope, never a 500.
 */
describe('SIGTERM during an approval storm', () => {
  let scratch: ScratchDatabase
  let server: ServerProcess | undefined

  beforeAll(async () => {
    scratch = await scratchDatabase('stop')
  })
  afterAll(async () => {
    await server?.kill()
    await scratch?.drop()
  })

  it('finishes what it acknowledged, refuses the rest cleanly, and exits 0', { timeout: 300_000 }, async () => {
    server = await startServerProcess(scratch.databaseUrl, scratch.dataDir, { SHUTDOWN_TIMEOUT_MS: '60000', LOG_LEVEL: 'info' })
    const first = server
    const api = httpClient(first.base)
    const token = await api.login()
    const ok = async <T = string>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
      const r = await api.call<T>(method, url, { token, body })
      if (r.body.code !== 200) throw new Error(`${method} ${url}: ${r.status} ${r.raw.slice(0, 300)}\n${first.output().slice(-2000)}`)
      return r.body.data
    }
    const f = await createTradeFixtures(api, token, 'GS')
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
    await ok('GET', '/sale/config')
    await ok('POST', '/purchase/receive/sheet/approve/pass/direct', {
      scId: f.scA,
      supplierId: f.supplierId,
      products: [
        { productId: f.p1, orderNum: 5000, taxPrice: '10.00' },
        { productId: f.p2, orderNum: 5000, taxPrice: '20.00' },
      ],
    })
    const sheets: string[] = []
    for (let i = 0; i < STORM + LATE; i++) {
      sheets.push(
        await ok('POST', '/sale/out/sheet', {
          scId: f.scA,
          customerId: f.customerId,
          products: [
            { productId: f.p1, orderNum: 1 + (i % 3), taxPrice: '15.00' },
            { productId: f.p2, orderNum: 1, taxPrice: '30.00' },
          ],
        }),
      )
    }
    // A job that runs every second for ~300 ms: a run is likely in progress when the signal comes.
    await ok('POST', '/qrtz', {
      name: '停机测试任务',
      jobType: 2,
      cron: '* * * * * ?',
      script: 'const end = Date.now() + 300; let n = 0; while (Date.now() < end) n++; return "done"',
    })
    const runs = async () => {
      const databases = new Databases(parseDatabaseUrl(scratch.databaseUrl))
      try {
        return await databases.tenant(OPERATOR_TENANT_ID).selectFrom('qrtz_job_run').select(['status']).execute()
      } finally {
        await databases.close()
      }
    }
    for (const until = Date.now() + 30_000; !(await runs()).length; ) {
      if (Date.now() > until) throw new Error(`the job never ran\n${first.output().slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 100))
    }

    let signalled = false
    let signalSent!: () => void
    const sent = new Promise<void>((resolve) => (signalSent = resolve))
    const approve = async (id: string): Promise<Outcome> => {
      try {
        const r = await fetch(`${first.base}/cloud-api/sale/out/sheet/approve/pass`, {
          method: 'PATCH',
          headers: { 'x-auth-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ id }),
        })
        const text = await r.text()
        const outcome: Outcome = { id, status: r.status, body: JSON.parse(text), after: signalled }
        if (r.ok && !signalled) {
          signalled = true
          process.kill(first.pid, 'SIGTERM')
          signalSent()
        }
        return outcome
      } catch (error) {
        return { id, error: String((error as Error).cause ?? error), after: signalled }
      }
    }
    const storm = Promise.all(sheets.slice(0, STORM).map(approve))
    await sent
    const late = Promise.all(sheets.slice(STORM).map(approve))
    const outcomes = [...(await storm), ...(await late)]
    const exit = await first.exited
    const log = first.output()
    expect(exit, log.slice(-3000)).toEqual({ code: 0, signal: null })
    expect(log).toContain('SIGTERM: stopping')
    expect(log).toMatch(/stopped in \d+ ms/)

    const acknowledged = outcomes.filter((o) => o.status !== undefined && o.status >= 200 && o.status < 300)
    for (const o of outcomes) {
      if (o.error !== undefined || (o.status! >= 200 && o.status! < 300)) continue
      // Refused while stopping: the envelope's 503, nothing else (no 500, no Fastify default body).
      expect({ status: o.status, body: o.body }, JSON.stringify(o)).toEqual({ status: 503, body: { code: 503, msg: STOPPING_MESSAGE } })
    }
    for (const o of acknowledged) expect(o.body?.code, JSON.stringify(o)).toBe(200)
    // Requests running when the signal came were let finish (SIGTERM went at the first acknowledgement).
    expect(acknowledged.filter((o) => o.after).length, JSON.stringify(outcomes)).toBeGreaterThan(0)
    expect(acknowledged.length).toBeLessThanOrEqual(STORM + LATE)

    // Started again on the same database (scheduler off: a run left RUNNING would stay visible).
    server = await startServerProcess(scratch.databaseUrl, scratch.dataDir, { SCHEDULER: 'off' })
    const again = httpClient(server.base)
    const token2 = await again.login()
    for (const o of acknowledged) {
      const r = await again.call<{ status: number }>('GET', '/sale/out/sheet', { token: token2, query: { id: o.id } })
      expect(r.body.data?.status, o.id).toBe(3)
    }
    await server.stop()
    expect(await server.exited).toEqual({ code: 0, signal: null })

    const databases = new Databases(parseDatabaseUrl(scratch.databaseUrl))
    try {
      const db = databases.tenant(OPERATOR_TENANT_ID)
      expect(await stockDisagreements(db)).toEqual([])
      expect(await saleOutDisagreements(db, sheets)).toEqual([])
      const approved = await db.selectFrom('tbl_sale_out_sheet').select('id').where('id', 'in', sheets).where('status', '=', 3).execute()
      expect(approved.length).toBeGreaterThanOrEqual(acknowledged.length)
      const history = await runs()
      expect(history.length).toBeGreaterThan(0)
      expect(history.filter((r) => r.status !== 'SUCCESS')).toEqual([])
    } finally {
      await databases.close()
    }
  })
})
