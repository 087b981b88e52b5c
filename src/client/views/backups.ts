import type { ListSource } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'

/** 备份管理 (`GET /system/backup/query`): the archives of the backup folder, newest first. */
export const BACKUP_VIEW: ListSource = {
  name: 'system-backups',
  path: '/system/backup/query',
  fields: {
    name: { type: 'string', label: term('备份文件') },
    startedAt: { type: 'datetime', label: term('备份时间') },
    size: { type: 'integer', label: term('文件大小') },
    kind: { type: 'string', label: term('数据库') },
    tenants: { type: 'integer', label: term('租户数') },
    rows: { type: 'integer', label: term('数据行数') },
    appVersion: { type: 'string', label: term('系统版本') },
  },
  query: [],
  rowKey: 'name',
  columns: [
    { key: 'startedAt', width: 180, ellipsis: false },
    { key: 'name', width: 340 },
    { key: 'size', width: 110, numeric: true },
    { key: 'kind', width: 100, ellipsis: false },
    { key: 'tenants', width: 90, numeric: true },
    { key: 'rows', width: 110, numeric: true },
    { key: 'appVersion', width: 100, ellipsis: false },
  ],
}
