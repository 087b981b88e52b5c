import type { AppConfig } from '../config.js'
import { BackupError } from './backup-error.js'
import { makeBackup, type MadeBackup } from './make-backup.js'

/** Backups under way, by backup folder: one at a time in a process (the screen and the scheduled job share it). */
const running = new Map<string, Promise<MadeBackup>>()

export const BACKUP_RUNNING = '已有备份正在进行，请稍后再试'

/** Starts a backup of the installation `config` describes into its backup folder; refused while one is running. */
export function startBackup(config: AppConfig): Promise<MadeBackup> {
  if (running.has(config.backupDir)) throw new BackupError(BACKUP_RUNNING)
  const run = makeBackup({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, config.backupDir).finally(() => running.delete(config.backupDir))
  running.set(config.backupDir, run)
  return run
}

export const backupRunning = (config: AppConfig) => running.has(config.backupDir)
