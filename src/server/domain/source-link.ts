import type { DocumentEvent, DocumentModel, DocumentStore } from '../engine/document-store.js'
import type { RequestContext } from '../platform/request-context.js'
import { LINES_OUT } from '../../shared/metadata/document-model.js'
import { isBlank } from '../../shared/metadata/validate-record.js'
import { invalid } from '../platform/errors.js'
import type { Wire } from '../engine/record-codec.js'
import type { EntityRegistry } from '../engine/entity-registry.js'

/**
 * How a document follows the document it comes from (receive sheet ← purchase order, purchase return
 * ← receive sheet, sale out ← sale order, returns ← out sheets). All names are wire names of the
 * registered entities; columns are looked up through the models.
 */
export interface SourceLink {
  /** Header ref field to the source document, e.g. `purchaseOrderId`. */
  headerField: string
  /** Line ref field to the source line, e.g. `purchaseOrderDetailId`. */
  lineField: string
  /** Source statuses that may be followed. */
  statuses: number[]
  notApproved: string
  /** Header fields copied from the source (warehouse, supplier, customer…). */
  copyHeader: string[]
  /** Line fields copied from the source line (prices, discount). */
  copyLine: string[]
  /** The price field of a line: an unlinked line must be a gift (price 0). */
  priceField: string
  /** When false, only one document may follow a source; the message gets `{code}`. */
  multiple: boolean
  multipleMessage: string
}

/** What the document's configuration says about following its source. */
export interface FollowRules {
  /** Read at creation only; later steps follow the link the document stored. */
  requiredOnCreate: boolean
  multiple: boolean
}

/**
 * Completes a linked create/modify from its source: header fields and line prices come from the
 * source (never from the client), source lines must belong to the source and carry the same product,
 * unlinked lines are gifts. Unlinked documents drop any line links. Answers whether it is linked.
 */
export async function followSource(registry: EntityRegistry, e: DocumentEvent, source: Omit<SourceLink, 'multiple'>, rules: FollowRules): Promise<boolean> {
  if (e.existing) e.header[source.headerField] = e.existing[source.headerField]
  const linked = e.existing ? Boolean(e.existing[source.headerField]) : rules.requiredOnCreate
  await follow(registry, e, { ...source, multiple: rules.multiple }, linked)
  return linked
}

async function follow(registry: EntityRegistry, e: DocumentEvent, link: SourceLink, linked: boolean): Promise<void> {
  const { trx, doc, header, lines } = e
  const headerField = doc.header.byName.get(link.headerField)!
  if (!linked) {
    header[link.headerField] = null
    for (const line of lines) line[link.lineField] = null
    return
  }
  const sourceId = header[link.headerField]
  if (isBlank(sourceId)) throw invalid(`${headerField.label}不能为空！`, link.headerField)
  const sourceHeader = registry.get(headerField.ref as string)
  const sourceLines = registry.get(doc.lines.byName.get(link.lineField)!.ref as string)
  const row = await trx.selectFrom(sourceHeader.table).selectAll().where('id', '=', String(sourceId)).executeTakeFirst()
  if (!row) throw invalid(`${headerField.label}不存在`, link.headerField)
  if (!link.statuses.includes(Number(row.status))) throw invalid(link.notApproved, link.headerField)
  for (const name of link.copyHeader) header[name] = row[sourceHeader.byName.get(name)!.column]
  if (!link.multiple) {
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
  rule: { statuses: number[]; notApproved: string; counter: string; limit?: string },
): Promise<Wire> {
  const answer = await documents.get(ctx.db, ctx, doc, id)
  if (!rule.statuses.includes(Number(answer.status))) throw invalid(rule.notApproved)
  const limit = rule.limit ?? 'orderNum'
  answer[LINES_OUT] = (answer[LINES_OUT] as Wire[])
    .filter((l) => Number(l[limit]) > Number(l[rule.counter] ?? 0))
    .map((l) => ({ ...l, remainNum: Number(l[limit]) - Number(l[rule.counter] ?? 0) }))
  return answer
}
