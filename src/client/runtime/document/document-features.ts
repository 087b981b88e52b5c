/**
 * What a document screen offers beyond its entity file, by document or module. Sale and stock
 * documents join by adding their names here.
 */

/** Documents with 约定支付 (their answer carries `payTypes`; the amounts must add up to the total). */
export const AGREED_PAYMENT_DOCUMENTS: ReadonlySet<string> = new Set(['purchaseOrder', 'saleOrder'])

/**
 * The line table's quick product search (`?scId&condition`): by the document's exact api base first,
 * else by its first segment (every purchase document searches like the order). Only where the server
 * has one (sale has none; stock adjust has none).
 */
const PRODUCT_SEARCH: Readonly<Record<string, string>> = {
  '/stock/adjust/cost': '/stock/adjust/cost/product/search',
  '/stock/transfer/sc': '/stock/transfer/sc/product/search',
  purchase: '/purchase/order/product/search',
  retail: '/retail/out/sheet/product/search',
}

export function productSearchUrl(apiBase: string): string | undefined {
  const first = apiBase.split('/').filter(Boolean)[0] ?? ''
  return PRODUCT_SEARCH[apiBase] ?? (first === 'stock' ? undefined : PRODUCT_SEARCH[first])
}

/** The header field whose warehouse the product search reports stock for (a transfer's goods leave the source). */
const WAREHOUSE_FIELD: Readonly<Record<string, string>> = { scTransferOrder: 'sourceScId' }
export const warehouseFieldOf = (documentName: string) => WAREHOUSE_FIELD[documentName] ?? 'scId'

/** `GET url?{party}=` answers `{paymentDate, allowModify}` for the header's 付款日期 (the party's payment terms). */
export interface PaymentDateRule {
  url: string
  party: string
}

const PAYMENT_DATE: Readonly<Record<string, PaymentDateRule>> = {
  receiveSheet: { url: '/purchase/receive/sheet/paymentdate', party: 'supplierId' },
  purchaseReturn: { url: '/purchase/receive/sheet/paymentdate', party: 'supplierId' },
  retailOutSheet: { url: '/retail/out/sheet/paymentdate', party: 'memberId' },
}
export const paymentDateRuleOf = (documentName: string): PaymentDateRule | undefined => PAYMENT_DATE[documentName]

/** A row action of a document list beyond modify/approve/delete, shown only in some statuses and with its key. */
export interface ListRowAction {
  label: string
  permission: string
  statuses: readonly number[]
  /** A confirmation, then `PATCH`/`GET` the call with the row's id; absent: opens the document page `page`. */
  confirm?: string
  call?: { method: 'patch' | 'get'; path: string }
  done?: string
  page?: 'receive'
}

const ROW_ACTIONS: Readonly<Record<string, readonly ListRowAction[]>> = {
  purchaseOrder: [
    {
      label: '取消审核',
      permission: 'purchase:order:cancel-approve',
      statuses: [3],
      confirm: '确定取消审核该采购订单？',
      call: { method: 'patch', path: '/purchase/order/approve/cancel' },
      done: '取消审核成功！',
    },
    {
      label: '提前结束',
      permission: 'purchase:order:end-early',
      statuses: [3, 9],
      confirm: '确定提前结束该采购订单？提前结束后将不能再收货。',
      call: { method: 'get', path: '/purchase/order/endEarly' },
      done: '提前结束成功！',
    },
  ],
  takeStockSheet: [
    {
      label: '取消审核',
      permission: 'stock:take:sheet:cancel-approve',
      statuses: [3],
      confirm: '确定取消审核该库存盘点单？',
      call: { method: 'patch', path: '/stock/take/sheet/approve/cancel' },
      done: '取消审核成功！',
    },
  ],
  scTransferOrder: [{ label: '收货', permission: 'stock:sc-transfer:receive', statuses: [3, 9], page: 'receive' }],
}

/** The extra row actions of a document that apply to a row in this status. */
export function rowActionsFor(documentName: string, status: unknown): ListRowAction[] {
  return (ROW_ACTIONS[documentName] ?? []).filter((a) => a.statuses.includes(Number(status)))
}

/**
 * Line fields a document shows only under a header value: a pre-take sheet counts one number, the
 * one of its 盘点状态 (初盘 firstNum, 复盘 secondNum, 抽盘 randNum). Answers the line fields to hide.
 */
const PRE_TAKE_NUMS = ['firstNum', 'secondNum', 'randNum'] as const

export function hiddenLineFields(documentName: string, header: Record<string, unknown>): ReadonlySet<string> {
  if (documentName !== 'preTakeStockSheet') return new Set()
  const status = header.takeStatus
  const wanted = status === undefined || status === null || status === '' ? undefined : PRE_TAKE_NUMS[Number(status)]
  return new Set(PRE_TAKE_NUMS.filter((n) => n !== wanted))
}
