import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { CalcType, calcTypeOf, settleSides } from '../../src/server/domain/settle/parties.js'

describe('settlement kinds', () => {
  const [supplier, customer] = settleSides(new EntityRegistry())

  it('are read from the document files: table, subject, 业务类型, voucher type, party and amount columns', () => {
    const rows = (side: typeof supplier) => side.kinds.map((k) => [k.doc, k.table, k.subject, k.bizType, k.voucherType, k.partyColumn, k.amountColumn])
    expect(rows(supplier)).toEqual([
      ['receiveSheet', 'tbl_receive_sheet', '采购收货单', 1, 1, 'supplier_id', 'total_amount'],
      ['purchaseReturn', 'tbl_purchase_return', '采购退货单', 2, 2, 'supplier_id', 'total_amount'],
      ['settleFeeSheet', 'settle_fee_sheet', '供应商费用单', 3, 3, 'supplier_id', 'total_amount'],
      ['settlePreSheet', 'settle_pre_sheet', '供应商预付款单', 4, 4, 'supplier_id', 'total_amount'],
    ])
    expect(rows(customer)).toEqual([
      ['saleOutSheet', 'tbl_sale_out_sheet', '销售出库单', 1, 11, 'customer_id', 'total_amount'],
      ['saleReturn', 'tbl_sale_return', '销售退货单', 2, 12, 'customer_id', 'total_amount'],
      ['customerSettleFeeSheet', 'customer_settle_fee_sheet', '客户费用单', 3, 13, 'customer_id', 'total_amount'],
      ['customerSettlePreSheet', 'customer_settle_pre_sheet', '客户预收款单', 4, 14, 'customer_id', 'total_amount'],
    ])
    expect([supplier.check, supplier.settle]).toEqual([
      { doc: 'settleCheckSheet', table: 'settle_check_sheet', detail: 'settle_check_sheet_detail', subject: '供应商对账单', voucherType: 5 },
      { doc: 'settleSheet', table: 'settle_sheet', detail: 'settle_sheet_detail', subject: '供应商结算单', voucherType: 6 },
    ])
    expect([customer.check, customer.settle]).toEqual([
      { doc: 'customerSettleCheckSheet', table: 'customer_settle_check_sheet', detail: 'customer_settle_check_sheet_detail', subject: '客户对账单', voucherType: 15 },
      { doc: 'customerSettleSheet', table: 'customer_settle_sheet', detail: 'customer_settle_sheet_detail', subject: '客户结算单', voucherType: 16 },
    ])
  })

  it('leave the spec enumerations as they are when every declared code is known', () => {
    const registry = new EntityRegistry()
    settleSides(registry)
    expect(registry.enums.items('SETTLE_CHECK_SHEET_BIZ_TYPE').map((i) => i.code)).toEqual([1, 2, 3, 4])
    expect(registry.enums.items('SETTLE_VOUCHER_TYPE')).toHaveLength(12)
  })

  it('stop the start when a declaration names an unknown field or takes a code another kind has', () => {
    const fixture = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/documents/supplier-service-sheet.json'), 'utf8'))
    const sidesWith = (settle: Record<string, unknown>) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settle-kind-'))
      fs.writeFileSync(path.join(dir, 'x.json'), JSON.stringify({ ...fixture, document: { ...fixture.document, settle: { ...fixture.document.settle, ...settle } } }))
      try {
        const registry = new EntityRegistry([dir])
        return () => settleSides(registry)
      } finally {
        fs.rmSync(dir, { recursive: true })
      }
    }
    expect(sidesWith({ party: 'nobody' })).toThrow('supplierServiceSheet: document.settle names unknown header field nobody')
    expect(sidesWith({ bizType: 1 })).toThrow("supplierServiceSheet: document.settle.bizType 1 is receiveSheet's too")
    expect(sidesWith({ voucherType: 5 })).toThrow("supplierServiceSheet: document.settle.voucherType 5 is settleCheckSheet's too")
    expect(sidesWith({})).not.toThrow()
  })

  it('a fee sheet adds in the direction its side owes; returns and pre-sheets subtract', () => {
    const [receive, ret, fee, pre] = supplier.kinds
    expect([calcTypeOf(receive, {}), calcTypeOf(ret, {}), calcTypeOf(pre, {})]).toEqual([CalcType.ADD, CalcType.SUB, CalcType.SUB])
    expect([calcTypeOf(fee, { sheetType: 2 }), calcTypeOf(fee, { sheetType: 1 })]).toEqual([CalcType.ADD, CalcType.SUB])
    const customerFee = customer.kinds[2]
    expect([calcTypeOf(customerFee, { sheetType: 1 }), calcTypeOf(customerFee, { sheetType: 2 })]).toEqual([CalcType.ADD, CalcType.SUB])
    expect(customer.kinds.map((k) => k.doc)).not.toContain('retailOutSheet')
  })
})
