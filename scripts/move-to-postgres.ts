// npm run move-to-postgres -- --to postgres://… [--force]: copies every tenant of this SQLite installation
// (DATABASE_URL / DATA_DIR) into an empty PostgreSQL database, checks row counts and both ledgers, and
// says what to set so the app (npm start, npm run cluster) serves it from there.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/server/config.js'
import { parseDatabaseUrl } from '../src/server/db/connections.js'
import { Databases } from '../src/server/db/databases.js'
import { EntityRegistry } from '../src/server/engine/entity-registry.js'
import { BackupError } from '../src/server/backup/backup-error.js'
import { ledgerBreaches } from '../src/server/domain/documents/ledger-invariants.js'
import { makeBackup, type BackupSource } from '../src/server/backup/make-backup.js'
import { restoreBackup, type RestoreResult } from '../src/server/backup/restore-backup.js'
import { runCommand } from './command-line.js'

interface MovedInstallation extends RestoreResult {
  /** The archive the move went through, kept in the backup folder as the last backup on SQLite. */
  archive: string
}

/**
 * The embedded installation moved to PostgreSQL: a backup of the SQLite installation (kept), restored
 * into the PostgreSQL database (a schema per tenant, as the app lays it out; the uploaded files stay in
 * DATA_DIR, which the PostgreSQL installation keeps using), then checked: every table's row count (by the
 * restore) and, for every tenant, both ledgers' invariants.
 */
async function moveToPostgres(source: BackupSource, backupDir: string, to: string, options: { force?: boolean; entityDirs?: string[] } = {}): Promise<MovedInstallation> {
  if (parseDatabaseUrl(source.databaseUrl).kind !== 'sqlite') throw new BackupError('当前安装已在使用 PostgreSQL（DATABASE_URL），无需迁移')
  const target = parseDatabaseUrl(to)
  if (target.kind !== 'postgres') throw new BackupError('--to 应为 PostgreSQL 连接串（postgres://…）')
  const { file } = await makeBackup(source, backupDir)
  const result = await restoreBackup(file, { databaseUrl: to, dataDir: source.dataDir, entityDirs: options.entityDirs }, { force: options.force, files: false })
  const registry = new EntityRegistry(options.entityDirs ?? [])
  const databases = new Databases(target)
  try {
    const breaches: string[] = []
    for (const tenant of result.manifest.tenants)
      for (const breach of await ledgerBreaches(databases.tenant(tenant.id), registry)) breaches.push(`租户 ${tenant.id}：${breach}`)
    if (breaches.length) throw new BackupError(`迁移后的账目校验未通过：\n${breaches.join('\n')}`)
  } finally {
    await databases.close()
  }
  return { ...result, archive: file }
}

await runCommand(async () => {
  const { values } = parseArgs({ options: { to: { type: 'string' }, force: { type: 'boolean' } } })
  if (!values.to) throw new Error('用法：npm run move-to-postgres -- --to postgres://用户:密码@主机:端口/数据库 [--force]')
  const config = loadConfig()
  const entityDirs = process.env.ENTITY_DIRS?.split(path.delimiter).filter(Boolean) ?? []
  const moved = await moveToPostgres({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, config.backupDir, values.to, { force: values.force, entityDirs })
  console.log(`迁移完成：租户 ${moved.manifest.tenants.length} 个，${moved.tables} 张表 ${moved.rows} 行，行数与库存、结算台账校验通过。`)
  console.log(`迁移前的备份：${moved.archive}`)
  console.log('\n今后启动前设置（上传的文件仍在 DATA_DIR 中）：\n')
  console.log(`  DATABASE_URL=${values.to}`)
  console.log(`  DATA_DIR=${config.dataDir}\n`)
  console.log('然后 npm start，或 npm run cluster 以多个进程服务。')
})
