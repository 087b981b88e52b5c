import { defineCall } from './call.js'

/** The spec's import task progress (000 §3), as `GET /component/import/task?id` answers it. */
export interface ImportTask {
  process: number
  successProcess: number
  tipMsgs: string[]
  hasError: boolean
  finished: boolean
  data: { total?: number; created?: number; modified?: number } | null
}

/** One entry of a document's timeline, newest first. */
export interface TimelineEntry {
  id: string
  bizType: number
  content: string
  createBy: string
  createTime: string
}

/** Shared components (000 §7 Components). */
export const component = {
  /** Multipart `file`; answers the URL of the stored image. */
  uploadImage: defineCall<FormData, string>('POST', '/component/upload/image'),
  /** Multipart `file`; answers the URL of the stored video. */
  uploadVideo: defineCall<FormData, string>('POST', '/component/upload/video'),
  importTask: defineCall<{ id: string }, ImportTask>('GET', '/component/import/task'),
  /** Not in the spec: stops the caller's own running import at its next batch. */
  cancelImportTask: defineCall<{ id: string }, null>('DELETE', '/component/import/task', 'query'),
  /** The timeline of a document (any kind), for whoever may open it. */
  orderTimeline: defineCall<{ orderId: string }, TimelineEntry[]>('GET', '/component/timeline/order'),
}
