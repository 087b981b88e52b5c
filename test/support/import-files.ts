import ExcelJS from 'exceljs'

/** What `GET /component/import/task` answers (000 §3 import task progress). */
export interface ImportProgress {
  process: number
  successProcess: number
  tipMsgs: string[]
  hasError: boolean
  finished: boolean
  data: { total: number; created: number; modified: number } | null
}

export type Cell = string | number | boolean | Date | null

/** A workbook with a header row and data rows, as a user would fill the template. */
export async function workbook(header: string[], rows: Cell[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('数据')
  sheet.addRow(header)
  for (const r of rows) sheet.addRow(r)
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** A multipart/form-data body with one file part `file`, built by hand. */
export function multipart(filename: string, bytes: Buffer) {
  const boundary = `----erp-test-${Math.random().toString(16).slice(2)}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(filename)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` }
}
