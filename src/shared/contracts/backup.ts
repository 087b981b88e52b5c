import { defineCall, type Page, type PageParams } from './call.js'

/** One archive of 备份管理 (what `npm run backup` and the scheduled backup write). */
export interface BackupRow {
  /** The file name, also the archive's key for download. */
  name: string
  /** Bytes. */
  size: number
  /** When it began (ISO time): every write acknowledged before it is inside. */
  startedAt: string
  createdAt: string
  /** The database it was made from: sqlite or postgres (either restores into either). */
  kind: string
  appVersion: string
  tenants: number
  rows: number
}

/** 备份管理 (system admins of the platform only): list, start, download. Restore is `npm run restore`. */
export const backup = {
  query: defineCall<PageParams, Page<BackupRow> & { running: boolean }>('GET', '/system/backup/query'),
  start: defineCall<void, null>('POST', '/system/backup/start'),
  /** The archive itself (application/gzip), as a download. */
  download: defineCall<{ name: string }, Blob>('GET', '/system/backup/download'),
}
