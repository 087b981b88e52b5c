import { BackupError } from '../src/server/backup/backup-error.js'

/** Runs a command's work: a refusal (BackupError) or a usage error is one line on stderr and exit code 1. */
export async function runCommand(work: () => Promise<void>): Promise<void> {
  try {
    await work()
    process.exit(0)
  } catch (error) {
    if (error instanceof BackupError || (error instanceof Error && error.message.startsWith('用法'))) console.error(error.message)
    else console.error(error)
    process.exit(1)
  }
}
