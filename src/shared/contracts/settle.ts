import { defineCall, type Page, type PageParams } from './call.js'

/** Hand-written settlement screens (001 §7 Settle): a payment against a receive sheet, an invoice of a sheet. */
export type NewPayment = { direction: number; supplierId: string; orderKind: number; orderCode: string; [field: string]: unknown }
export type InvoiceExport = { bizType: number; bizCode: string; [field: string]: unknown }

/** A receive sheet as 登记付款 shows it (wire names of the receive sheet's schema). */
export type ReceiveSheet = { id: string; code: string; status: number; totalAmount: string; supplierId: string; supplierName?: string; paymentDate?: string }
/** A payment plan line of an order (wire names of schemas/entities/settle-payment-plan.json). */
export type PaymentPlanLine = { id: string; period: number; dueDate: string; planAmount: string; paidAmount: string; remainAmount: string; overdue: boolean }
export type PayTypeOption = { id: string; name: string }
/** An approved sheet still to be invoiced (its list columns). */
export type InvoiceSheet = { id: string; code: string; totalAmount: string; supplierName?: string; customerName?: string; approveTime?: string }

export const settle = {
  receiveSheet: defineCall<{ id: string }, ReceiveSheet>('GET', '/purchase/receive/sheet'),
  /** The plan lines of one order (`orderKind`, SETTLE_PAYMENT_ORDER_KIND, and its code) or of any, paged. */
  paymentPlans: defineCall<PageParams & { orderKind?: number; orderCode?: string }, Page<PaymentPlanLine>>('GET', '/settle/payments/queryPaymentPlan'),
  payTypes: defineCall<PageParams & { available: boolean }, Page<PayTypeOption>>('GET', '/selector/paytype'),
  /** Approved sale out sheets (SETTLE_INVOICE_BIZ_TYPE 1) and receive sheets (2) to invoice, newest first. */
  invoiceCandidates: {
    1: defineCall<PageParams, Page<InvoiceSheet>>('GET', '/sale/out/sheet/query/invoice'),
    2: defineCall<PageParams, Page<InvoiceSheet>>('GET', '/purchase/receive/sheet/query/invoice'),
  },
  createPayment: defineCall<NewPayment, unknown>('POST', '/settle/payments/create'),
  exportInvoice: defineCall<InvoiceExport, unknown>('POST', '/settle/invoice/export'),
}
