import type { DocumentEvent, DocumentStore } from '../../engine/document-store.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import type { RequestContext } from '../../platform/request-context.js'
import { LINES_OUT, linesEntityName } from '../../../shared/metadata/document-model.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import type { Wire } from '../../engine/record-codec.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'
import type { EntityStore } from '../../engine/entity-store.js'
import type { FastifyInstance } from 'fastify'
import type { SourceFollow } from '../../../shared/generated/entity.js'
import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import { readSingleton } from '../../engine/singletons.js'
import { documentModel } from '../../engine/document-routes.js'
import { defineRoute } from '../../platform/routes.js'
import { routeOf } from '../../platform/call-routes.js'
import { declaredCalls } from '../../../shared/contracts/document-calls.js'
import { requireSingleFollower } from './single-follower.js'

/**
 * How a document follows the document it comes from (receive sheet ← purchase order, purchase return
 * ← receive sheet, sale out ← sale order, returns ← out sheets): the `document.follows` section of the
 * follower's entity file. All names are wire names of the registered entities; columns are looked up
 * through the models.
 */
export type SourceLink = SourceFollow

/** What the document's configuration says about following its source. */
export interface FollowRules {
  /** Read at creation only; later steps follow the link the document stored. */
  requiredOnCreate: boolean
  multiple: boolean
}

/** The source a document follows, as its file declares it. */
export function sourceLinkOf(registry: EntityRegistry, documentName: string): SourceLink {
  const follows = registry.get(documentName).file.document?.follows
  if (!follows) throw new Error(`${documentName} follows no source document`)
  return follows
}

/** The singleton configuration named by the link (its required/multiple flags). */
export const followConfig = (services: Services, db: Db, ctx: RequestContext, link: SourceLink) =>
  readSingleton(services, db, ctx, services.registry.get(link.config.entity))

/** The flags of the link's configuration. */
export const followRules = (link: SourceLink, config: Wire): FollowRules => ({
  requiredOnCreate: Boolean(config[link.config.required]),
  multiple: Boolean(config[link.config.multiple]),
})

/**
 * A follower's create/modify: reads the configuration the file names and completes the document from
 * its source (followSource). Answers whether it is linked, and the configuration for the hook's own rules.
 */
export async function followConfiguredSource(services: Services, e: DocumentEvent, link: SourceLink): Promise<{ linked: boolean; config: Wire }> {
  const config = await followConfig(services, e.trx, e.ctx, link)
  const linked = await followSource(services.store, e, link, followRules(link, config))
  return { linked, config }
}

/** Approval re-checks "one document per source" when the configuration (as read now) says so. */
export async function requireSingleFollowerUnlessMultiple(services: Services, e: DocumentEvent & { id: string }, link: SourceLink, config: Wire) {
  if (!config[link.config.multiple]) await requireSingleFollower(services.registry, e, link.field, link.multipleMessage)
}

/**
 * Completes a linked create/modify from its source: header fields and line prices come from the
 * source (never from the client), source lines must belong to the source and carry the same product,
 * unlinked lines are gifts. Unlinked documents drop any line links. Answers whether it is linked.
 */
export async function followSource(store: EntityStore, e: DocumentEvent, link: SourceLink, rules: FollowRules): Promise<boolean> {
  if (e.existing) e.header[link.field] = e.existing[link.field]
  const linked = e.existing ? Boolean(e.existing[link.field]) : rules.requiredOnCreate
  await follow(store, e, link, rules.multiple, linked)
  return linked
}

