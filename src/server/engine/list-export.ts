import { PassThrough, type Writable } from 'node:stream'
import { once } from 'node:events'
import type ExcelJS from 'exceljs'
import { sql, type Expression, type SqlBool } from 'kysely'
import type { FastifyReply } from 'fastify'
import type { Db } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from './services.js'
import type { ListRequest } from './entity-store.js'
import type { Wire } from './record-codec.js'
import { exportCell, exportFields } from './export-cells.js'
import { loadExcelJs } from '../platform/heavy-modules.js'

/**
 * Streamed exports: the list's rows are read in slices of EXPORT_PAGE_ROWS and written row by row with
 * ExcelJS's streaming WorkbookWriter into the reply, so no export holds its full result (a million rows
 * stay within a few tens of MB). The total is answered first in `X-Total-Count` (the client shows the
 * download's progress with it).
 */

/** The first slice; each next one doubles up to EXPORT_MAX_SLICE (a list without an index on its order
 *  costs a scan per slice, so large exports take fewer, larger slices; small ones answer quickly). */
export const EXPORT_PAGE_ROWS = 1000
export const EXPORT_MAX_SLICE = 10000
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
/** The header the client reads the row count from (exposed for the browser's fetch). */
export const TOTAL_HEADER = 'X-Total-Count'

export interface SheetColumn {
  header: string
  key: string
}

type Rows = AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>

/**
 * Sends rows (in slices) as an .xlsx download named after the sheet, written as they come. The reply
 * is a stream: an error after the first bytes can only end it (the client sees a broken download).
 */
export async function sendXlsxStream(
  reply: FastifyReply,
  title: string,
  columns: SheetColumn[],
  slices: Rows,
  total?: number,
): Promise<FastifyReply> {
  const excel = await loadExcelJs()
  const out = new PassThrough({ highWaterMark: 1 << 20 })
  const book = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false })
  const sheet = book.addWorksheet(title.replace(/[[\]:*?/\\]/g, '').slice(0, 31) || 'Sheet1')
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: 18 }))
  reply.header('Content-Type', XLSX_TYPE).header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}`)
  if (total !== undefined) reply.header(TOTAL_HEADER, String(total)).header('Access-Control-Expose-Headers', TOTAL_HEADER)
  reply.send(out)
  try {
    for await (const rows of slices) {
      for (const row of rows) sheet.addRow(row).commit()
      // The zip compresses and the client reads slower than the database answers: wait for both
      // instead of buffering the file.
      await worksheetDrained(sheet)
      if (out.writableNeedDrain) await once(out, 'drain')
    }
    sheet.commit()
    await book.commit()
  } catch (error) {
    reply.log.error({ err: error }, 'export stream failed')
    out.destroy(error as Error)
  }
  return reply
}

/**
 * ExcelJS's streaming worksheet writes its XML into a buffer (StreamBuf) piped to the zip entry without
 * looking at the entry's backpressure, so a fast producer piles the whole sheet up in memory. This waits
 * until the entry has taken what was written (StreamBuf's `buffers` and `pipes` are internals of ExcelJS
 * 4; if they are missing the wait is skipped and only the reply's backpressure applies).
 */
type EntryStream = Writable & { _writableState?: { needDrain?: boolean; length: number; highWaterMark: number } }
async function worksheetDrained(sheet: ExcelJS.Worksheet): Promise<void> {
  const buf = (sheet as unknown as { stream?: { buffers?: unknown[]; pipes?: EntryStream[] } }).stream
  if (!buf?.buffers || !buf.pipes) return
  // The entry is archiver's readable-stream v2 PassThrough: its state is `_writableState`.
  const full = (p: EntryStream) => {
    const w = p._writableState
    return Boolean(w && (w.needDrain || w.length > w.highWaterMark))
  }
  for (let i = 0; i < 10_000; i++) {
    const pending = buf.pipes.find(full)
    if (pending) await once(pending, 'drain')
    else if (!buf.pipes.length && buf.buffers.length > 16) await new Promise((r) => setTimeout(r, 5))
    else return
  }
}

/** Fields that are never null, so a keyset over them sees every row. */
const neverNull = (f: FieldModel) => f.name === 'id' || f.name === 'createTime' || f.name === 'updateTime' || Boolean(f.requiredMessage)

/**
 * The rows of a list request in slices (growing from `pageRows`), in the list's order: keyset pages (after the last row's sort
 * value and id) where the order allows it, offset pages otherwise (a sort on a column that may be null).
 */
export async function* listSlices(
  services: Services,
  db: Db,
  ctx: RequestContext,
  entity: EntityModel,
  req: ListRequest,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<Wire[]> {
  const { store, codec } = services
  const sortName = String(req.values.sortField ?? '') || req.sort?.field
  const sortField = sortName ? entity.byName.get(sortName) : undefined
  const desc = String(req.values.sortOrder ?? req.sort?.order ?? 'asc').toLowerCase() === 'desc'
  const keyset = !sortField || neverNull(sortField)
  let after: Expression<SqlBool> | undefined
  for (let offset = 0, size = pageRows; ; offset += size, size = Math.min(EXPORT_MAX_SLICE, size * 2)) {
    const where = after && req.where ? sql<SqlBool>`(${req.where}) and (${after})` : (after ?? req.where)
    const page = await store.list(db, ctx, entity, { ...req, paged: false, where, limit: size, offset: keyset ? 0 : offset })
    if (page.datas.length) yield page.datas
    if (page.datas.length < size) return
    if (!keyset) continue
    const last = page.datas[page.datas.length - 1]
    const id = sql<SqlBool>`t.id < ${String(last.id)}`
    if (!sortField) after = id
    else {
      const column = sql.ref(`t.${sortField.column}`)
      const value = codec.toFilter(sortField, last[sortField.name])
      const beyond = desc ? sql`${column} < ${value}` : sql`${column} > ${value}`
      // store.list breaks ties by id desc, except on a unique column.
      after = sortField.unique ? sql<SqlBool>`${beyond}` : sql<SqlBool>`(${beyond} or (${column} = ${value} and ${id}))`
    }
  }
}

/** The rows matching the request, counted (one count, not one per slice). */
export async function listTotal(services: Services, db: Db, ctx: RequestContext, entity: EntityModel, req: ListRequest): Promise<number> {
  const page = await services.store.list(db, ctx, entity, { ...req, paged: true, values: { ...req.values, pageIndex: 1, pageSize: 1 } })
  return page.totalCount
}

/** Exports an entity's or document's list: its export columns, cells as people read them, streamed. */
export async function sendListExport(
  reply: FastifyReply,
  services: Services,
  e: { db: Db; ctx: RequestContext; entity: EntityModel; req: ListRequest; title: string },
): Promise<FastifyReply> {
  const fields = exportFields(e.entity)
  const enums = services.registry.enums
  const total = await listTotal(services, e.db, e.ctx, e.entity, e.req)
  async function* cells() {
    for await (const rows of listSlices(services, e.db, e.ctx, e.entity, e.req))
      yield rows.map((row) => {
        const out: Record<string, unknown> = {}
        for (const f of fields) out[f.name] = exportCell(f, row, enums)
        return out
      })
  }
  return sendXlsxStream(reply, e.title, fields.map((f) => ({ header: f.label, key: f.name })), cells(), total)
}
