import { parseDatabaseUrl } from '../db/connections.js'
import { Databases } from '../db/databases.js'
import { EntityRegistry } from '../engine/entity-registry.js'
import { BackupError } from './backup-error.js'
import { ledgerBreaches } from './ledger-invariants.js'
import { makeBackup, type BackupSource } from './make-backup.js'
import { restoreBackup, type RestoreResult } from './restore-backup.js'

export interface MovedInstallation extends RestoreResult {
  /** The archive the move went through, kept in the backup folder as the last backup on SQLite. */
  archive: string
}

/**
 * The embedded installation moved to PostgreSQL: a backup of the SQLite installation (kept), restored
 * into the PostgreSQL database (a schema per tenant, as the app lays it out; the uploaded files stay in
 * DATA_DIR, which the PostgreSQL installation keeps using), then checked: every table's row count (by the
 * restore) and, for every tenant, both ledgers' invariants.
 */
export async function moveToPostgres(source: BackupSource, backupDir: string, to: string, options: { force?: boolean; entityDirs?: string[] } = {}): Promise<MovedInstallation> {
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
