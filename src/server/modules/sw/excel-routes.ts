import type { FastifyInstance } from 'fastify'
import { defineRoute, envelope } from '../../platform/routes.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { swExcel } from '../../../shared/contracts/smart-work.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid, notFound } from '../../platform/errors.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Db } from '../../db/dialect.js'
import { objectBody } from '../../engine/request-values.js'
import { followsParent } from '../../engine/parent-rows.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import type { Services } from '../../engine/services.js'
import { CONTENT_MAX_BYTES, emptyWorkbook, parseWorkbook, type Workbook } from '../../domain/smart-work/spreadsheet-content.js'
import { workbookToXlsx, xlsxToWorkbook } from '../../domain/smart-work/spreadsheet-xlsx.js'
import { notifyReceiver, ownedRows, receiversOf } from '../../domain/smart-work/sharing.js'

/** 001 §8. */
export const EXCEL_MISSING = 'Excel文件不存在！'
export const SAVED = '保存成功'
const IMPORT_MAX_BYTES = 10 * 1024 * 1024
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * 在线Excel (001 §7 /sw/excel). The list, get, create and modify are the entity family of
 * schemas/entities/sw-online-excel.json; here the workbook's content (get, save), send and batch send,
 * and the .xlsx import and export (beyond the spec's calls: the editor's 导出文件 and the list's
 * import), all on the caller's own sheets only.
 */
