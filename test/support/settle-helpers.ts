import dayjs from 'dayjs'
import { partyBalance, documentOutstanding } from '../../src/server/domain/settle/ledger.js'
import type { TradeFixtures } from './trade-fixtures.js'
import { saleHelpers } from './sale-helpers.js'
import type { TestApp } from './test-app.js'

export type Page<T = Record<string, unknown>> = { datas: T[]; totalCount: number }
export type Candidate = { bizId: string; bizType: number; calcType: number; bizCode: string; approveTime: string; totalAmount: string; payAmount: string }
export type SettleCandidate = {
  bizId: string
  bizCode: string
  totalPayAmount: string
  totalPayedAmount: string
  totalDiscountAmount: string
  unpaidAmount: string
  payAmount: string
  discountAmount: string
}

export const today = () => dayjs().format('YYYY-MM-DD')

/** Calls and documents of the settlement scenarios (both sides), on top of the sale helpers. */
export function settleHelpers(t: () => TestApp, token: () => string) {
  const h = saleHelpers(t, token)
  const { ok } = h
  let inItem = ''
  let outItem = ''
  const items = async (prefix: string) => {
    inItem = await ok<string>('POST', '/settle/item/in', { code: `${prefix}IN`, name: `${prefix}收入` })
    outItem = await ok<string>('POST', '/settle/item/out', { code: `${prefix}OUT`, name: `${prefix}支出` })
  }
  const settleOf = async (table: string, id: string) =>
    Number((await h.db().selectFrom(table).select('settle_status').where('id', '=', id).executeTakeFirstOrThrow()).settle_status)
  return {
    ...h,
    items,
    settleOf,
    balance: (partyType: number, partyId: string) => partyBalance(h.db(), partyType, partyId),
    outstanding: (id: string) => documentOutstanding(h.db(), id),
    ledger: (voucherId: string) =>
      h.db().selectFrom('settle_ledger').select(['against_id', 'against_type', 'amount']).where('voucher_id', '=', voucherId).orderBy('amount').execute(),
    /** Approved supplier documents: receive 2 × 10.00, return 1 × 10.00, fee 应付 5.00, fee 应收 2.00, pre 30.00. */
    async supplierDocs(f: TradeFixtures, supplierId = f.supplierId) {
      await ok('PUT', '/purchase/config', { receiveRequirePurchase: false, purchaseReturnRequireReceive: false })
      const receive = await ok<string>('POST', '/purchase/receive/sheet/approve/pass/direct', { scId: f.scA, supplierId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }] })
      const ret = await ok<string>('POST', '/purchase/return/approve/pass/direct', { scId: f.scA, supplierId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '10.00' }] })
      const feePay = await ok<string>('POST', '/settle/feesheet/approve/pass/direct', { supplierId, sheetType: 2, products: [{ itemId: outItem, amount: '5.00' }] })
      const feeReceive = await ok<string>('POST', '/settle/feesheet/approve/pass/direct', { supplierId, sheetType: 1, products: [{ itemId: inItem, amount: '2.00' }] })
      const pre = await ok<string>('POST', '/settle/presheet/approve/pass/direct', { supplierId, products: [{ itemId: outItem, amount: '30.00' }] })
      return { receive, ret, feePay, feeReceive, pre }
    },
    /** Approved customer documents: sale out 2 × 15.00, return 1 × 15.00, fee 应收 4.00, fee 应付 1.00, pre-receipt 10.00. */
    async customerDocs(f: TradeFixtures, customerId = f.customerId) {
      await h.stockIn(f.scA, f.supplierId, [{ productId: f.p1, orderNum: 5, taxPrice: '10.00' }])
      const out = await ok<string>('POST', '/sale/out/sheet/approve/pass/direct', { scId: f.scA, customerId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '15.00' }] })
      const ret = await ok<string>('POST', '/sale/return/approve/pass/direct', { scId: f.scA, customerId, products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }] })
      const feeReceive = await ok<string>('POST', '/customer/settle/feesheet/approve/pass/direct', { customerId, sheetType: 1, products: [{ itemId: inItem, amount: '4.00' }] })
      const feePay = await ok<string>('POST', '/customer/settle/feesheet/approve/pass/direct', { customerId, sheetType: 2, products: [{ itemId: outItem, amount: '1.00' }] })
      const pre = await ok<string>('POST', '/customer/settle/presheet/approve/pass/direct', { customerId, products: [{ itemId: inItem, amount: '10.00' }] })
      return { out, ret, feeReceive, feePay, pre }
    },
    /** Every candidate of a check sheet for the party (one page of 500). */
    async unchecked(path: string, query: Record<string, string>) {
      return ok<Page<Candidate>>('GET', path, undefined, { pageIndex: '1', pageSize: '500', ...query })
    },
  }
}
