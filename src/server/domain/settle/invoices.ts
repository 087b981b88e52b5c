import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import type { RequestContext } from '../../platform/request-context.js'
import { invalid } from '../../platform/errors.js'
import type { Wire } from '../../engine/record-codec.js'
import { INVOICE_BIZ_KINDS, lockSettleDocument } from './documents.js'
import { fixed, giveBack, guardedAdd, money } from './money.js'

/**
 * Invoices (spec 001 §7 /settle/paymentsInvoice/*, /settle/invoice/query, 开票管理): 收付款发票 against a
 * payment (settle-payment-invoice.json) and 开票 for an approved sale out or receive sheet
 * (settle-invoice.json). The choices are written in those files.
 */

const PAYMENT = 'settle_payment'
const PAYMENT_INVOICE = 'settle_payment_invoice'
const DOCUMENT_INVOICE = 'settle_invoice'

type SaveEvent = { trx: Db; ctx: RequestContext; mode: 'create' | 'modify'; values: Wire; existing?: Wire; id: string }

/** 税额 = 价税合计 × 税率 ÷ (100 + 税率), half-up to 2 places. */
export function taxOf(amount: Decimal, rate: number): string {
  return amount.times(rate).dividedBy(100 + rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)
}

/** 发票号码 is unique per direction and party (a received number only needs to be unique for its issuer). */
async function checkInvoiceNo(trx: Db, table: string, id: string, direction: number, party: { supplierId: string | null; customerId: string | null }, no: string) {
  let q = trx.selectFrom(table).select('id').where('invoice_no', '=', no).where('direction', '=', direction).where('id', '<>', id)
  q = party.supplierId ? q.where('supplier_id', '=', party.supplierId) : q.where('supplier_id', 'is', null)
  q = party.customerId ? q.where('customer_id', '=', party.customerId) : q.where('customer_id', 'is', null)
  if (await q.executeTakeFirst()) throw invalid(`发票号码${no}已存在，请勿重复登记！`, 'invoiceNo')
}

export function paymentInvoiceHooks(services: Services) {
  const kind = services.databases.kind
  return {
    async afterSave(e: SaveEvent) {
      const { trx, id } = e
      const record = { ...e.existing, ...e.values }
      const amount = money(record.amount, '价税合计', 'amount')
      const paymentId = String(record.paymentId)
      if (e.mode === 'modify') {
        // Give the old amount back first, so the new one is guarded against the payment's whole remainder.
        await giveBack(trx, kind, PAYMENT, paymentId, 'invoiced_amount', new Decimal(String(e.existing?.amount ?? 0)))
      }
      const payment = await trx.selectFrom(PAYMENT).selectAll().where('id', '=', paymentId).executeTakeFirst()
      if (!payment) throw invalid('收付款不存在', 'paymentId')
      if (!(await guardedAdd(trx, kind, PAYMENT, paymentId, 'invoiced_amount', 'amount', amount))) {
        const now = await trx.selectFrom(PAYMENT).select(['amount', 'invoiced_amount']).where('id', '=', paymentId).executeTakeFirstOrThrow()
        const remain = new Decimal(String(now.amount)).minus(String(now.invoiced_amount ?? 0))
        throw invalid(`收付款${payment.code}剩余可开票金额为${fixed(remain)}元，本次开票金额为${fixed(amount)}元，无法保存！`, 'amount')
      }
      const party = { supplierId: (payment.supplier_id as string | null) ?? null, customerId: (payment.customer_id as string | null) ?? null }
      await checkInvoiceNo(trx, PAYMENT_INVOICE, id, Number(payment.direction), party, String(record.invoiceNo).trim())
      await trx
        .updateTable(PAYMENT_INVOICE)
        .set({
          direction: Number(payment.direction),
          supplier_id: party.supplierId,
          customer_id: party.customerId,
          tax_amount: taxOf(amount, Number(record.taxRate)),
        })
        .where('id', '=', id)
        .execute()
    },
  }
}

export function documentInvoiceHooks(services: Services) {
  return {
    async afterSave(e: SaveEvent) {
      const { trx, ctx, id } = e
      const record = { ...e.existing, ...e.values }
      const k = INVOICE_BIZ_KINDS[Number(record.bizType)]
      if (!k) throw invalid('请选择业务单据类型', 'bizType')
      const label = services.registry.enums.label('SETTLE_INVOICE_BIZ_TYPE', Number(record.bizType)) ?? '单据'
      const doc = await lockSettleDocument(services, trx, ctx, k, label, record.bizCode, true)
      const amount = money(record.amount, '价税合计', 'amount')
      const party = { supplierId: doc.supplierId, customerId: doc.customerId }
      await checkInvoiceNo(trx, DOCUMENT_INVOICE, id, k.direction, party, String(record.invoiceNo).trim())
      await trx
        .updateTable(DOCUMENT_INVOICE)
        .set({
          biz_id: doc.id,
          biz_amount: fixed(doc.total),
          direction: k.direction,
          supplier_id: party.supplierId,
          customer_id: party.customerId,
          tax_amount: taxOf(amount, Number(record.taxRate)),
        })
        .where('id', '=', id)
        .execute()
      // Read under the document's lock, this row included: no two invoices take the same remainder.
      const rows = await trx.selectFrom(DOCUMENT_INVOICE).select(['id', 'amount']).where('biz_id', '=', doc.id).execute()
      const others = rows.filter((r) => r.id !== id).reduce((s, r) => s.plus(String(r.amount)), new Decimal(0))
      if (others.plus(amount).gt(doc.total))
        throw invalid(`${label}：${doc.code}剩余可开票金额为${fixed(doc.total.minus(others))}元，本次开票金额为${fixed(amount)}元，无法保存！`, 'amount')
    },
  }
}
