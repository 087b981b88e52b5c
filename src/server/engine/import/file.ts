import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { pipeline } from 'node:stream/promises'
import type * as XLSX from '@e965/xlsx'
import type { FastifyRequest } from 'fastify'
import { BizError, invalid } from '../../platform/errors.js'
import type { ImportColumn } from './columns.js'
import { cellText } from './cells.js'
import type { ImportRow } from './units.js'
import { parseLines, type LineBatch } from './lines.js'
import { localSheet, workerSheet } from './sheet-reader.js'
import type { XlsxRow } from './xlsx-rows.js'
import { loadSheetJs } from '../../platform/heavy-modules.js'

/**
 * An uploaded import file from the request to its rows, without ever holding the workbook:
 * - the upload is streamed to a temporary file (never a Buffer), with the byte cap said in the message;
 * - its type is told by content (an .xlsx is a zip, an .xls an OLE2 compound file), not by its name;
 * - an .xlsx is read row by row by xlsx-rows.ts in a worker thread (sheet-reader.ts), an .xls (at most
 *   65,536 rows by its format) with SheetJS (@e965/xlsx) in process;
 * - the file-level checks (columns, row cap, empty file) run before any row is written; the rows then
 *   reach the import as the worker reads them, or, for imports that need the whole file, are spooled
 *   to a second temporary file first (spoolImportFile).
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

/** An .xls date serial to the UTC-fields date ExcelJS would hand (cellText reads those). */
function xlsDate(XLSX: typeof import('@e965/xlsx'), serial: number): Date | undefined {
  const d = XLSX.SSF.parse_date_code(serial)
  return d ? new Date(Date.UTC(d.y, d.m - 1, d.d, d.H, d.M, Math.round(d.S))) : undefined
}

/** The rows with content of the first data sheet of an .xls (read whole: the format has no streaming reader). */
async function* xlsRows(file: string): AsyncGenerator<XlsxRow> {
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
    const cells: string[] = []
    for (let c = 0; c <= range.e.c; c++) cells.push(c < range.s.c ? '' : value(sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined))
    if (cells.some(Boolean)) yield { line: r + 1, cells }
  }
}

/** The rows of a received file: total known (or bounded, when streamed), rows read back one at a time. */
export interface ImportSpool {
  /**
   * The rows of the file; when streamed, a bound (the sheet's row elements below the header, blank rows
   * included) until the rows have been read (the import then counts the rows it read).
   */
  total: number
  /** Field names of the file's columns, in the order of each line's cells. */
  fields: string[]
  /** The rows, read once. A streamed file may still fail while read: a BizError (unreadable). */
  rows(): AsyncGenerator<ImportRow>
  /** Every row at once: for kinds that group or take the whole file (small files by nature). */
  all(): Promise<ImportRow[]>
  dispose(): void
}

/**
 * Reads a received workbook (its first visible sheet that is not 说明) and matches the header row to
 * the columns. File-level problems answer 400 at once: unreadable file, missing required columns, no
 * rows, more rows than `maxRows`. A column absent from the file is absent from every row (a modify
 * leaves that field alone); blank rows are skipped.
 *
 * With `stream` (imports whose rows are each on their own) an .xlsx is not spooled: its row elements are
 * counted first (a bound: within the cap, the file is within it; progress is shown against it until
 * the rows are read), then its rows reach the import while the worker thread still reads the rest
 * (sheet-reader.ts), so reading and writing share the machine's cores. A file whose XML turns out
 * damaged further on ends its rows with that BizError (the import keeps the rows before it and says
 * so). Otherwise every row is read first and spooled to a temporary file (one JSON array per line), so
 * the total is exact before anything is written.
 */
