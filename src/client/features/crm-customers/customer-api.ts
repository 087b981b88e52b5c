import { api, download, type Page } from '../../api/http.js'

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

export interface OwnerRecord {
  id: string
  changeType: number
  fromOwnerName: string | null
  toOwnerName: string | null
  poolName: string | null
  reason: string | null
  createBy: string | null
  createTime: string
}

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

/** 客户范围 tabs (CRM_CUSTOMER_SCOPE). */
export const SCOPE = { MINE: 1, DEPT: 2, ALL: 3 } as const

/** The calls of the CRM customer screens (src/server/modules/crm/customers.ts, customer-actions.ts). */
export const customerApi = {
  mine: (query: Record<string, unknown>) => api.get<Page<CustomerRow>>('/basedata/customer/queryCustomerAss', query),
  get: (id: string) => api.get<CustomerRow>('/crm/customer', { id }),
  create: (values: Record<string, unknown>) => api.post<string>('/crm/customer', values),
  modify: (values: Record<string, unknown>) => api.put<void>('/crm/customer', values),
  transfer: (ids: string[], ownerId: string, reason: string) => api.post<void>('/basedata/customer/transfer', { ids, ownerId, reason }),
  release: (ids: string[], reason: string) => api.post<void>('/basedata/customer/removePublicSea', { ids, reason }),
  claim: (ids: string[]) => api.post<void>('/basedata/customer/claimPublicSea', { ids }),
  lock: (ids: string[], locked: boolean) => api.post<void>('/basedata/customer/lock', { ids, locked }),
  ownerRecords: (customerId: string) => api.get<OwnerRecord[]>('/crm/customer/ownerRecords', { customerId }),
  owners: (name: string) => api.get<{ id: string; code: string; name: string }[]>('/crm/customer/owners', { name }),
  returnRemind: () => api.get<{ id: string; code: string; name: string; lastFollowTime: string | null; returnDate: string }[]>('/crm/customer/queryReturnRemind'),
  runReturn: () => api.post<{ total: number }>('/crm/sea/return', {}),
  actions: (query: Record<string, unknown>) => api.get<Page<ActionRow>>('/crm/action/query', query),
  createAction: (values: Record<string, unknown>) => api.post<string>('/crm/action/createAction', values),
  deleteActions: (ids: string[]) => api.delete<void>('/crm/action/delete', { ids }),
  exportActions: (query: Record<string, unknown>) => download('get', '/crm/action/export', { query }),
  figures: () => api.get<Record<string, number>>('/crm/data/query'),
  due: (days = 0) => api.get<{ customerId: string; name: string; nextFollowTime: string; nextContent: string | null; overdue: boolean }[]>('/crm/data/queryAction', { days }),
}

/** The paths of the customer pages below 客户管理 (spec 000 §2: add, modify, detail, print, H5, detailV2). */
export const customerPaths = {
  list: '/crm/customer',
  add: '/crm/customer/add',
  modify: (id: string) => `/crm/customer/modify/${id}`,
  detail: (id: string) => `/crm/customer/detail/${id}`,
  detailV2: (id: string) => `/crm/customer/detailV2/${id}`,
  print: (id: string) => `/crm/customer/print/${id}`,
  h5Add: '/crm/customer/h5/add',
  h5Detail: (id: string) => `/crm/customer/h5/detail/${id}`,
  h5Modify: (id: string) => `/crm/customer/h5/modify/${id}`,
}
