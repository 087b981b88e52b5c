import type { TestApp } from './test-app.js'

/** Master data every document scenario needs, created through the real API. */
export interface TradeFixtures {
  categoryId: string
  brandId: string
  scA: string
  scB: string
  supplierId: string
  /** A supplier not settled by us (代销, manage type other than 1 is not offered: uses settle type 2 instead). */
  codSupplierId: string
  customerId: string
  memberId: string
  payTypeId: string
  /** Normal products P1..P3 (purchase 10.00 / 20.00 / 0.10, sale 15 / 30 / 1). */
  p1: string
  p2: string
  p3: string
  /** A bundle of 2 × P1 + 1 × P2. */
  bundle: string
}

export async function createTradeFixtures(t: Pick<TestApp, 'call'>, token: string, prefix = 'F'): Promise<TradeFixtures> {
  const post = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const categoryId = await post('/basedata/product/category', { code: `${prefix}C1`, name: `${prefix}类目` })
  const brandId = await post('/basedata/product/brand', { code: `${prefix}B1`, name: `${prefix}品牌` })
  const scA = await post('/basedata/storecenter', { code: `${prefix}SCA`, name: `${prefix}一号仓` })
  const scB = await post('/basedata/storecenter', { code: `${prefix}SCB`, name: `${prefix}二号仓` })
  const supplierId = await post('/basedata/supplier', { code: `${prefix}S1`, name: `${prefix}供应商`, mnemonicCode: 'GYS', settleType: 1, manageType: 1 })
  const codSupplierId = await post('/basedata/supplier', { code: `${prefix}S2`, name: `${prefix}货到付款供应商`, mnemonicCode: 'HDFK', settleType: 2, manageType: 1 })
  const customerId = await post('/basedata/customer', { code: `${prefix}K1`, name: `${prefix}客户`, mnemonicCode: 'KH', settleType: 1 })
  const memberId = await post('/basedata/member', { code: `${prefix}M1`, name: `${prefix}会员`, gender: 0, joinDay: '2026-01-01' })
  const payTypeId = await post('/basedata/paytype', { code: `${prefix}PT`, name: `${prefix}现金`, recText: false })
  const product = (code: string, purchasePrice: string, salePrice: string, extra: Record<string, unknown> = {}) =>
    post('/basedata/product', {
      code: `${prefix}${code}`,
      name: `${prefix}商品${code}`,
      skuCode: `${prefix}SKU${code}`,
      categoryId,
      brandId,
      productType: 1,
      taxRate: 17,
      saleTaxRate: 17,
      purchasePrice,
      salePrice,
      retailPrice: salePrice,
      ...extra,
    })
  const p1 = await product('P1', '10.00', '15.00')
  const p2 = await product('P2', '20.00', '30.00')
  const p3 = await product('P3', '0.10', '1.00')
  const bundle = await product('K1', '0', '60.00', {
    productType: 2,
    productBundles: [
      { productId: p1, bundleNum: 2, salePrice: '15.00', retailPrice: '15.00' },
      { productId: p2, bundleNum: 1, salePrice: '30.00', retailPrice: '30.00' },
    ],
  })
  return { categoryId, brandId, scA, scB, supplierId, codSupplierId, customerId, memberId, payTypeId, p1, p2, p3, bundle }
}
