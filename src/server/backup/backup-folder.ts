import fs from 'node:fs/promises'
import path from 'node:path'
import dayjs from 'dayjs'
import type { DbKind } from '../db/dialect.js'
import type { BackupManifest, BackupSummary } from './archive-manifest.js'

/**
 * The folder of backups (BACKUP_DIR, by default DATA_DIR/backups): `backup-<time>-<kind>.tar.gz`, each with
 * a `.json` summary beside it that the list reads. Only names of this form are listed, downloaded or pruned,
 * so a name from a request can never reach another file.
 */
const ARCHIVE_NAME = /^backup-\d{8}-\d{6}-\d{3}-(sqlite|postgres)\.tar\.gz$/

export const archiveName = (startedAt: Date, kind: DbKind) => `backup-${dayjs(startedAt).format('YYYYMMDD-HHmmss-SSS')}-${kind}.tar.gz`
export const isArchiveName = (name: string) => ARCHIVE_NAME.test(name)
export const summaryPath = (archive: string) => archive.replace(/\.tar\.gz$/, '.json')

export function summaryOf(name: string, size: number, manifest: BackupManifest): BackupSummary {
  return {
    name,
    size,
    startedAt: manifest.startedAt,
    createdAt: manifest.createdAt,
    kind: manifest.kind,
    appVersion: manifest.appVersion,
    tenants: manifest.tenants.length,
    rows: manifest.parts.reduce((n, p) => n + p.tables.reduce((m, t) => m + t.rows, 0), 0),
  }
}

/** The backups of `dir`, newest first (an archive whose summary is missing or unreadable is left out). */
export async function listBackups(dir: string): Promise<BackupSummary[]> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch {
    return []
  }
  const out: BackupSummary[] = []
  for (const name of names.filter(isArchiveName)) {
    try {
      out.push(JSON.parse(await fs.readFile(summaryPath(path.join(dir, name)), 'utf8')) as BackupSummary)
    } catch {
      // an archive copied in by hand without its summary: restore still takes it, the list does not show it
    }
  }
  return out.sort((a, b) => b.name.localeCompare(a.name))
}

/** The archive of `name` in `dir`, or undefined when the name is not one of ours or the file is gone. */
export async function backupFile(dir: string, name: string): Promise<string | undefined> {
  if (!isArchiveName(name)) return undefined
  const file = path.join(dir, name)
  try {
    await fs.access(file)
    return file
  } catch {
    return undefined
  }
}

/** Keeps the `keep` newest archives of `dir` and removes the others with their summaries; answers the removed names. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  let names: string[]
  try {
    names = (await fs.readdir(dir)).filter(isArchiveName).sort().reverse()
  } catch {
    return []
  }
  const removed = names.slice(Math.max(keep, 1))
  for (const name of removed) {
    const file = path.join(dir, name)
    await fs.rm(file, { force: true })
    await fs.rm(summaryPath(file), { force: true })
  }
  return removed
}
