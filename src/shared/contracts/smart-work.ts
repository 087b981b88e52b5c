import { defineCall, type FileAnswer } from './call.js'

/** 便捷办公: online spreadsheets (`/sw/excel`) and the file box (`/sw/filebox`), 001 §7 (server: modules/sw). */

/** The stored workbook of an online spreadsheet (Luckysheet `sheets`/`info`, 001 §3). */
export interface WorkbookContent {
  sheets: Record<string, unknown>[]
  info: { name: string; [key: string]: unknown }
}

export interface FileBoxUpload {
  id: string
  name: string
  fileSize: number
}

/** To one receiver (`send`) or several (`send/batch`): the two routes share one handler. */
export type SendParams = { id: string; userId: string } | { id: string; userIds: string[] }

export const swExcel = {
  content: defineCall<{ id: string }, WorkbookContent>('GET', '/sw/excel/content'),
  /** `content` is the workbook as a JSON string. */
  saveContent: defineCall<{ id: string; content: string }, null>('PUT', '/sw/excel/content'),
  export: defineCall<{ id: string }, FileAnswer>('GET', '/sw/excel/export'),
  /** Multipart `file` (an .xlsx): answers the id of the new sheet. */
  import: defineCall<FormData, string>('POST', '/sw/excel/import'),
  /** Answers the ids of the copies made for the receivers. */
  send: defineCall<SendParams, string[]>('POST', '/sw/excel/send'),
  sendBatch: defineCall<SendParams, string[]>('POST', '/sw/excel/send/batch'),
}

export const swFileBox = {
  /** Multipart `file`. */
  upload: defineCall<FormData, FileBoxUpload>('POST', '/sw/filebox/upload'),
  download: defineCall<{ id: string }, FileAnswer>('GET', '/sw/filebox/download'),
  send: defineCall<SendParams, string[]>('POST', '/sw/filebox/send'),
  sendBatch: defineCall<SendParams, string[]>('POST', '/sw/filebox/send/batch'),
}
