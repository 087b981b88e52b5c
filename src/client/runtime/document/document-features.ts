/**
 * What a document screen offers beyond its entity file, by document or module. Sale and stock
 * documents join by adding their names here.
 */

/** Documents with 约定支付 (their answer carries `payTypes`; the amounts must add up to the total). */
export const AGREED_PAYMENT_DOCUMENTS: ReadonlySet<string> = new Set(['purchaseOrder', 'saleOrder'])

/** The line table's quick product search (`?scId&condition`), by the first segment of the document's api base. */
const PRODUCT_SEARCH: Readonly<Record<string, string>> = {
  purchase: '/purchase/order/product/search',
  retail: '/retail/out/sheet/product/search',
}

export function productSearchUrl(apiBase: string): string | undefined {
  return PRODUCT_SEARCH[apiBase.split('/').filter(Boolean)[0] ?? '']
}
