import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { pipeline } from 'node:stream/promises'
import type * as XLSX from '@e965/xlsx'
import type { FastifyRequest } from 'fastify'
import { BizError, invalid } from '../platform/errors.js'
import type { ImportColumn } from './import-columns.js'
import { cellText } from './import-cells.js'
import type { ImportRow } from './import-workbook.js'
import { openXlsx } from './xlsx-rows.js'
import { loadSheetJs } from '../platform/heavy-modules.js'

/**
 * An uploaded import file from the request to its rows, without ever holding the workbook:
 * - the upload is streamed to a temporary file (never a Buffer), with the byte cap said in the message;
 * - its type is told by content (an .xlsx is a zip, an .xls an OLE2 compound file), not by its name;
 * - an .xlsx is read row by row by xlsx-rows.ts (the zip entry inflated and tokenized as it streams), an
 *   .xls (at most 65,536 rows by its format) with SheetJS (@e965/xlsx);
 * - the rows are spooled to a second temporary file (one JSON array per line) while the file-level
 *   checks run (columns, row cap, empty file), so the task knows the total before it writes anything
 *   and reads the rows back one at a time.
 */

/** The spec's upload rule (000 §5): Excel import only .xls and .xlsx. */
export const IMPORT_EXTENSIONS = ['xls', 'xlsx']
export const IMPORT_TYPE_MESSAGE = '仅支持上传xls、xlsx格式的文件！'
/** Bytes of one uploaded .xlsx: a million rows of a dozen columns stay well below it. */
export const IMPORT_MAX_BYTES = 300 * 1024 * 1024
export const IMPORT_SIZE_MESSAGE = '文件大小不能超过300MB！'
/** An .xls is read whole (its format is not streamable); 65,536 rows of it fit in far less. */
export const XLS_MAX_BYTES = 50 * 1024 * 1024
export const XLS_SIZE_MESSAGE = 'xls文件大小不能超过50MB！'
/** Rows of one file when the parameter `excel-import.max-size` is missing or not a positive number. */
export const DEFAULT_MAX_ROWS = 1_000_000
export const HELP_SHEET = '说明'
export const NO_FILE_MESSAGE = '请选择要导入的文件！'
export const UNREADABLE_MESSAGE = '无法读取该文件，请下载模板填写后上传！'
export const NO_ROWS_MESSAGE = '导入文件中没有数据！'
export const tooManyRowsMessage = (max: number) => `每次最多导入${max}条数据！`

export type { ImportRow }

export type WorkbookType = 'xlsx' | 'xls'

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04])
const CFB = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])

/** The workbook type by the file's first bytes; undefined for anything else (csv, a renamed image...). */
export function sniffWorkbook(head: Buffer): WorkbookType | undefined {
  if (head.subarray(0, 4).equals(ZIP)) return 'xlsx'
  if (head.subarray(0, 8).equals(CFB)) return 'xls'
  return undefined
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'import-'))

/** A file received or spooled by an import; `dispose` removes it (idempotent). */
export interface TempFile {
  path: string
  dispose(): void
}

function tempFile(name: string): TempFile {
  const dir = tempDir()
  const file = path.join(dir, name)
  return { path: file, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

/** The uploaded workbook of a multipart request (field `file`) on disk: name, size and content checked. */
export async function receiveUpload(req: FastifyRequest): Promise<TempFile & { type: WorkbookType }> {
  if (!req.isMultipart()) throw invalid(NO_FILE_MESSAGE, 'file')
  let part
  try {
    part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } })
  } catch {
    throw invalid(NO_FILE_MESSAGE, 'file')
  }
  if (!part) throw invalid(NO_FILE_MESSAGE, 'file')
  const ext = path.extname(part.filename ?? '').slice(1).toLowerCase()
  if (!IMPORT_EXTENSIONS.includes(ext)) {
    part.file.resume()
    throw invalid(IMPORT_TYPE_MESSAGE, 'file')
  }
  const file = tempFile(`upload.${ext}`)
  try {
    await pipeline(part.file, fs.createWriteStream(file.path))
    if (part.file.truncated) throw invalid(IMPORT_SIZE_MESSAGE, 'file')
    const size = fs.statSync(file.path).size
    if (!size) throw invalid(NO_FILE_MESSAGE, 'file')
    const head = Buffer.alloc(8)
    const fd = fs.openSync(file.path, 'r')
    try {
      fs.readSync(fd, head, 0, 8, 0)
    } finally {
      fs.closeSync(fd)
    }
    // The name says .xls/.xlsx, the content must agree (a renamed csv or image is not read).
    const type = sniffWorkbook(head)
    if (!type) throw invalid(UNREADABLE_MESSAGE, 'file')
    if (type === 'xls' && size > XLS_MAX_BYTES) throw invalid(XLS_SIZE_MESSAGE, 'file')
    return { ...file, type }
  } catch (error) {
    file.dispose()
    part.file.resume()
    if (error instanceof Error && 'code' in error && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw invalid(IMPORT_SIZE_MESSAGE, 'file')
    throw error
  }
}

