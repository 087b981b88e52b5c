import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDatabase, startServerProcess, type ScratchDatabase, type ServerProcess } from '../support/server-process.js'

const onPostgres = process.env.TEST_DB === 'postgres'

/** Waits until the output holds `text` (a line is logged just after the server starts answering). */
async function outputHolds(server: ServerProcess, text: string): Promise<string> {
  for (const until = Date.now() + 30_000; ; ) {
    const output = server.output()
    if (output.includes(text)) return output
    if (Date.now() > until) throw new Error(`"${text}" not printed:\n${output.slice(-3000)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const lines = (output: string) => output.split('\n').filter((l) => l.trim())

/**
 * What `npm start` prints (issue 31, Logs and health): short readable lines through pino-pretty by
 * default (a first start with the demo company used to print 644 JSON lines, two per seeding request),
 * one line per request slower than LOG_SLOW_MS, and JSON lines with LOG_FORMAT=json for a log shipper.
 */
describe('server log lines', () => {
  let scratch: ScratchDatabase
  let server: ServerProcess | undefined

  beforeAll(async () => {
    scratch = await scratchDatabase('logs')
  })
  afterAll(async () => {
    await server?.kill()
    await scratch?.drop()
  })

  it('prints a first start with the demo company as a few readable lines: the URL and the login', { timeout: 240_000 }, async () => {
    server = await startServerProcess(scratch.databaseUrl, scratch.dataDir, { LOG_LEVEL: 'info', DEMO_DATA: 'on' })
    const output = await outputHolds(server, 'sign in as')
    const printed = lines(output)
    expect(printed.length, output).toBeLessThan(20)
    for (const line of printed) expect(line, output).toMatch(/^\[\d\d:\d\d:\d\d(\.\d+)?\] (INFO|WARN|ERROR): /)
    const port = new URL(server.base).port
    expect(output).toContain(`is running on http://localhost:${port} (database: ${onPostgres ? 'postgres' : 'sqlite'})`)
    expect(output).toContain('sign in as admin / admin123456')
    expect(output).toMatch(/demo company seeded in [\d.]+ s: 55 products/)
    await server.stop()
  })

  it('prints one line for a request slower than LOG_SLOW_MS, none for the others', { timeout: 120_000 }, async () => {
    server = await startServerProcess(scratch.databaseUrl, scratch.dataDir, { LOG_LEVEL: 'info', LOG_SLOW_MS: '0' })
    await outputHolds(server, 'sign in as')
    const before = lines(server.output()).length
    expect((await fetch(`${server.base}/cloud-api/auth/init`)).status).toBe(200)
    const output = await outputHolds(server, 'slow request: GET /cloud-api/auth/init 200 in ')
    // one line per request (the health probes of startServerProcess may still be arriving), one for the call;
    // other lines (the scheduler taking the lead on PostgreSQL) may land in between, whenever they happen to
    const added = lines(output).slice(before).filter((l) => l.includes('request'))
    for (const line of added) expect(line).toMatch(/^\[[\d:.]+\] WARN: slow request: GET \/\S+ 200 in \d+ ms$/)
    expect(added.filter((l) => l.includes('/cloud-api/auth/init'))).toHaveLength(1)
    await server.stop()

    // a threshold no request on a busy machine reaches: the default 500 ms is reached by a cold first call under load
    server = await startServerProcess(scratch.databaseUrl, scratch.dataDir, { LOG_LEVEL: 'info', LOG_SLOW_MS: '600000' })
    await outputHolds(server, 'sign in as')
    const quiet = lines(server.output()).length
    expect((await fetch(`${server.base}/cloud-api/auth/init`)).status).toBe(200)
    await server.stop()
    expect(lines(server.output()).slice(quiet).filter((l) => l.includes('slow request'))).toEqual([])
  })

  it('prints JSON lines, one per request event, with LOG_FORMAT=json', { timeout: 120_000 }, async () => {
    server = await startServerProcess(scratch.databaseUrl, scratch.dataDir, { LOG_LEVEL: 'info', LOG_FORMAT: 'json', LOG_SLOW_MS: '0' })
    await outputHolds(server, 'sign in as')
    expect((await fetch(`${server.base}/cloud-api/auth/init`)).status).toBe(200)
    await outputHolds(server, '"msg":"slow request"')
    await server.stop()
    const records = lines(server.output()).map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url: string }; url?: string; responseTime?: number })
    expect(records.some((r) => r.msg === 'incoming request' && r.req?.url === '/cloud-api/auth/init')).toBe(true)
    expect(records.some((r) => r.msg === 'request completed')).toBe(true)
    expect(records.find((r) => r.msg === 'slow request' && r.url === '/cloud-api/auth/init')).toMatchObject({ level: 40, responseTime: expect.any(Number) })
    expect(records.some((r) => r.msg.startsWith('SIGTERM: stopping'))).toBe(true)
  })
})
