import { sql, type RawBuilder } from 'kysely'
import { SETTLE_CHECK_SHEET_CALC_TYPE, SETTLE_PARTY_TYPE, SETTLE_VOUCHER_TYPE } from '../../../shared/generated/enum-codes.js'

/** 计算方式 of a check-sheet line (SETTLE_CHECK_SHEET_CALC_TYPE): ADD raises what is owed, SUB lowers it. */
export const CalcType = SETTLE_CHECK_SHEET_CALC_TYPE

/** SETTLE_PARTY_TYPE of a ledger row. */
export const PartyType = SETTLE_PARTY_TYPE

/** SETTLE_VOUCHER_TYPE: which document made a ledger row. */
export const VoucherType = SETTLE_VOUCHER_TYPE

/**
 * A kind of business document that a check sheet takes (domain-rules §2.7): its table, its 业务类型
 * code on the check-sheet line, and whether it adds or subtracts. A fee sheet's direction decides by its
 * `sheet_type`: the value in `addWhen` adds (supplier 应付款, customer 应收款), the other subtracts.
 */
export interface SettleKind {
  doc: string
  table: string
  subject: string
  bizType: number
  voucherType: number
  calc: number | { addWhen: number }
}

/** One side of settlement: the party, the kinds its check sheets take, its check and settle sheets. */
export interface SettleSide {
  name: 'supplier' | 'customer'
  partyType: number
  partyField: 'supplierId' | 'customerId'
  partyColumn: 'supplier_id' | 'customer_id'
  partyLabel: string
  kinds: SettleKind[]
  check: { doc: string; table: string; detail: string; subject: string; voucherType: number }
  settle: { doc: string; table: string; detail: string; subject: string; voucherType: number }
}

export const SUPPLIER_SIDE: SettleSide = {
  name: 'supplier',
  partyType: PartyType.SUPPLIER,
  partyField: 'supplierId',
  partyColumn: 'supplier_id',
  partyLabel: '供应商',
  kinds: [
    { doc: 'receiveSheet', table: 'tbl_receive_sheet', subject: '采购收货单', bizType: 1, voucherType: VoucherType.RECEIVE_SHEET, calc: CalcType.ADD },
    { doc: 'purchaseReturn', table: 'tbl_purchase_return', subject: '采购退货单', bizType: 2, voucherType: VoucherType.PURCHASE_RETURN, calc: CalcType.SUB },
    { doc: 'settleFeeSheet', table: 'settle_fee_sheet', subject: '供应商费用单', bizType: 3, voucherType: VoucherType.SETTLE_FEE_SHEET, calc: { addWhen: 2 } },
    { doc: 'settlePreSheet', table: 'settle_pre_sheet', subject: '供应商预付款单', bizType: 4, voucherType: VoucherType.SETTLE_PRE_SHEET, calc: CalcType.SUB },
  ],
  check: { doc: 'settleCheckSheet', table: 'settle_check_sheet', detail: 'settle_check_sheet_detail', subject: '供应商对账单', voucherType: VoucherType.SETTLE_CHECK_SHEET },
  settle: { doc: 'settleSheet', table: 'settle_sheet', detail: 'settle_sheet_detail', subject: '供应商结算单', voucherType: VoucherType.SETTLE_SHEET },
}

export const CUSTOMER_SIDE: SettleSide = {
  name: 'customer',
  partyType: PartyType.CUSTOMER,
  partyField: 'customerId',
  partyColumn: 'customer_id',
  partyLabel: '客户',
  kinds: [
    { doc: 'saleOutSheet', table: 'tbl_sale_out_sheet', subject: '销售出库单', bizType: 1, voucherType: VoucherType.SALE_OUT_SHEET, calc: CalcType.ADD },
    { doc: 'saleReturn', table: 'tbl_sale_return', subject: '销售退货单', bizType: 2, voucherType: VoucherType.SALE_RETURN, calc: CalcType.SUB },
    { doc: 'customerSettleFeeSheet', table: 'customer_settle_fee_sheet', subject: '客户费用单', bizType: 3, voucherType: VoucherType.CUSTOMER_SETTLE_FEE_SHEET, calc: { addWhen: 1 } },
    { doc: 'customerSettlePreSheet', table: 'customer_settle_pre_sheet', subject: '客户预收款单', bizType: 4, voucherType: VoucherType.CUSTOMER_SETTLE_PRE_SHEET, calc: CalcType.SUB },
  ],
  check: { doc: 'customerSettleCheckSheet', table: 'customer_settle_check_sheet', detail: 'customer_settle_check_sheet_detail', subject: '客户对账单', voucherType: VoucherType.CUSTOMER_SETTLE_CHECK_SHEET },
  settle: { doc: 'customerSettleSheet', table: 'customer_settle_sheet', detail: 'customer_settle_sheet_detail', subject: '客户结算单', voucherType: VoucherType.CUSTOMER_SETTLE_SHEET },
}

export const SETTLE_SIDES = [SUPPLIER_SIDE, CUSTOMER_SIDE] as const

/** The side whose check or settle sheet is this document (by entity name). */
export function sideOfSheet(docName: string): SettleSide {
  const side = SETTLE_SIDES.find((s) => s.check.doc === docName || s.settle.doc === docName)
  if (!side) throw new Error(`${docName} is not a check or settle sheet`)
  return side
}

/** The side and kind of a business document that takes part in settlement, if it is one. */
export function kindOfDocument(docName: string): { side: SettleSide; kind: SettleKind } | undefined {
  for (const side of SETTLE_SIDES) {
    const kind = side.kinds.find((k) => k.doc === docName)
    if (kind) return { side, kind }
  }
  return undefined
}

/** ADD or SUB of one document of this kind (a fee sheet by its direction). */
export function calcTypeOf(kind: SettleKind, sheetType: unknown): number {
  if (typeof kind.calc === 'number') return kind.calc
  return Number(sheetType) === kind.calc.addWhen ? CalcType.ADD : CalcType.SUB
}

/** The same as SQL over the kind's table (a constant, or a CASE on sheet_type); constants only, nothing bound. */
export function calcTypeSql(kind: SettleKind): RawBuilder<number> {
  if (typeof kind.calc === 'number') return sql<number>`${sql.lit(kind.calc)}`
  return sql<number>`case when ${sql.ref('sheet_type')} = ${sql.lit(kind.calc.addWhen)} then ${sql.lit(CalcType.ADD)} else ${sql.lit(CalcType.SUB)} end`
}
