// npm run backup [-- --out DIR]: one archive of the platform and every tenant (databases and uploaded
// files), written while the app may be running. DATABASE_URL / DATA_DIR / BACKUP_DIR as for `npm start`.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/server/config.js'
import { makeBackup } from '../src/server/backup/make-backup.js'
import { runCommand } from './command-line.js'

await runCommand(async () => {
  const { values } = parseArgs({ options: { out: { type: 'string' } } })
  const config = loadConfig()
  const { file, summary } = await makeBackup({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, path.resolve(values.out ?? config.backupDir))
  console.log(`备份完成：${file}`)
  console.log(`  数据库 ${summary.kind}，租户 ${summary.tenants} 个，${summary.rows} 行，${(summary.size / 1024).toFixed(0)} KB`)
})
