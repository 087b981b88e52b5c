import { sql } from 'kysely'
import type { DocumentModel } from '../../engine/document-kind.js'
import type { Services } from '../../engine/services.js'
import { now } from '../../platform/clock.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid, notFound } from '../../platform/errors.js'
import { OpLogType, opLogInsert } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import { translatorOf } from '../../../shared/i18n/all-catalogues.js'
import type { Locale } from '../../../shared/i18n/locales.js'
import { LINES_OUT } from '../../../shared/metadata/document-model.js'
import { builtinTemplate } from '../../../shared/print/builtin-template.js'
import type { PrintTemplateContent } from '../../../shared/print/print-template.js'
import { printModels } from './print-kinds.js'
import { defaultTemplate, templateContent, templateRow } from './print-templates.js'
import type { PdfEngine } from './pdf-renderer.js'
import { renderPdf } from './render-pdf.js'

/** Documents one print may hold (a batch from a list page). */
export const MAX_PRINT_BATCH = 200

type Row = Record<string, unknown>

function idsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  const ids = [...new Set(list.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean))]
  return ids
}

/** The template a print uses: the one asked for (at the version asked for), else the kind's default, else the built-in one. */
async function chosenTemplate(ctx: RequestContext, doc: DocumentModel, params: Row, locale: Locale) {
  if (params.templateId !== undefined && params.templateId !== '') {
    const row = await templateRow(ctx.db, params.templateId)
    if (row.kind !== doc.name) throw invalid('打印模板不属于该单据类型', 'templateId')
    const { version, content } = await templateContent(ctx.db, row, params.version)
    return { id: row.id, name: row.name, version, content }
  }
  const row = await defaultTemplate(ctx.db, doc.name)
  if (row) {
    const { version, content } = await templateContent(ctx.db, row)
    return { id: row.id, name: row.name, version, content }
  }
  const content: PrintTemplateContent = builtinTemplate(doc.header, doc.lines, translatorOf(locale))
  return { id: null, name: '默认模板', version: 0, content }
}

/**
 * Prints documents of one kind to one PDF, in the order asked. Each document is read through the
 * document store (tenant, data permission and ownership rules apply: a document outside them answers
 * 404 and nothing is printed). After rendering, one guarded statement counts the print on every
 * document still within those rules (打印次数 + 1, 最后打印时间), and each print is in the op log with
 * the template and version it was made with; a document gone meanwhile rolls all of it back.
 */
export async function printDocuments(services: Services, engine: PdfEngine, ctx: RequestContext, doc: DocumentModel, params: Row, locale: Locale): Promise<{ pdf: Uint8Array; fileName: string }> {
  const ids = idsOf(params.ids)
  if (!ids.length) throw invalid(`请选择要打印的${doc.subject}`, 'ids')
  if (ids.length > MAX_PRINT_BATCH) throw invalid(`一次最多打印${MAX_PRINT_BATCH}张单据`, 'ids')
  const template = await chosenTemplate(ctx, doc, params, locale)
  const documents: { header: Row; lines: Row[] }[] = []
  for (const id of ids) {
    const answer = await services.documents.get(ctx.db, ctx, doc, id)
    documents.push({ header: answer, lines: (answer[LINES_OUT] as Row[] | undefined) ?? [] })
  }
  const printTime = now()
  const { pdf } = await renderPdf(engine, template.content, printModels(services, doc, locale), documents, printTime)
  await inTransaction(ctx.db, async (trx) => {
    const scope = await services.store.scope(trx, ctx, doc.header)
    const counted = await trx
      .updateTable(doc.header.table)
      .set({ print_count: sql`coalesce(print_count, 0) + 1`, last_print_time: printTime })
      .where('id', 'in', ids)
      .where(scope)
      .returning(['id', 'code', 'print_count'])
      .execute()
    if (counted.length !== ids.length) throw notFound(`${doc.subject}不存在！`)
    const codes = new Map(counted.map((r) => [String(r.id), r]))
    for (const id of ids) {
      const r = codes.get(id)!
      await opLogInsert(trx, ctx, `打印${doc.subject}，单号：${String(r.code)}`, OpLogType.OTHER, {
        id,
        templateId: template.id,
        template: template.name,
        version: template.version,
        printCount: Number(r.print_count),
      }).execute()
    }
  })
  const first = String(documents[0].header.code ?? '')
  const fileName = ids.length === 1 ? `${doc.subject}-${first}.pdf` : `${doc.subject}-${ids.length}.pdf`
  return { pdf, fileName }
}
