import type { EntityFile } from '../../../shared/generated/entity.js'

/**
 * Documents filled from a source document (收货单 ← 采购订单, 退货单 ← 收货单, …), read from the
 * `document.follows` section of the follower's entity file: the same description the server checks
 * linked documents and serves the loader from.
 */
export interface SourceLink {
  /** Header field holding the source document (a ref with a picker). */
  headerField: string
  /** Answers the source with only the lines still open, each with `remainNum` (GET ?id=). */
  load: string
  /** Singleton configuration (its api base) and its flag saying the link is required (GET). */
  config?: { base: string; requireFlag: string }
  /** Header fields copied from the source when it is chosen. */
  copy: readonly string[]
  /** Copied fields the server takes from the source whatever is sent (`copyHeader`): read-only once linked. */
  lock: readonly string[]
  /** Lines taken from the source start at 0 (a return: the clerk types what goes back). */
  startAtZero: boolean
}

/**
 * The link of a document whose header really has the source field. `entityFile` finds the configuration
 * entity (the meta bundle's), whose api base the flag is read from.
 */
export function sourceLinkOf(
  file: EntityFile,
  headerFields: ReadonlySet<string>,
  entityFile: (name: string) => EntityFile | undefined,
): SourceLink | undefined {
  const follows = file.document?.follows
  if (!follows || !headerFields.has(follows.field)) return undefined
  const base = entityFile(follows.config.entity)?.api?.base
  return {
    headerField: follows.field,
    load: follows.loader,
    config: base ? { base, requireFlag: follows.config.required } : undefined,
    copy: [...follows.copyHeader, ...(follows.prefill ?? [])],
    lock: follows.copyHeader,
    startAtZero: follows.startQuantity === 'zero',
  }
}

/**
 * A source line made into a line of the new document: its product and price, the remaining quantity
 * (or 0 when the link says so, `remainNum` then kept on the line as what may still be taken), and the link
 * to the source line (`linkField`).
 */
export function lineFromSource(source: Record<string, unknown>, linkField: string | undefined, quantityField: string, startAtZero = false): Record<string, unknown> {
  const { id, orderNo: _no, remainNum, ...rest } = source
  const remaining = remainNum ?? source[quantityField]
  const line: Record<string, unknown> = startAtZero ? { ...rest, remainNum: remaining, [quantityField]: 0 } : { ...rest, [quantityField]: remaining }
  if (linkField) line[linkField] = id
  return line
}

/**
 * A line added by hand to a document linked to its source: the server takes only the source's lines
 * at their price, anything else must be a gift (source-link.ts: price 0 or "第N行商品必须为“赠品”！").
 */
export function giftLine<T extends Record<string, unknown>>(line: T, priceField: string | undefined): T {
  return priceField ? { ...line, [priceField]: '0' } : line
}

/**
 * The lines to send of a document whose source lines start at 0: those left at 0 are not taken. When
 * every line is 0 all are sent, so that the server answers with the document's own message.
 */
export function linesToSend<T extends Record<string, unknown>>(rows: readonly T[], quantityField: string): readonly T[] {
  const typed = rows.filter((r) => Number(r[quantityField] ?? 0) !== 0)
  return typed.length ? typed : rows
}
