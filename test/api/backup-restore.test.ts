import fs from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import * as tar from 'tar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, today } from '../support/settle-helpers.js'
import { emptyTarget, openInstallation, postgresAvailable, type EmptyTarget } from '../support/installation.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import { makeBackup, type MadeBackup } from '../../src/server/backup/make-backup.js'
import { restoreBackup } from '../../src/server/backup/restore-backup.js'
import { ledgerBreaches } from '../../src/server/domain/documents/ledger-invariants.js'
import { sha256Of } from '../../src/server/backup/ndjson-file.js'
import type { BackupManifest } from '../../src/server/backup/archive-manifest.js'
import { Databases } from '../../src/server/db/databases.js'
import { parseDatabaseUrl } from '../../src/server/db/connections.js'

const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
/** Restored into the same database, and into the other one when this machine has both. */
const targetKinds = kind === 'postgres' ? (['postgres', 'sqlite'] as const) : postgresAvailable() ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)

async function until(condition: () => boolean, what: string, ms = 120_000) {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** What the target holds: its tables' row counts, or that it holds nothing. */
async function targetContents(target: { databaseUrl: string; dataDir: string }): Promise<string[]> {
  const into = parseDatabaseUrl(target.databaseUrl)
  const files = (await fs.readdir(target.dataDir, { recursive: true })).sort()
  if (into.kind === 'sqlite') return files
  const databases = new Databases(into)
  try {
    const schemas = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = 'platform' or nspname like 'tenant\\_%' order by 1`.execute(databases.platform)
    return [...files, ...schemas.rows.map((r) => r.name)]
  } finally {
    await databases.close()
  }
}

/** A copy of an archive with `edit` applied to its extracted files; the manifest's checksums are not recomputed unless `rehash`. */
async function editedArchive(archive: string, name: string, edit: (dir: string, manifest: BackupManifest) => Promise<void>, rehash: boolean): Promise<string> {
  const dir = `${archive}.${name}`
  await fs.mkdir(dir, { recursive: true })
  await tar.x({ file: archive, cwd: dir })
  const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest
  await edit(dir, manifest)
  if (rehash) for (const file of Object.keys(manifest.files)) manifest.files[file] = await sha256Of(path.join(dir, file))
  await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest))
  const out = `${path.dirname(archive)}/${name}.tar.gz`
  await tar.c({ gzip: true, file: out, cwd: dir }, await fs.readdir(dir))
  return out
}

/**
 * The drill of issue 31: approvals and settle payments storm the real app while a backup is taken; the
 * archive restores into an empty target of either database, the restored copy opens in the app, passes
 * both ledgers' invariants and holds every write acknowledged before the backup began.
 */
describe(`backup and restore (${kind})`, () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  let made: MadeBackup
  const h = settleHelpers(() => t, () => token)
  const uploaded = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256))
  const uploadPath = path.join('uploads', OPERATOR_TENANT_ID, 'drill', 'scan.bin')
  /** Every write the storm had answered, with when its answer arrived. */
  const acknowledged: { url: string; id: string; at: number }[] = []
  const restored: EmptyTarget[] = []
  /** The writes answered before the backup was called: its start time comes after every one of them. */
  let answeredBefore: { url: string; id: string; at: number }[] = []

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token, 'BK')
    await h.items('BK')
    await h.ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
    await fs.mkdir(path.dirname(path.join(t.dataDir, uploadPath)), { recursive: true })
    await fs.writeFile(path.join(t.dataDir, uploadPath), uploaded)
  }, 180_000)

  afterAll(async () => {
    for (const target of restored) await target.drop()
    await t?.close()
  })

  const ack = async (url: string, write: Promise<string>) => {
    const id = await write
    acknowledged.push({ url, id, at: Date.now() })
    return id
  }
  /** Goods in, their check sheet, a part payment of it, goods out: stock and both ledgers move. */
  const round = async () => {
    const supplierId = f.supplierId
    const receive = await ack('/purchase/receive/sheet', h.ok('POST', '/purchase/receive/sheet/approve/pass/direct', { scId: f.scA, supplierId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }] }))
    const check = await ack('/settle/checksheet', h.ok('POST', '/settle/checksheet/approve/pass/direct', { supplierId, startDate: today(), endDate: today(), products: [{ bizId: receive, payAmount: '20.00' }] }))
    await ack('/settle/sheet', h.ok('POST', '/settle/sheet/approve/pass/direct', { supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '12.35' }] }))
    await ack('/sale/out/sheet', h.ok('POST', '/sale/out/sheet/approve/pass/direct', { scId: f.scA, customerId: f.customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }] }))
  }

  it('takes a backup while approvals and payments run, holding every write acknowledged before it began', { timeout: 300_000 }, async () => {
    let stop = false
    const failures: unknown[] = []
    const worker = async () => {
      while (!stop) await round().catch((e: unknown) => void failures.push(e))
    }
    const workers = [worker(), worker(), worker()]
    await until(() => acknowledged.length >= 12 || failures.length > 0, 'the storm to start')
    answeredBefore = [...acknowledged]
    made = await makeBackup({ databaseUrl: t.app.services.config.databaseUrl, dataDir: t.dataDir }, path.join(t.dataDir, 'backups'))
    const count = acknowledged.length
    await until(() => acknowledged.length >= count + 8 || failures.length > 0, 'the storm to go on after the backup')
    stop = true
    await Promise.all(workers)
    expect(failures).toEqual([])
    // The storm ran across the backup: writes answered before it began and after it ended.
    expect(answeredBefore.length).toBeGreaterThanOrEqual(12)
    expect(answeredBefore.every((a) => a.at <= Date.parse(made.manifest.startedAt))).toBe(true)
    expect(acknowledged.some((a) => a.at > Date.parse(made.manifest.createdAt))).toBe(true)
    expect(await ledgerBreaches(h.db(), t.app.services.registry)).toEqual([])
    expect(made.manifest.kind).toBe(kind)
    expect(made.manifest.tenants.map((x) => x.id)).toContain(OPERATOR_TENANT_ID)
    expect(made.manifest.files[uploadPath.split(path.sep).join('/').replace(/^/, 'files/')]).toBeDefined()
  })

  for (const targetKind of targetKinds) {
    it(`restores into an empty ${targetKind} database: the copy opens, its ledgers balance, every acknowledged write is there`, { timeout: 300_000 }, async () => {
      const target = await emptyTarget(targetKind)
      restored.push(target)
      const result = await restoreBackup(made.file, target)
      expect(result.rows).toBe(made.summary.rows)
      const copy = await openInstallation(target)
      try {
        const admin = await copy.login()
        for (const write of answeredBefore) {
          const got = await copy.call<{ id: string }>('GET', write.url, admin, { id: write.id })
          expect(got.code, `${write.url} ${write.id}`).toBe(200)
          expect(got.data.id).toBe(write.id)
        }
        const tenant = copy.app.services.databases.tenant(OPERATOR_TENANT_ID)
        expect(await ledgerBreaches(tenant, copy.app.services.registry)).toEqual([])
        // Exact money and quantities: the restored stock row reads as the source's.
        const stock = async (db: typeof tenant) => (await db.selectFrom('tbl_product_stock').select(['product_id', 'sc_id', 'stock_num', 'tax_amount']).orderBy('product_id').orderBy('sc_id').execute()).map((r) => [String(r.product_id), String(r.sc_id), Number(r.stock_num), String(r.tax_amount)])
        const restoredReceives = await copy.call<{ totalCount: number }>('GET', '/purchase/receive/sheet/query', admin, { pageIndex: '1', pageSize: '1' })
        const table = made.manifest.parts.find((p) => p.part === `tenant:${OPERATOR_TENANT_ID}`)!.tables.find((x) => x.table === 'tbl_receive_sheet')
        expect(restoredReceives.data.totalCount).toBe(table?.rows)
        expect((await stock(tenant)).length).toBeGreaterThan(0)
        expect(await fs.readFile(path.join(target.dataDir, uploadPath))).toEqual(uploaded)
        // Writes go on in the copy (PostgreSQL's sequences and the row counters follow the loaded rows).
        const more = await copy.app.inject({ method: 'POST', url: '/cloud-api/purchase/receive/sheet/approve/pass/direct', headers: { 'x-auth-token': admin }, payload: { scId: f.scA, supplierId: f.supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }] } })
        expect(more.json().msg).toBe('操作成功！')
        expect((await copy.call<{ totalCount: number }>('GET', '/purchase/receive/sheet/query', admin, { pageIndex: '1', pageSize: '1' })).data.totalCount).toBe((table?.rows ?? 0) + 1)
      } finally {
        await copy.close()
      }
    })
  }

  it('refuses a target that is not empty, changing nothing, and replaces it when forced', { timeout: 300_000 }, async () => {
    const target = restored[0]
    const before = await targetContents(target)
    await expect(restoreBackup(made.file, target)).rejects.toThrow(/^目标不是空的/)
    expect(await targetContents(target)).toEqual(before)
    const forced = await restoreBackup(made.file, target, { force: true })
    expect(forced.rows).toBe(made.summary.rows)
  })

  it('refuses a corrupted archive before writing anything', { timeout: 120_000 }, async () => {
    const target = await emptyTarget(kind)
    restored.push(target)
    const empty = await targetContents(target)
    const tampered = await editedArchive(
      made.file,
      'tampered',
      async (dir, manifest) => {
        const table = manifest.parts.flatMap((p) => p.tables).find((x) => x.table === 'settle_ledger')!
        const file = path.join(dir, table.file)
        await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/12\.35/, '99.35'))
      },
      false,
    )
    await expect(restoreBackup(tampered, target)).rejects.toThrow(/^备份文件校验失败：data\/tenant-1000\/settle_ledger\.ndjson 的校验和不符/)
    expect(await targetContents(target)).toEqual(empty)
    const bytes = await fs.readFile(made.file)
    const truncated = `${made.file}.truncated.tar.gz`
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)))
    await expect(restoreBackup(truncated, target)).rejects.toThrow(/^备份文件已损坏/)
    expect(await targetContents(target)).toEqual(empty)
  })

  it('restores an archive of an older schema version and migrates it forward', { timeout: 300_000 }, async () => {
    const target = await emptyTarget(kind)
    restored.push(target)
    // An earlier release: before the tenant's last migration, and before stores had a description. (Only the
    // tenant's: the platform's last migration may create a table, and an archive of before it would not hold one.)
    const older = await editedArchive(
      made.file,
      'older',
      async (dir, manifest) => {
        const part = manifest.parts.find((p) => p.part === `tenant:${OPERATOR_TENANT_ID}`)!
        part.migrations.kysely_migration = part.migrations.kysely_migration.slice(0, -1)
        const table = part.tables.find((x) => x.table === 'base_data_store_center')!
        const at = table.columns.indexOf('description')
        expect(at).toBeGreaterThan(-1)
        const file = path.join(dir, table.file)
        const lines = (await fs.readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown[])
        await fs.writeFile(file, lines.map((l) => JSON.stringify(l.filter((_, i) => i !== at))).join('\n') + '\n')
        table.columns.splice(at, 1)
      },
      true,
    )
    await restoreBackup(older, target)
    const copy = await openInstallation(target)
    try {
      const tenant = copy.app.services.databases.tenant(OPERATOR_TENANT_ID)
      const names = (await tenant.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name)
      expect(names).toEqual(made.manifest.parts.find((p) => p.part === `tenant:${OPERATOR_TENANT_ID}`)!.migrations.kysely_migration)
      const admin = await copy.login()
      const store = await copy.call<{ id: string; description: string | null }>('GET', '/basedata/storecenter', admin, { id: f.scA })
      expect(store.data.id).toBe(f.scA)
      expect(store.data.description ?? null).toBeNull()
      expect(await ledgerBreaches(tenant, copy.app.services.registry)).toEqual([])
    } finally {
      await copy.close()
    }
  })
})
