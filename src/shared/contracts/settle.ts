import { defineCall } from './call.js'

/** Hand-written settlement screens (001 §7 Settle): a payment against a receive sheet, an invoice of a sheet. */
export type NewPayment = { direction: number; supplierId: string; orderKind: number; orderCode: string; [field: string]: unknown }
export type InvoiceExport = { bizType: number; bizCode: string; [field: string]: unknown }

export const settle = {
  createPayment: defineCall<NewPayment, unknown>('POST', '/settle/payments/create'),
  exportInvoice: defineCall<InvoiceExport, unknown>('POST', '/settle/invoice/export'),
}
