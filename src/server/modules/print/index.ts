import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { inTransaction } from '../../platform/db-tx.js'
import { forbidden, invalid } from '../../platform/errors.js'
import { OpLogType, writeOpLog } from '../../platform/op-log.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { print, type PrintTemplateFile } from '../../../shared/contracts/print.js'
import { translatorOf } from '../../../shared/i18n/all-catalogues.js'
import { localeOfAcceptLanguage } from '../../../shared/i18n/locales.js'
import { builtinTemplate } from '../../../shared/print/builtin-template.js'
import { PAPER_PRESETS, type PaperPreset } from '../../../shared/print/paper.js'
import { PRINT_FORMAT, templateProblem, type PrintTemplateContent } from '../../../shared/print/print-template.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import { printableKinds, printKeys, printKind } from './print-kinds.js'
import { createPdfRenderer } from './pdf-renderer.js'
import { printDocuments } from './print-documents.js'
import { createTemplate, listTemplates, markDefault, saveVersion, templateContent, templateRow, TEMPLATE_TABLE } from './print-templates.js'

const KEYS = PERMISSION.system.printTemplate
/** A template file may carry a scanned form and a few images (MAX_IMAGE_BYTES each, base64). */
const TEMPLATE_BODY_LIMIT = 12 * 1024 * 1024

const localeOf = (req: FastifyRequest) => localeOfAcceptLanguage(req.headers['accept-language'])

/**
 * Print templates (issue 34): the designer's calls under 系统管理 › 打印模板 (keys system:print-template:*)
 * and printing documents to PDF (the document's own read key; modules/print/print-documents.ts).
 */
