import { defineCall, type Page, type PageParams } from './call.js'

/** CRM customers, the public sea and follow-ups (001 §7 CRM; server: modules/crm/customers.ts, customer-actions.ts). */

/** A CRM customer as the customer calls answer it (wire names of schemas/entities/customer.json, ref labels beside ids). */
export type CustomerRow = Record<string, unknown> & {
  id: string
  code: string
  name: string
  ownerId: string | null
  ownerName?: string | null
  deptName?: string | null
  poolName?: string | null
  preOwnerName?: string | null
  lastFollowTime?: string | null
  nextFollowTime?: string | null
  locked?: boolean
}

/** One change of a customer's owner (`GET /crm/customer/ownerRecords`). */
export interface OwnerRecord {
  id: string
  /** CRM_OWNER_CHANGE_TYPE */
  changeType: number
  fromOwnerId: string | null
  fromOwnerName: string | null
  toOwnerId: string | null
  toOwnerName: string | null
  poolId: string | null
  poolName: string | null
  reason: string | null
  createBy: string | null
  createTime: string | null
}

/** A follow-up (wire names of schemas/entities/crm-customer-action.json). */
export type ActionRow = Record<string, unknown> & {
  id: string
  customerId: string
  customerName?: string
  actionType: number
  content: string
  actionTime: string
  nextTime: string | null
  nextContent: string | null
  followerName?: string | null
}

export interface OwnerChoice {
  id: string
  code: string
  name: string
}

/** A customer of mine that automatic return takes back within the reminder days. */
export interface ReturnRemind {
  id: string
  code: string | null
  name: string | null
  lastFollowTime: string | null
  returnDate: string
}

/** A customer of mine whose next follow-up is due (`GET /crm/data/queryAction`). */
export interface DueFollowUp {
  customerId: string
  code: string
  name: string
  contact: string | null
  telephone: string | null
  level: unknown
  lastFollowTime: string | null
  nextFollowTime: string
  nextContent: string | null
  overdue: boolean
}

/** The caller's CRM figures (`GET /crm/data/query`). */
export interface CrmFigures {
  customerCount: number
  dealtCount: number
  lockedCount: number
  newCustomerMonth: number
  actionToday: number
  actionMonth: number
  dueToday: number
  overdue: number
  comingReturn: number
}

export interface ReturnResult {
  /** Customers returned to the sea, per rule id. */
  returned: Record<string, number>
  total: number
  /** Owners who got the bell reminder of customers the sea takes back within the reminder days. */
  reminded: number
}

/** List conditions: the customer list's search fields (schema-driven) and paging. */
export type CustomerQuery = PageParams & { scope?: number; [condition: string]: unknown }
export type ActionQuery = PageParams & { customerId?: string; [condition: string]: unknown }

export const crmCustomers = {
  /** 我的/部门/全部客户 (`scope` 1, 2, 3). */
  mine: defineCall<CustomerQuery, Page<CustomerRow>>('GET', '/basedata/customer/queryCustomerAss'),
  get: defineCall<{ id: string }, CustomerRow>('GET', '/crm/customer'),
  create: defineCall<Record<string, unknown>, string>('POST', '/crm/customer'),
  modify: defineCall<Record<string, unknown> & { id: string }, null>('PUT', '/crm/customer'),
  transfer: defineCall<{ ids: string[]; ownerId: string; reason: string }, null>('POST', '/basedata/customer/transfer'),
  release: defineCall<{ ids: string[]; reason: string }, null>('POST', '/basedata/customer/removePublicSea'),
  claim: defineCall<{ ids: string[] }, null>('POST', '/basedata/customer/claimPublicSea'),
  lock: defineCall<{ ids: string[]; locked: boolean }, null>('POST', '/basedata/customer/lock'),
  ownerRecords: defineCall<{ customerId: string }, OwnerRecord[]>('GET', '/crm/customer/ownerRecords'),
  owners: defineCall<{ name: string }, OwnerChoice[]>('GET', '/crm/customer/owners'),
  returnRemind: defineCall<void, ReturnRemind[]>('GET', '/crm/customer/queryReturnRemind'),
  runReturn: defineCall<Record<string, never>, ReturnResult>('POST', '/crm/sea/return'),
}

export const crmActions = {
  query: defineCall<ActionQuery, Page<ActionRow>>('GET', '/crm/action/query'),
  create: defineCall<Record<string, unknown>, string>('POST', '/crm/action/createAction'),
  remove: defineCall<{ ids: string[] }, null>('DELETE', '/crm/action/delete'),
  figures: defineCall<void, CrmFigures>('GET', '/crm/data/query'),
  due: defineCall<{ days?: number }, DueFollowUp[]>('GET', '/crm/data/queryAction'),
}
