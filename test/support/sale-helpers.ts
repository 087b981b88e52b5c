import { expect } from 'vitest'
import { currentStock } from '../../src/server/domain/stock/stock-ledger.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import type { HttpMethod, TestApp } from './test-app.js'

export type Doc = { id: string; code: string; status: number; totalNum: number; totalGiftNum: number; totalAmount: string; details: Record<string, unknown>[]; [k: string]: unknown }

/** Calls answering `操作成功！`, the stock row and log of a product, for the sale and retail scenarios. */
export function saleHelpers(t: () => TestApp, token: () => string) {
  const call = <T = unknown>(method: HttpMethod, url: string, body?: unknown, query?: Record<string, string>) =>
    t().call<T>(method, url, { token: token(), body, query })
  const ok = async <T = unknown>(method: HttpMethod, url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await call<T>(method, url, body, query)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const db = () => t().app.services.databases.tenant(OPERATOR_TENANT_ID)
  return {
    call,
    ok,
    db,
    get: (url: string, id: string) => ok<Doc>('GET', url, undefined, { id }),
    /** The ledger row (stock module routes are another area): quantity, unit cost (6), value (2). */
    stock: (productId: string, scId: string) => currentStock(db(), productId, scId),
    /** Stock log rows of one document. */
    log: (bizId: string) =>
      db().selectFrom('tbl_product_stock_log').select(['product_id', 'stock_num', 'tax_amount', 'biz_type']).where('biz_id', '=', bizId).orderBy('product_id').execute(),
    /** Goods in without a purchase order: receiveRequirePurchase off, a receive sheet approved directly. */
    async stockIn(scId: string, supplierId: string, products: { productId: string; orderNum: number; taxPrice: string }[]) {
      await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
      return ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', { scId, supplierId, products })
    },
  }
}
