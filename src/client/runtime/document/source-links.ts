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
  }
}

/**
 * A source line made into a line of the new document: its product and price, the remaining quantity,
 * and the link to the source line (`linkField`).
 */
export function lineFromSource(source: Record<string, unknown>, linkField: string | undefined, quantityField: string): Record<string, unknown> {
  const { id, orderNo: _no, remainNum, ...rest } = source
  const line: Record<string, unknown> = { ...rest, [quantityField]: remainNum ?? source[quantityField] }
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
