// npm run move-to-postgres -- --to postgres://… [--force]: copies every tenant of this SQLite installation
// (DATABASE_URL / DATA_DIR) into an empty PostgreSQL database, checks row counts and both ledgers, and
// says what to set so the app (npm start, npm run cluster) serves it from there.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/server/config.js'
import { moveToPostgres } from '../src/server/backup/move-to-postgres.js'
import { runCommand } from './command-line.js'

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
