import type { ListSource } from '../runtime/list-source.js'
import { notices } from '../../shared/contracts/notices.js'
import { term } from '../i18n/term.js'

/**
 * 系统通知 (`/system/notice/query/my`): the caller's notices by title and read state. Named by its
 * call's path, so a read of it here and the header bell's poll are reloaded together.
 */
export const MY_NOTICES_VIEW: ListSource = {
  name: notices.my.path,
  path: notices.my.path,
  fields: {
    title: { type: 'string', label: term('标题') },
    publishTime: { type: 'datetime', label: term('发布时间') },
    readed: { type: 'boolean', label: term('状态'), enum: 'NOTICE_READ' },
  },
  query: [{ field: 'title' }, { field: 'readed' }],
  columns: [
    { key: 'title', ellipsis: false },
    { key: 'publishTime', width: 200 },
    { key: 'readed', width: 100, ellipsis: false },
  ],
}
