import { call, callDownload } from '../../api/call.js'
import { swExcel, swFileBox, type WorkbookContent } from '../../../shared/contracts/smart-work.js'

const fileBody = (file: File) => {
  const body = new FormData()
  body.append('file', file)
  return body
}

/** 便捷办公 calls (contracts: src/shared/contracts/smart-work.ts); uploads and saves of large books run without the time limit. */
export const swApi = {
  content: (id: string) => call(swExcel.content, { id }),
  saveContent: (id: string, content: WorkbookContent) => call(swExcel.saveContent, { id, content: JSON.stringify(content) }, { timeout: false }),
  exportExcel: (id: string) => callDownload(swExcel.export, { id }),
  importExcel: (file: File) => call(swExcel.import, fileBody(file), { timeout: false }),
  sendExcel: (id: string, userIds: string[]) =>
    userIds.length === 1 ? call(swExcel.send, { id, userId: userIds[0] }) : call(swExcel.sendBatch, { id, userIds }),
  uploadFile: (file: File) => call(swFileBox.upload, fileBody(file), { timeout: false }),
  downloadFile: (id: string) => callDownload(swFileBox.download, { id }),
  sendFile: (id: string, userIds: string[]) =>
    userIds.length === 1 ? call(swFileBox.send, { id, userId: userIds[0] }) : call(swFileBox.sendBatch, { id, userIds }),
}

/** The public editor route of a sheet (000 §2: /online-excel reads `id`). */
export const editorUrl = (id: string) => `/online-excel?id=${encodeURIComponent(id)}`
