import { api } from '../../api/http.js'

/** The stored workbook of an online spreadsheet (Luckysheet `sheets`/`info`, 001 §3). */
export interface WorkbookContent {
  sheets: Record<string, unknown>[]
  info: { name: string }
}

export interface FileBoxUpload {
  id: string
  name: string
  fileSize: number
}

const fileBody = (file: File) => {
  const body = new FormData()
  body.append('file', file)
  return body
}

/** 便捷办公 calls (/sw/excel, /sw/filebox). */
export const swApi = {
  content: (id: string) => api.get<WorkbookContent>('/sw/excel/content', { id }),
  saveContent: (id: string, content: WorkbookContent) => api.put<null>('/sw/excel/content', { id, content: JSON.stringify(content) }, { timeout: false }),
  exportExcel: (id: string) => api.download('get', '/sw/excel/export', { query: { id } }),
  importExcel: (file: File) => api.post<string>('/sw/excel/import', undefined, { body: fileBody(file), timeout: false }),
  sendExcel: (id: string, userIds: string[]) =>
    userIds.length === 1 ? api.post<string[]>('/sw/excel/send', { id, userId: userIds[0] }) : api.post<string[]>('/sw/excel/send/batch', { id, userIds }),
  uploadFile: (file: File) => api.post<FileBoxUpload>('/sw/filebox/upload', undefined, { body: fileBody(file), timeout: false }),
  downloadFile: (id: string) => api.download('get', '/sw/filebox/download', { query: { id } }),
  sendFile: (id: string, userIds: string[]) =>
    userIds.length === 1 ? api.post<string[]>('/sw/filebox/send', { id, userId: userIds[0] }) : api.post<string[]>('/sw/filebox/send/batch', { id, userIds }),
}

/** The public editor route of a sheet (000 §2: /online-excel reads `id`). */
export const editorUrl = (id: string) => `/online-excel?id=${encodeURIComponent(id)}`