export async function spoolImportFile(
  file: { path: string; type: WorkbookType },
  columns: ImportColumn[],
  maxRows: number,
  options: { stream?: boolean } = {},
): Promise<ImportSpool> {
  const source = file.type === 'xls' ? localSheet(xlsRows(file.path)) : workerSheet(file.path, HELP_SHEET)
  const unreadable = (error: unknown) => (error instanceof BizError ? error : invalid(UNREADABLE_MESSAGE, 'file'))
  try {
    const header = await source.header().catch((error: unknown) => Promise.reject(unreadable(error)))
    if (!header) throw invalid(NO_ROWS_MESSAGE, 'file')
    const byHeader = new Map(columns.map((c) => [headerKey(c.header), c]))
    const found = new Map<number, ImportColumn>()
    header.cells.forEach((text, i) => {
      const column = text ? byHeader.get(headerKey(text)) : undefined
      if (column && ![...found.values()].includes(column)) found.set(i + 1, column)
    })
    const present = new Set(found.values())
    const missing = columns.filter((c) => (c.required || c.field.name === 'code') && !present.has(c))
    if (!present.size || missing.length)
      throw invalid(`导入文件缺少列：${(missing.length ? missing : columns).map((c) => c.header).join('、')}，请下载模板填写！`, 'file')
    const fields = [...found.values()].map((c) => c.field.name)
    const batches = source.lines([...found.keys()])
    const nextBatch = () => batches.next().catch((error: unknown) => Promise.reject(unreadable(error)))
    // Over the cap by the count (blank rows are counted too), the exact count decides.
    if (options.stream && header.bound !== undefined && header.bound <= maxRows) {
      const first = await nextBatch()
      if (first.done) throw invalid(NO_ROWS_MESSAGE, 'file')
      return streamedSpool(fields, header.bound, first.value, nextBatch, () => source.close())
    }
    const spooled = await spoolLines(nextBatch, maxRows)
    source.close()
    return fileSpool(fields, spooled)
  } catch (error) {
    source.close()
    throw error
  }
}

/** A row of the import from one of its lines. */
function importRow(fields: string[], [line, ...cells]: [number, ...string[]]): ImportRow {
  const map = new Map<string, string>()
  for (let i = 0; i < fields.length; i++) map.set(fields[i], cells[i])
  return { line, cells: map }
}

function spoolOf(fields: string[], total: number, rows: () => AsyncGenerator<ImportRow>, dispose: () => void): ImportSpool {
  return {
    total,
    fields,
    rows,
    async all() {
      const list: ImportRow[] = []
      for await (const r of rows()) list.push(r)
      return list
    },
    dispose,
  }
}

/** Rows that reach the import as the worker reads them. */
function streamedSpool(
  fields: string[],
  bound: number,
  first: LineBatch,
  nextBatch: () => Promise<IteratorResult<LineBatch>>,
  close: () => void,
): ImportSpool {
  async function* rows(): AsyncGenerator<ImportRow> {
    for (let batch: LineBatch | undefined = first; batch; ) {
      for (const line of parseLines(batch.text)) yield importRow(fields, line)
      const next = await nextBatch()
      batch = next.done ? undefined : next.value
    }
  }
  return spoolOf(fields, bound, rows, close)
}

/** Every line written to a temporary file first: the count is exact and checked before any row is written. */
async function spoolLines(nextBatch: () => Promise<IteratorResult<LineBatch>>, maxRows: number): Promise<{ file: TempFile; total: number }> {
  const spool = tempFile('rows.jsonl')
  const out = fs.createWriteStream(spool.path)
  let total = 0
  try {
    for (let next = await nextBatch(); !next.done; next = await nextBatch()) {
      if ((total += next.value.count) > maxRows) throw invalid(tooManyRowsMessage(maxRows), 'file')
      if (!out.write(next.value.text)) await once(out, 'drain')
    }
    if (!total) throw invalid(NO_ROWS_MESSAGE, 'file')
    out.end()
    await once(out, 'finish')
    return { file: spool, total }
  } catch (error) {
    // A write may still be in flight: its failure on the discarded spool is no one's concern.
    out.on('error', () => undefined)
    out.destroy()
    spool.dispose()
    throw error
  }
}

/** The rows of a spooled file, read back a piece at a time. */
function fileSpool(fields: string[], { file, total }: { file: TempFile; total: number }): ImportSpool {
  async function* rows(): AsyncGenerator<ImportRow> {
    // Lines cut by hand rather than by readline: a million rows read back in a fraction of its time.
    const input = fs.createReadStream(file.path, { encoding: 'utf8', highWaterMark: 256 * 1024 })
    try {
      let rest = ''
      for await (const chunk of input as AsyncIterable<string>) {
        const text = rest + chunk
        const cut = text.lastIndexOf('\n') + 1
        for (const line of parseLines(text.slice(0, cut))) yield importRow(fields, line)
        rest = text.slice(cut)
      }
      if (rest) for (const line of parseLines(rest + '\n')) yield importRow(fields, line)
    } finally {
      input.destroy()
    }
  }
  return spoolOf(fields, total, rows, file.dispose)
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