/** A header cell to the column it names: the required mark and spaces do not count. */
const headerKey = (text: string) => text.replace(/[*＊\s]/g, '')

/** One sheet row as (column number, cell text): column numbers start at 1. */
type SheetRow = { line: number; text(col: number): string; cols(): number[] }

/** The rows of the first data sheet of an .xlsx, streamed (xlsx-rows.ts). */
async function* xlsxRows(file: string): AsyncGenerator<SheetRow> {
  const book = await openXlsx(file)
  const sheet = book.sheets.find((s) => s.name !== HELP_SHEET && s.state === 'visible')
  if (!sheet) return
  for await (const row of book.rows(sheet)) {
    const cells = row.cells
    yield {
      line: row.line,
      text: (col) => cells[col - 1] ?? '',
      cols: () => cells.flatMap((text, i) => (text ? [i + 1] : [])),
    }
  }
}

/** An .xls date serial to the UTC-fields date ExcelJS would hand (cellText reads those). */
function xlsDate(XLSX: typeof import('@e965/xlsx'), serial: number): Date | undefined {
  const d = XLSX.SSF.parse_date_code(serial)
  return d ? new Date(Date.UTC(d.y, d.m - 1, d.d, d.H, d.M, Math.round(d.S))) : undefined
}

/** The rows of the first data sheet of an .xls (read whole: the format has no streaming reader). */
async function* xlsRows(file: string): AsyncGenerator<SheetRow> {
  const XLSX = await loadSheetJs()
  const book = XLSX.read(fs.readFileSync(file), { type: 'buffer', cellDates: false, cellNF: true, cellFormula: false, cellHTML: false, cellStyles: false })
  const name = book.SheetNames.find((n, i) => n !== HELP_SHEET && !book.Workbook?.Sheets?.[i]?.Hidden) ?? book.SheetNames[0]
  const sheet = name ? book.Sheets[name] : undefined
  if (!sheet?.['!ref']) return
  const range = XLSX.utils.decode_range(sheet['!ref'])
  const value = (c: XLSX.CellObject | undefined): string => {
    if (!c || c.v === undefined || c.v === null) return ''
    if (c.t === 'n' && typeof c.v === 'number' && c.z && XLSX.SSF.is_date(c.z)) return cellText(xlsDate(XLSX, c.v))
    if (c.t === 'e') return ''
    return cellText(c.v, typeof c.z === 'string' ? c.z : undefined)
  }
  for (let r = range.s.r; r <= range.e.r; r++) {
    const at = (col: number) => sheet[XLSX.utils.encode_cell({ r, c: col - 1 })] as XLSX.CellObject | undefined
    yield {
      line: r + 1,
      text: (col) => value(at(col)),
      cols: () => {
        const out: number[] = []
        for (let c = range.s.c; c <= range.e.c; c++) if (value(at(c + 1))) out.push(c + 1)
        return out
      },
    }
  }
}

/** The rows of a received file, spooled: total known, rows read back one at a time. */
export interface ImportSpool {
  total: number
  /** Field names of the file's columns, in the order of each spooled line's cells. */
  fields: string[]
  rows(): AsyncGenerator<ImportRow>
  /** Every row at once: for kinds that group or take the whole file (small files by nature). */
  all(): Promise<ImportRow[]>
  dispose(): void
}

