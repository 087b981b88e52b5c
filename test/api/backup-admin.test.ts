import fs from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import type { BackupRow } from '../../src/shared/contracts/backup.js'
import { PERMISSION } from '../../src/shared/generated/permission-keys.js'

type Page<T> = { datas: T[]; totalCount: number; running: boolean }
const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
const KEYS = PERMISSION.system.backup

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * 备份管理 (系统管理) and the scheduled 系统备份: the platform's admin lists, starts and downloads backups;
 * a user without the keys, and the admin of another tenant (who passes every key of their own tenant),
 * are refused and change nothing; the job keeps only the newest N archives.
 */
describe(`备份管理 and the scheduled backup (${kind})`, () => {
  let t: TestApp
  let admin: string
  const list = (token = admin) => t.call<Page<BackupRow>>('GET', '/system/backup/query', { token, query: { pageIndex: 1, pageSize: 50 } })
  const archives = async () => (await fs.readdir(t.app.services.config.backupDir).catch(() => [])).filter((n) => n.endsWith('.tar.gz')).sort()

  beforeAll(async () => {
    t = await startTestApp({ env: { SCHEDULER: 'off' } })
    admin = await t.login()
  }, 120_000)
  afterAll(async () => t?.close())

  it('lists, starts and downloads backups for the platform admin', { timeout: 180_000 }, async () => {
    const empty = await list()
    expect(empty.status).toBe(200)
    expect(empty.body.data).toMatchObject({ totalCount: 0, datas: [], running: false })
    const start = await t.call('POST', '/system/backup/start', { token: admin })
    expect(start.body).toMatchObject({ code: 200, msg: '操作成功！' })
    const done = await until(list, (r) => r.body.data.totalCount === 1 && !r.body.data.running, 'the backup to be written')
    const row = done.body.data.datas[0]
    expect(row).toMatchObject({ kind, tenants: 1 })
    expect(row.rows).toBeGreaterThan(100)
    expect(row.name).toMatch(new RegExp(`^backup-\\d{8}-\\d{6}-\\d{3}-${kind}\\.tar\\.gz$`))
    const file = await fs.readFile(`${t.app.services.config.backupDir}/${row.name}`)
    expect(row.size).toBe(file.length)
    const download = await t.call('GET', '/system/backup/download', { token: admin, query: { name: row.name } })
    expect(download.status).toBe(200)
    expect(download.headers['content-type']).toBe('application/gzip')
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${row.name}"`)
    expect(download.rawPayload.equals(file)).toBe(true)
    for (const name of ['../app.db', 'app.db', `${row.name}/..`, '']) {
      const refused = await t.call('GET', '/system/backup/download', { token: admin, query: { name } })
      expect(refused.body, name).toMatchObject({ code: 400, msg: '备份文件不存在' })
    }
  })

  it('refuses users without the keys and other tenants, changing nothing', { timeout: 180_000 }, async () => {
    const before = await archives()
    const clerk = await userWithMenus(t, admin, 'bkclerk', [])
    const viewer = await userWithMenus(t, admin, 'bkview', [KEYS.query])
    expect((await t.call('POST', '/system/tenant', { token: admin, body: { id: '2400', name: '备份租户', available: true } })).status).toBe(200)
    const otherAdmin = await t.login('2400@admin')
    const name = before[0]
    const calls = [
      ['GET', '/system/backup/query', { pageIndex: 1, pageSize: 10 }],
      ['POST', '/system/backup/start', undefined],
      ['GET', '/system/backup/download', { name }],
    ] as const
    for (const token of [clerk, otherAdmin]) {
      for (const [method, url, query] of calls) {
        const r = await t.call(method, url, { token, ...(query ? { query } : {}) })
        expect(r.status, `${method} ${url}`).toBe(403)
        expect(r.body.msg).toBe('无权限')
      }
    }
    expect((await list(viewer)).body.data.totalCount).toBe(before.length)
    expect((await t.call('POST', '/system/backup/start', { token: viewer })).status).toBe(403)
    expect((await t.call('GET', '/system/backup/download', { token: viewer, query: { name } })).status).toBe(403)
    expect(await archives()).toEqual(before)
  })

  it('the scheduled 系统备份 keeps the newest N backups', { timeout: 300_000 }, async () => {
    const refused = await t.call('POST', '/qrtz', { token: admin, body: { name: '系统备份', jobType: 1, cron: '0 0 3 * * ?', targetClassName: 'systemBackup', params: '0' } })
    expect(refused.body.msg).toBe('任务参数应为保留的备份份数（1到1000的整数），留空保留7份')
    const job = await t.call<string>('POST', '/qrtz', { token: admin, body: { name: '系统备份', jobType: 1, cron: '0 0 3 * * ?', targetClassName: 'systemBackup', params: '2' } })
    expect(job.body.code).toBe(200)
    const made: string[] = []
    for (let i = 0; i < 3; i++) {
      const fired = await t.call<{ status: string; message: string }>('PATCH', '/qrtz/trigger', { token: admin, body: { id: job.body.data } })
      expect(fired.body.data.message).toMatch(/^备份完成：backup-.*，租户2个，\d+行；保留最近2份，删除\d份$/)
      made.push(/backup-[^，]+\.tar\.gz/.exec(fired.body.data.message)![0])
    }
    expect(await archives()).toEqual(made.slice(1).sort())
    const shown = (await list()).body.data
    expect(shown.datas.map((r) => r.name)).toEqual(made.slice(1).reverse())
    expect(shown.datas.every((r) => r.tenants === 2)).toBe(true)
  })
})
