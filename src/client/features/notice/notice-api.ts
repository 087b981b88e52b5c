import type { ScopedMutator } from 'swr'
import { api, type Page } from '../../api/http.js'

/** One row of 我的通知 (`GET /system/notice/query/my`). */
export interface MyNotice {
  id: string
  title: string
  publishTime: string | null
  readed: boolean
}

/** A notice to read (`GET /system/notice/content?id`, which marks it read for the caller). */
export interface NoticeContent extends MyNotice {
  /** HTML, sanitised on the server; shown only through DOMPurify again. */
  content: string
}

export interface MyNoticeQuery {
  pageIndex: number
  pageSize: number
  title?: string
  readed?: boolean
}

/** The bell's poll (000 §9): the first 20 unread notices, every 5000 ms. */
export const BELL_QUERY: MyNoticeQuery = { pageIndex: 1, pageSize: 20, readed: false }
export const BELL_INTERVAL_MS = 5000

/** SWR keys of every notice list start with this, so one read refreshes the bell and the page together. */
export const MY_NOTICES_KEY = 'notice-my'

export const myNoticesKey = (token: string | null, query: MyNoticeQuery) => [MY_NOTICES_KEY, token, JSON.stringify(query)] as const

export function queryMyNotices(query: MyNoticeQuery, hideError = false): Promise<Page<MyNotice>> {
  return api.get<Page<MyNotice>>('/system/notice/query/my', { ...query }, { hideError })
}

export function noticeContent(id: string): Promise<NoticeContent> {
  return api.get<NoticeContent>('/system/notice/content', { id })
}

/** Fetches every notice list again (after a notice was read). */
export function refreshMyNotices(mutate: ScopedMutator): void {
  void mutate((key) => Array.isArray(key) && key[0] === MY_NOTICES_KEY)
}
