import { defineCall, type Page, type PageParams } from './call.js'

/** One row of 我的通知. */
export type MyNotice = {
  id: string
  title: string
  publishTime: string | null
  readed: boolean
}

/** A notice to read. */
export type NoticeContent = MyNotice & {
  /** HTML, sanitised on the server; shown only through DOMPurify again. */
  content: string
}

export interface MyNoticeQuery extends PageParams {
  title?: string
  readed?: boolean
}

/** The signed-in user's notices (系统通知 and the header bell), spec 000 §2. */
export const notices = {
  /** Published notices, newest first, each with the caller's read state. */
  my: defineCall<MyNoticeQuery, Page<MyNotice>>('GET', '/system/notice/query/my'),
  /** A notice's content; reading it marks it read for the caller. */
  content: defineCall<{ id: string }, NoticeContent>('GET', '/system/notice/content'),
}