/**
 * Reads a received workbook (its first visible sheet that is not 说明), matches the header row to the
 * columns and spools the data rows. File-level problems answer 400 at once: unreadable file, missing
 * required columns, no rows, more rows than `maxRows`. A column absent from the file is absent from
 * every row (a modify leaves that field alone); blank rows are skipped.
 */
export async function spoolImportFile(file: { path: string; type: WorkbookType }, columns: ImportColumn[], maxRows: number): Promise<ImportSpool> {
  const spool = tempFile('rows.jsonl')
  const out = fs.createWriteStream(spool.path)
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain')
  }
  let total = 0
  let at: [number, ImportColumn][] | undefined
  try {
    const source = file.type === 'xls' ? xlsRows(file.path) : xlsxRows(file.path)
    try {
      for await (const row of source) {
        if (!at) {
          // The first row read is the header (row 1 in the template).
          const byHeader = new Map(columns.map((c) => [headerKey(c.header), c]))
          const found = new Map<number, ImportColumn>()
          for (const col of row.cols()) {
            const column = byHeader.get(headerKey(row.text(col)))
            if (column && ![...found.values()].includes(column)) found.set(col, column)
          }
          const present = new Set(found.values())
          const missing = columns.filter((c) => (c.required || c.field.name === 'code') && !present.has(c))
          if (!present.size || missing.length)
            throw invalid(`导入文件缺少列：${(missing.length ? missing : columns).map((c) => c.header).join('、')}，请下载模板填写！`, 'file')
          at = [...found]
          continue
        }
        const cells = at.map(([col]) => row.text(col))
        if (!cells.some(Boolean)) continue
        if (++total > maxRows) throw invalid(tooManyRowsMessage(maxRows), 'file')
        await write(JSON.stringify([row.line, ...cells]) + '\n')
      }
    } catch (error) {
      if (error instanceof BizError) throw error
      throw invalid(UNREADABLE_MESSAGE, 'file')
    }
    if (!at) throw invalid(NO_ROWS_MESSAGE, 'file')
    if (!total) throw invalid(NO_ROWS_MESSAGE, 'file')
    out.end()
    await once(out, 'finish')
  } catch (error) {
    // A write may still be in flight: its failure on the discarded spool is no one's concern.
    out.on('error', () => undefined)
    out.destroy()
    spool.dispose()
    throw error
  }
  const fields = at.map(([, c]) => c.field.name)
  async function* rows(): AsyncGenerator<ImportRow> {
    // Lines cut by hand rather than by readline: a million rows read back in a fraction of its time.
    const input = fs.createReadStream(spool.path, { encoding: 'utf8', highWaterMark: 256 * 1024 })
    const row = (text: string): ImportRow => {
      const [line, ...cells] = JSON.parse(text) as [number, ...string[]]
      const map = new Map<string, string>()
      for (let i = 0; i < fields.length; i++) map.set(fields[i], cells[i])
      return { line, cells: map }
    }
    try {
      let rest = ''
      for await (const chunk of input as AsyncIterable<string>) {
        const text = rest + chunk
        let at = 0
        for (let end = text.indexOf('\n'); end >= 0; at = end + 1, end = text.indexOf('\n', at)) if (end > at) yield row(text.slice(at, end))
        rest = text.slice(at)
      }
      if (rest) yield row(rest)
    } finally {
      input.destroy()
    }
  }
  return {
    total,
    fields,
    rows,
    async all() {
      const list: ImportRow[] = []
      for await (const r of rows()) list.push(r)
      return list
    },
    dispose: spool.dispose,
  }
}

/** The rows of a workbook held in memory (tests and small callers): written to disk and spooled. */
export async function readImportFile(bytes: Buffer, columns: ImportColumn[], maxRows: number): Promise<ImportRow[]> {
  const type = sniffWorkbook(bytes.subarray(0, 8))
  if (!type) throw invalid(UNREADABLE_MESSAGE, 'file')
  const file = tempFile(`upload.${type}`)
  try {
    fs.writeFileSync(file.path, bytes)
    const spool = await spoolImportFile({ path: file.path, type }, columns, maxRows)
    try {
      return await spool.all()
    } finally {
      spool.dispose()
    }
  } finally {
    file.dispose()
  }
}
