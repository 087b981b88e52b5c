import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { decimalAdd, decimalColumn, decimalCompare, decimalValue, registerDecimalFunctions } from '../../src/server/db/exact-decimal.js'
import type { Db } from '../../src/server/db/dialect.js'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { CalcType, calcTypeOf, settleSides } from '../../src/server/domain/settle/parties.js'

describe('exact decimal SQL on SQLite (dec_add, dec_cmp)', () => {
  const database = new Database(':memory:')
  registerDecimalFunctions(database)
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database }) })

  it('adds decimal text without binary floating point, at the larger scale', () => {
    expect(database.prepare("select 0.1 + 0.2 as v").get()).toEqual({ v: 0.30000000000000004 })
    expect(database.prepare("select dec_add('0.10', '0.20') as v").get()).toEqual({ v: '0.30' })
    expect(database.prepare("select dec_add('99999999999999999.99', '0.01') as v").get()).toEqual({ v: '100000000000000000.00' })
    expect(database.prepare("select dec_add('-7.50', '7.5') as v").get()).toEqual({ v: '0.00' })
    expect(database.prepare("select dec_add(null, '1.25') as v").get()).toEqual({ v: '1.25' })
  })

  it('compares exactly', () => {
    expect(database.prepare("select dec_cmp('100000000000000000.01', '100000000000000000.00') as v").get()).toEqual({ v: 1 })
    expect(database.prepare("select dec_cmp('0.30', dec_add('0.10', '0.20')) as v").get()).toEqual({ v: 0 })
    expect(database.prepare("select dec_cmp('-1', '0') as v").get()).toEqual({ v: -1 })
  })

  it('a guarded x = x + ? update through the helpers never passes the remainder', async () => {
    database.exec("create table c (id text primary key, total text, payed text)")
    database.exec("insert into c values ('a', '0.30', '0.00')")
    const pay = async (amount: string) => {
      const after = decimalAdd(db, decimalColumn('payed'), decimalValue(db, amount))
      const r = await sql`update c set payed = ${after} where id = 'a' and ${decimalCompare(db, decimalColumn('total'), '>=', after)}`.execute(db)
      return Number(r.numAffectedRows)
    }
    expect([await pay('0.10'), await pay('0.10'), await pay('0.10'), await pay('0.01')]).toEqual([1, 1, 1, 0])
    expect(database.prepare("select payed from c").get()).toEqual({ payed: '0.30' })
  })
})

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

  it('a fee sheet adds in the direction its side owes; returns and pre-sheets subtract', () => {
    const [receive, ret, fee, pre] = supplier.kinds
    expect([calcTypeOf(receive, {}), calcTypeOf(ret, {}), calcTypeOf(pre, {})]).toEqual([CalcType.ADD, CalcType.SUB, CalcType.SUB])
    expect([calcTypeOf(fee, { sheetType: 2 }), calcTypeOf(fee, { sheetType: 1 })]).toEqual([CalcType.ADD, CalcType.SUB])
    const customerFee = customer.kinds[2]
    expect([calcTypeOf(customerFee, { sheetType: 1 }), calcTypeOf(customerFee, { sheetType: 2 })]).toEqual([CalcType.ADD, CalcType.SUB])
    expect(customer.kinds.map((k) => k.doc)).not.toContain('retailOutSheet')
  })
})