export function printModule(app: FastifyInstance, services: Services): void {
  const kinds = printableKinds(services)
  // The PDF worker thread (started on the first print) ends with the app, so a stopped server exits.
  const renderer = createPdfRenderer()
  app.addHook('onClose', () => renderer.close())
  const byName = new Map(kinds.map((k) => [k.name, k]))
  const kindOf = (name: unknown): DocumentModel => {
    const doc = typeof name === 'string' ? byName.get(name) : undefined
    if (!doc) throw invalid('请选择单据类型', 'kind')
    return doc
  }
  const name = (value: unknown): string => {
    if (typeof value !== 'string' || !value.trim()) throw invalid('模板名称不能为空', 'name')
    if (value.trim().length > 50) throw invalid('模板名称长度不能超过50个字符', 'name')
    return value.trim()
  }
  const checked = (doc: DocumentModel, content: unknown): PrintTemplateContent => {
    const problem = templateProblem(content, doc.header, doc.lines)
    if (problem) throw invalid(problem, 'content')
    return content as PrintTemplateContent
  }
  const body = (params: unknown): Record<string, unknown> => (params && typeof params === 'object' ? (params as Record<string, unknown>) : {})

  defineCallRoute(app, print.kinds, {
    access: [KEYS.query],
    handler: async ({ req }) => kinds.map((k) => printKind(k, localeOf(req))),
  })
  defineCallRoute(app, print.query, {
    access: [KEYS.query],
    handler: async ({ ctx, params, req }) => {
      const kind = params?.kind ? kindOf(params.kind).name : undefined
      const t = translatorOf(localeOf(req))
      return (await listTemplates(ctx.db, kind)).map((r) => ({ ...r, kindName: t(byName.get(r.kind)?.subject ?? r.kind) }))
    },
  })
  defineCallRoute(app, print.get, {
    access: [KEYS.query],
    handler: async ({ ctx, params, req }) => {
      const row = await templateRow(ctx.db, params?.id)
      const { version, content } = await templateContent(ctx.db, row, params?.version)
      return { ...row, version, kindName: translatorOf(localeOf(req))(byName.get(row.kind)?.subject ?? row.kind), content }
    },
  })
  defineCallRoute(app, print.builtin, {
    access: [KEYS.query],
    handler: async ({ params, req }) => {
      const doc = kindOf(params?.kind)
      const paper = params?.paper
      if (paper !== undefined && !(paper in PAPER_PRESETS)) throw invalid('纸张设置不正确', 'paper')
      return builtinTemplate(doc.header, doc.lines, translatorOf(localeOf(req)), (paper as PaperPreset | undefined) ?? 'A4')
    },
  })
  defineCallRoute(app, print.create, {
    access: [KEYS.add],
    bodyLimit: TEMPLATE_BODY_LIMIT,
    handler: async ({ ctx, params }) => {
      const p = body(params)
      const doc = kindOf(p.kind)
      const title = name(p.name)
      const content = checked(doc, p.content)
      return inTransaction(ctx.db, async (trx) => {
        const id = await createTemplate(trx, ctx, doc.name, title, p.isDefault === true, content)
        await writeOpLog(trx, ctx, `新增打印模板：${title}（${doc.subject}）`, OpLogType.OTHER, { id })
        return id
      })
    },
  })
  defineCallRoute(app, print.modify, {
    access: [KEYS.modify],
    bodyLimit: TEMPLATE_BODY_LIMIT,
    handler: async ({ ctx, params }) => {
      const p = body(params)
      return inTransaction(ctx.db, async (trx) => {
        const row = await templateRow(trx, p.id)
        const title = name(p.name)
        const content = checked(kindOf(row.kind), p.content)
        const expected = Number(p.version)
        if (!Number.isInteger(expected) || expected < 1) throw invalid('打印模板版本不正确', 'version')
        const version = await saveVersion(trx, ctx, row, expected, title, content)
        await writeOpLog(trx, ctx, `修改打印模板：${title}，版本${version}`, OpLogType.OTHER, { id: row.id, version })
        return version
      })
    },
  })
  defineCallRoute(app, print.setDefault, {
    access: [KEYS.modify],
    handler: async ({ ctx, params }) =>
      inTransaction(ctx.db, async (trx) => {
        const row = await templateRow(trx, body(params).id)
        await markDefault(trx, ctx, row.kind, row.id)
        await writeOpLog(trx, ctx, `设置默认打印模板：${row.name}`, OpLogType.OTHER, { id: row.id })
      }),
  })
  defineCallRoute(app, print.delete, {
    access: [KEYS.delete],
    handler: async ({ ctx, params }) =>
      inTransaction(ctx.db, async (trx) => {
        const row = await templateRow(trx, body(params).id)
        // The versions stay: prints made with them still name them in the op log.
        await trx.deleteFrom(TEMPLATE_TABLE).where('id', '=', row.id).execute()
        await writeOpLog(trx, ctx, `删除打印模板：${row.name}`, OpLogType.OTHER, { id: row.id })
      }),
  })
  defineCallRoute(app, print.export, {
    access: [KEYS.export],
    handler: async ({ ctx, params, reply }) => {
      const row = await templateRow(ctx.db, params?.id)
      const { content } = await templateContent(ctx.db, row)
      const file: PrintTemplateFile = { format: PRINT_FORMAT, name: row.name, content }
      reply
        .header('Content-Type', 'application/json; charset=utf-8')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${row.name}.print.json`)}`)
        .send(JSON.stringify(file, null, 2))
      return reply as never
    },
  })
  defineCallRoute(app, print.import, {
    access: [KEYS.import],
    bodyLimit: TEMPLATE_BODY_LIMIT,
    handler: async ({ ctx, params }) => {
      const p = body(params)
      const doc = kindOf(p.kind)
      const file = body(p.file)
      if (file.format !== PRINT_FORMAT) throw invalid('文件不是打印模板', 'file')
      const title = name(file.name)
      const content = checked(doc, file.content)
      return inTransaction(ctx.db, async (trx) => {
        const id = await createTemplate(trx, ctx, doc.name, title, false, content)
        await writeOpLog(trx, ctx, `导入打印模板：${title}（${doc.subject}）`, OpLogType.OTHER, { id })
        return id
      })
    },
  })
  /** The kind a reader may print: who may read no document at all learns nothing (not even which kinds exist). */
  const readable = (ctx: RequestContext, kind: unknown): DocumentModel => {
    if (!hasPermission(ctx, kinds.flatMap(printKeys))) throw forbidden()
    const doc = kindOf(kind)
    if (!hasPermission(ctx, printKeys(doc))) throw forbidden()
    return doc
  }
  defineCallRoute(app, print.choices, {
    access: 'login',
    handler: async ({ ctx, params }) => {
      const doc = readable(ctx, params?.kind)
      return (await listTemplates(ctx.db, doc.name)).map((r) => ({ id: r.id, name: r.name, isDefault: r.isDefault }))
    },
  })
  defineCallRoute(app, print.pdf, {
    access: 'login',
    handler: async ({ ctx, params, req, reply }) => {
      const doc = readable(ctx, params?.kind)
      const { pdf, fileName } = await printDocuments(services, renderer, ctx, doc, params ?? {}, localeOf(req))
      reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .send(Buffer.from(pdf))
      return reply as never
    },
  })
}
