// npm run restore -- FILE [--force]: restores an archive of `npm run backup` (either database) into the
// installation DATABASE_URL / DATA_DIR name, which must be empty unless --force (then it is replaced).
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/server/config.js'
import { restoreBackup } from '../src/server/backup/restore-backup.js'
import { runCommand } from './command-line.js'

await runCommand(async () => {
  const { values, positionals } = parseArgs({ options: { force: { type: 'boolean' } }, allowPositionals: true })
  if (positionals.length !== 1) throw new Error('用法：npm run restore -- 备份文件.tar.gz [--force]')
  const config = loadConfig()
  const entityDirs = process.env.ENTITY_DIRS?.split(path.delimiter).filter(Boolean) ?? []
  const result = await restoreBackup(path.resolve(positionals[0]), { databaseUrl: config.databaseUrl, dataDir: config.dataDir, entityDirs }, { force: values.force })
  console.log(`恢复完成：${config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl : 'PostgreSQL'}`)
  console.log(`  备份时间 ${result.manifest.startedAt}（${result.manifest.kind}，版本 ${result.manifest.appVersion}），租户 ${result.manifest.tenants.length} 个，${result.tables} 张表 ${result.rows} 行`)
})
