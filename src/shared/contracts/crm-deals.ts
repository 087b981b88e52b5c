import { defineCall, defineRead, type Page, type PageParams } from './call.js'
import type { PaymentRow } from './contract-payment.js'

/** CRM deals: opportunities, contracts with their collection plans and attachments, contacts and memorial days (001 §7 CRM; server: modules/crm/deals.ts). */

/** A record as the entity store answers it (wire names of its schema). */
export type Row = Record<string, unknown> & { id: string }

/** A contract's collection plan: the periods and their totals. */
export interface PaymentPage extends Page<PaymentRow> {
  planAmount: string
  receivedAmount: string
  unreceivedAmount: string
}

export interface PlanInput {
  id?: string
  planDate: string
  planAmount: string
  remindDays?: number | null
  description?: string
}

export interface ReceiveInput {
  planId: string
  amount: string
  receiveDate: string
  payMethod?: string
  description?: string
}

export interface ContractFile {
  id: string
  contractId: string
  fileName: string
  url: string
  fileSize: number | null
  createBy: string | null
  createTime: string | null
}

export interface MemorialRow extends Row {
  title: string
  memorialDate: string
  nextDate: string | null
  daysLeft: number | null
}

/** CRM_STATUS: 3 approved, 6 refused. */
export type Approval = { id: string; status: 3 | 6; refuseReason?: string }
export type DealQuery = PageParams & { [condition: string]: unknown }

export const crmDeals = {
  approveBusiness: defineCall<Approval, null>('POST', '/crm/business/approve'),
  approveContract: defineCall<Approval, null>('POST', '/crm/contract/approve'),
  business: defineCall<{ id: string }, Row>('GET', '/crm/business'),
  businessPage: defineCall<DealQuery, Page<Row>>('GET', '/crm/business/query'),
  contract: defineCall<{ id: string }, Row>('GET', '/crm/contract'),
  /** The contract picker's list (000 §7: POST). */
  contractPage: defineRead<DealQuery, Page<Row>>('/crm/contract/query'),
  payment: defineCall<PageParams & { contractId?: string; customerId?: string; overdue?: boolean; status?: number }, PaymentPage>('GET', '/crm/contract/queryPayment'),
  savePlans: defineCall<{ contractId: string; plans: PlanInput[] }, PaymentPage>('POST', '/crm/contract/plan'),
  receive: defineCall<ReceiveInput, string>('POST', '/crm/contract/receive'),
  removeReceive: defineCall<{ id: string }, null>('DELETE', '/crm/contract/receive'),
  /** The parent chain of a contract, nearest first. */
  parents: defineCall<{ id: string }, Row[]>('GET', '/crm/contract/queryParent'),
  files: defineCall<{ contractId: string }, ContractFile[]>('GET', '/crm/contract/queryFile'),
  /** Multipart `file`; answers the URL of the stored attachment (createFile records it on the contract). */
  upload: defineCall<FormData, string>('POST', '/crm/contract/upload'),
  createFile: defineCall<{ contractId: string; url: string; fileName: string; fileSize: number }, string>('GET', '/crm/contract/createFile'),
  removeFile: defineCall<{ id: string }, null>('GET', '/crm/contract/fileRemoveId'),
  contactsOf: defineCall<{ customerId: string; pageSize: number }, Page<Row>>('GET', '/crm/contact/queryPageResult'),
}

export const crmMemorials = {
  query: defineCall<DealQuery, Page<MemorialRow>>('GET', '/basedata/memorial/query'),
  /** One's own and shared memorial days due within their reminder days (the bell polls it). */
  reminders: defineCall<void, MemorialRow[]>('GET', '/basedata/memorial/myRemindQuery'),
  share: defineCall<{ id: string; userIds: string[] }, null>('POST', '/basedata/memorial/share'),
  remove: defineCall<{ ids: string[] }, null>('DELETE', '/basedata/memorial/delete'),
}