async function follow(store: EntityStore, e: DocumentEvent, link: SourceLink, multiple: boolean, linked: boolean): Promise<void> {
  const { trx, ctx, doc, header, lines } = e
  const { registry } = store
  const headerField = doc.header.byName.get(link.field)!
  if (!linked) {
    header[link.field] = null
    for (const line of lines) line[link.lineField] = null
    return
  }
  const sourceId = header[link.field]
  if (isBlank(sourceId)) throw invalid(`${headerField.label}不能为空！`, link.field)
  const sourceHeader = registry.get(headerField.ref as string)
  const sourceLines = registry.get(doc.lines.byName.get(link.lineField)!.ref as string)
  // Through the caller's rows of the source: a source outside their data permission answers as a missing one.
  const row = await (await store.rows(trx, ctx, sourceHeader)).selectAll('t').where('t.id', '=', String(sourceId)).executeTakeFirst()
  if (!row) throw invalid(`${headerField.label}不存在`, link.field)
  if (!link.statuses.includes(Number(row.status))) throw invalid(link.notApproved, link.field)
  for (const name of link.copyHeader) header[name] = row[sourceHeader.byName.get(name)!.column]
  if (!multiple) {
    const other = await trx
      .selectFrom(doc.header.table)
      .select('id')
      .where(headerField.column, '=', String(sourceId))
      .$if(Boolean(e.existing), (q) => q.where('id', '<>', String(e.existing!.id)))
      .executeTakeFirst()
    if (other) throw invalid(link.multipleMessage.replace('{code}', String(row.code)))
  }
  const parent = sourceLines.byName.get(sourceHeader.file.document!.lines.parentField)!
  const ids = lines.map((l) => l[link.lineField]).filter((v) => !isBlank(v)).map(String)
  const found = ids.length ? await trx.selectFrom(sourceLines.table).selectAll().where('id', 'in', ids).execute() : []
  const byId = new Map<string, Wire>(found.map((r) => [String(r.id), r as Wire]))
  lines.forEach((line, i) => {
    const lineId = line[link.lineField]
    if (isBlank(lineId)) {
      if (!isBlank(line[link.priceField]) && Number(line[link.priceField]) !== 0) throw invalid(`第${i + 1}行商品必须为“赠品”！`)
      line[link.priceField] = '0'
      return
    }
    const src = byId.get(String(lineId))
    if (!src || String(src[parent.column]) !== String(sourceId) || String(src.product_id) !== String(line.productId))
      throw invalid(`第${i + 1}行商品不属于${headerField.label}，请检查！`)
    for (const name of link.copyLine) line[name] = src[sourceLines.byName.get(name)!.column]
  })
}

/**
 * A follower's loader (`/purchase/order/receive`, `/sale/order/out`, `…/return`): the source document
 * in an allowed status with only the lines that still have a remainder (`limit − counter`), each
 * with its `remainNum`.
 */
export async function openSource(
  documents: DocumentStore,
  ctx: RequestContext,
  doc: DocumentModel,
  id: unknown,
  rule: Pick<SourceLink, 'statuses' | 'notApproved' | 'counter' | 'limit'>,
): Promise<Wire> {
  const answer = await documents.get(ctx.db, ctx, doc, id)
  if (!rule.statuses.includes(Number(answer.status))) throw invalid(rule.notApproved)
  const limit = rule.limit ?? 'orderNum'
  answer[LINES_OUT] = (answer[LINES_OUT] as Wire[])
    .filter((l) => Number(l[limit]) > Number(l[rule.counter] ?? 0))
    .map((l) => ({ ...l, remainNum: Number(l[limit]) - Number(l[rule.counter] ?? 0) }))
  return answer
}

/** Startup check: the names a `follows` section uses exist where they should (a typo fails loudly here, not in a request). */
function checkLink(registry: EntityRegistry, documentName: string, link: SourceLink): void {
  const fail = (what: string) => {
    throw new Error(`${documentName}.document.follows: ${what}`)
  }
  const header = registry.get(documentName)
  const lines = registry.get(linesEntityName(documentName))
  const source = registry.get(link.document)
  const sourceLines = registry.get(linesEntityName(link.document))
  const config = registry.get(link.config.entity)
  if (header.byName.get(link.field)?.ref !== link.document) fail(`${link.field} is not a ref to ${link.document}`)
  if (lines.byName.get(link.lineField)?.ref !== sourceLines.name) fail(`${link.lineField} is not a ref to ${sourceLines.name}`)
  for (const name of [...link.copyHeader, ...(link.prefill ?? [])]) if (!header.byName.has(name) || !source.byName.has(name)) fail(`header field ${name}`)
  for (const name of [link.priceField, ...link.copyLine]) if (!lines.byName.has(name)) fail(`line field ${name}`)
  for (const name of link.copyLine) if (!sourceLines.byName.has(name)) fail(`source line field ${name}`)
  for (const name of [link.counter, link.limit ?? 'orderNum']) if (!sourceLines.byName.has(name)) fail(`source line field ${name}`)
  for (const name of [link.config.required, link.config.multiple]) if (!config.byName.has(name)) fail(`${link.config.entity} has no ${name}`)
}

/**
 * The loaders of every document that follows a source (`/purchase/order/receive`, `/sale/order/out`,
 * `…/return`), from the files: the source document in an allowed status with its open lines
 * (openSource), for the follower's add and modify keys.
 */
export function registerSourceLoaders(app: FastifyInstance, services: Services): void {
  const { registry, documents } = services
  for (const header of registry.documents()) {
    const link = header.file.document?.follows
    if (!link) continue
    checkLink(registry, header.name, link)
    const permission = header.file.api!.permission
    const source = documentModel(services, registry.get(link.document))
    defineRoute(app, {
      ...routeOf(declaredCalls.sourceLoader(link)),
      access: [`${permission}:add`, `${permission}:modify`],
      handler: async ({ ctx, query }) => openSource(documents, ctx, source, query.id, link),
    })
  }
}