export function excelRoutes(app: FastifyInstance, services: Services): void {
  const { registry, store, hooks } = services
  const excel = registry.get('swOnlineExcel')
  const content = registry.get('swOnlineExcelContent')
  const permission = excel.file.api!.permission
  const readKeys = operationKeys(excel, 'get')
  const createKeys = operationKeys(excel, 'create')

  hooks.on(excel.name, ownedRows())
  // A workbook's content (same id) is read by whoever may read the workbook: wherever it is read (custom lists).
  hooks.on(content.name, followsParent(store, excel, 'id'))
  hooks.on(excel.name, {
    // Every sheet has its workbook from the start: the editor opens a new one on an empty Sheet1.
    async afterSave({ trx, ctx, mode, id, values }) {
      if (mode === 'create') await writeContent(trx, ctx, id, emptyWorkbook(String(values.name ?? '')), true)
    },
  })

  async function writeContent(trx: Db, ctx: RequestContext, id: string, workbook: Workbook, fresh: boolean) {
    const text = JSON.stringify(workbook)
    if (Buffer.byteLength(text, 'utf8') > CONTENT_MAX_BYTES) throw invalid('表格内容不能超过20MB，请拆分后再保存！', 'content')
    if (fresh) await trx.insertInto(content.table).values({ id, content: text, ...auditColumns(ctx) }).execute()
    else await trx.updateTable(content.table).set({ content: text, ...updateColumns(ctx) }).where('id', '=', id).execute()
  }

  /** The caller's sheet (the store's owner predicate applies) or 'Excel文件不存在！'. */
  async function ownSheet(db: Db, ctx: RequestContext, id: unknown) {
    if (typeof id !== 'string' || !id.trim()) throw notFound(EXCEL_MISSING)
    const rows = await store.loadByIds(db, ctx, excel, [id.trim()], [])
    if (!rows[0]) throw notFound(EXCEL_MISSING)
    return rows[0]
  }

  async function readWorkbook(db: Db, ctx: RequestContext, id: unknown): Promise<Workbook> {
    const sheet = await ownSheet(db, ctx, id)
    const row = await db.selectFrom(content.table).select('content').where('id', '=', String(sheet.id)).executeTakeFirst()
    const workbook = row ? parseWorkbook(String(row.content), String(sheet.name)) : emptyWorkbook(String(sheet.name))
    return { ...workbook, info: { ...workbook.info, name: String(sheet.name) } }
  }

  defineCallRoute(app, swExcel.content, {
    access: readKeys,
    handler: async ({ ctx, query }) => readWorkbook(ctx.db, ctx, query.id),
  })

  // The saved workbook replaces the stored one (the editor sends the whole book); a body may carry up
  // to the content limit as an escaped JSON string, hence the route's own body limit.
  defineRoute(app, {
      method: swExcel.saveContent.method,
      url: swExcel.saveContent.path,
      access: operationKeys(excel, 'modify'),
      bodyLimit: CONTENT_MAX_BYTES * 2,
      handler: async ({ ctx, body, reply }) => {
        const input = objectBody(body)
        await inTransaction(ctx.db, async (trx) => {
          const sheet = await ownSheet(trx, ctx, input.id)
          const workbook = parseWorkbook(input.content, String(sheet.name))
          await writeContent(trx, ctx, String(sheet.id), workbook, false)
          await trx.updateTable(excel.table).set(updateColumns(ctx)).where('id', '=', String(sheet.id)).execute()
          await writeOpLog(trx, ctx, '保存在线Excel', OpLogType.OTHER, { id: sheet.id })
        })
        reply.send(envelope(null, SAVED))
        return reply
      },
    })

  for (const batch of [false, true]) {
    defineCallRoute(app, batch ? swExcel.sendBatch : swExcel.send, {
      access: [`${permission}:send`],
      handler: async ({ ctx, body }) => {
        const input = objectBody(body)
        return inTransaction(ctx.db, async (trx) => {
          const sheet = await ownSheet(trx, ctx, input.id)
          const receivers = await receiversOf(services, trx, ctx, input, batch)
          const source = await trx.selectFrom(content.table).select('content').where('id', '=', String(sheet.id)).executeTakeFirst()
          const copies: string[] = []
          for (const receiver of receivers) {
            const copyId = await store.create(trx, ctx, excel, { name: sheet.name, description: sheet.description ?? null, available: true }, { logged: false })
            await trx.updateTable(excel.table).set({ owner_id: receiver.id, sender_id: ctx.userId }).where('id', '=', copyId).execute()
            if (source) await trx.updateTable(content.table).set({ content: source.content }).where('id', '=', copyId).execute()
            await notifyReceiver(services, trx, ctx, receiver.id, copyId, '在线Excel', String(sheet.name))
            copies.push(copyId)
          }
          await writeOpLog(trx, ctx, '发送在线Excel', OpLogType.OTHER, { id: sheet.id, userIds: receivers.map((r) => r.id) })
          return copies
        })
      },
    })
  }

  // The file itself is the answer: method and path from the contract, the bytes sent through the reply.
  defineRoute(app, {
    method: swExcel.export.method,
    url: swExcel.export.path,
    access: readKeys,
    handler: async ({ ctx, query, reply }) => {
      const workbook = await readWorkbook(ctx.db, ctx, query.id)
      const bytes = await workbookToXlsx(workbook)
      const fileName = `${workbook.info.name || 'Excel'}.xlsx`
      reply.header('Content-Type', XLSX_TYPE).header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      reply.send(bytes)
      return reply
    },
  })

  // An .xlsx becomes a new sheet of the caller's (named after the file unless `name` is given).
  defineCallRoute(app, swExcel.import, {
    access: createKeys,
    handler: async ({ ctx, req, query }) => {
      if (!req.isMultipart()) throw invalid('请选择要导入的Excel文件！', 'file')
      let part
      try {
        part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } })
      } catch {
        throw invalid('请选择要导入的Excel文件！', 'file')
      }
      if (!part) throw invalid('请选择要导入的Excel文件！', 'file')
      const fileName = part.filename ?? ''
      if (!/\.xlsx$/i.test(fileName)) {
        part.file.resume()
        throw invalid('只能导入.xlsx格式的Excel文件！', 'file')
      }
      let bytes: Buffer
      try {
        bytes = await part.toBuffer()
      } catch {
        throw invalid('Excel文件不能超过10MB！', 'file')
      }
      if (part.file.truncated) throw invalid('Excel文件不能超过10MB！', 'file')
      // An .xlsx is a zip: anything else is refused before exceljs reads it.
      if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw invalid('只能导入.xlsx格式的Excel文件！', 'file')
      const fromField = part.fields.name && 'value' in part.fields.name ? String((part.fields.name as { value: unknown }).value ?? '') : ''
      const name = (typeof query.name === 'string' && query.name.trim() ? query.name : fromField || fileName.replace(/\.xlsx$/i, '')).trim().slice(0, 200)
      const workbook = await xlsxToWorkbook(bytes, name)
      return inTransaction(ctx.db, async (trx) => {
        const id = await store.create(trx, ctx, excel, { name, available: true })
        await writeContent(trx, ctx, id, workbook, false)
        return id
      })
    },
  })
}
