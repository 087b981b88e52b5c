/**
 * Documents filled from a source document (收货单 ← 采购订单, 退货单 ← 收货单, …): one row per
 * linked document. Adding sale out ← sale order is one more row here.
 */
export interface SourceLink {
  /** Header field holding the source document (a ref with a picker). */
  headerField: string
  /** Answers the source with only the lines still open, each with `remainNum` (GET ?id=). */
  load: string
  /** Singleton configuration and its flag saying the link is required (GET). */
  config?: { base: string; requireFlag: string }
  /** Header fields copied from the source when it is chosen. */
  copy: readonly string[]
  /** Copied fields the server takes from the source whatever is sent (source-link.ts copyHeader): read-only once linked. */
  lock: readonly string[]
}

export const SOURCE_LINKS: Readonly<Record<string, SourceLink>> = {
  receiveSheet: {
    headerField: 'purchaseOrderId',
    load: '/purchase/order/receive',
    config: { base: '/purchase/config', requireFlag: 'receiveRequirePurchase' },
    copy: ['scId', 'supplierId', 'purchaserId'],
    lock: ['scId', 'supplierId'],
  },
  purchaseReturn: {
    headerField: 'receiveSheetId',
    load: '/purchase/receive/sheet/return',
    config: { base: '/purchase/config', requireFlag: 'purchaseReturnRequireReceive' },
    copy: ['scId', 'supplierId', 'purchaserId'],
    lock: ['scId', 'supplierId'],
  },
  saleOutSheet: {
    headerField: 'saleOrderId',
    load: '/sale/order/out',
    config: { base: '/sale/config', requireFlag: 'outStockRequireSale' },
    copy: ['scId', 'customerId', 'salerId'],
    lock: ['scId', 'customerId'],
  },
  saleReturn: {
    headerField: 'outSheetId',
    load: '/sale/out/sheet/return',
    config: { base: '/sale/config', requireFlag: 'saleReturnRequireOutStock' },
    copy: ['scId', 'customerId', 'salerId'],
    lock: ['scId', 'customerId'],
  },
  retailReturn: {
    headerField: 'outSheetId',
    load: '/retail/out/sheet/return',
    config: { base: '/retail/config', requireFlag: 'retailReturnRequireOutStock' },
    copy: ['scId', 'memberId', 'salerId'],
    lock: ['scId', 'memberId'],
  },
}

/** The link of a document whose header really has the source field (a row for a document not built yet is ignored). */
export function sourceLinkOf(documentName: string, headerFields: ReadonlySet<string>): SourceLink | undefined {
  const link = SOURCE_LINKS[documentName]
  return link && headerFields.has(link.headerField) ? link : undefined
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
