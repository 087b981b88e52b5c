import type { ScopedMutator } from 'swr'
import { isCallKey } from '../../app/use-call.js'
import { notices, type MyNoticeQuery } from '../../../shared/contracts/notices.js'

export type { MyNotice, NoticeContent } from '../../../shared/contracts/notices.js'

/** The bell's poll (000 §9): the first 20 unread notices, every 5000 ms. */
export const BELL_QUERY: MyNoticeQuery = { pageIndex: 1, pageSize: 20, readed: false }
export const BELL_INTERVAL_MS = 5000
/** How the bell's reads refresh (its notices and its todos alike): SWR skips the interval while the document is hidden or offline; coming back fetches at once. */
export const BELL_POLL = { refreshInterval: BELL_INTERVAL_MS, refreshWhenHidden: false, refreshWhenOffline: false, revalidateOnFocus: true, keepPreviousData: true } as const

/** Fetches every read of the caller's notices again (the bell's and 系统通知's), e.g. after one was read. */
export function refreshMyNotices(mutate: ScopedMutator): void {
  void mutate((key) => isCallKey(key, notices.my.path))
}
