import { expect } from 'vitest'
import type { TestApp } from './test-app.js'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Calls as one user, `ok` expecting success; stock rows read straight from the tenant database. */
export function stockClient(t: TestApp, token: string) {
  const call = <T = unknown>(method: Method, url: string, body?: unknown, query?: Record<string, string>) => t.call<T>(method, url, { token, body, query })
  const ok = async <T = unknown>(method: Method, url: string, body?: unknown, query?: Record<string, string>) => {
    const r = await call<T>(method, url, body, query)
    expect(r.body.msg, `${method} ${url}`).toBe('操作成功！')
    return r.body.data
  }
  const db = () => t.app.services.databases.tenant(t.app.services.operatorTenantId)
  const stock = async (productId: string, scId: string) => {
    const row = await db().selectFrom('tbl_product_stock').select(['stock_num', 'tax_price', 'tax_amount']).where('product_id', '=', productId).where('sc_id', '=', scId).executeTakeFirst()
    return row && { stockNum: Number(row.stock_num), taxPrice: String(row.tax_price), taxAmount: String(row.tax_amount) }
  }
  /** Goods in through a receive sheet not linked to an order, approved directly. */
  const receive = async (scId: string, supplierId: string, products: { productId: string; orderNum: number; taxPrice: string }[]) => {
    await ok('PUT', '/purchase/config', { receiveRequirePurchase: false })
    return ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', { scId, supplierId, products })
  }
  return { call, ok, db, stock, receive }
}

/** Decimal columns answer as text with their scale on both databases: normalise for comparison. */
export const money = (v: unknown, scale = 2) => Number(v).toFixed(scale)
