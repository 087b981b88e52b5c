import ExcelJS from 'exceljs'
import type { FastifyReply } from 'fastify'

export interface SheetColumn {
  header: string
  key: string
}

/** Rows of 50,000 at most, as one sheet; the spreadsheet limit the generic exports use too. */
export const EXPORT_LIMIT = 50000

/** Sends rows as an .xlsx download named after the sheet (the blob answer of the spec's exports). */
export async function sendWorkbook(reply: FastifyReply, title: string, columns: SheetColumn[], rows: Record<string, unknown>[]) {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet(title)
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: 18 }))
  for (const row of rows) sheet.addRow(row)
  const buffer = Buffer.from(await book.xlsx.writeBuffer())
  reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}`)
  reply.send(buffer)
  return reply
}

/** Query string and JSON body together: exports are called as GET or POST. */
export function exportValues(query: Record<string, unknown>, body: unknown): Record<string, unknown> {
  return { ...query, ...(body && typeof body === 'object' && !Array.isArray(body) ? (body as object) : {}) }
}
