import { api, download, type Page } from '../../api/http.js'
import type { PaymentRow } from '../../../shared/contracts/contract-payment.js'

export type { PaymentRow }

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

export interface ContractFile {
  id: string
  contractId: string
  fileName: string
  url: string
  fileSize: number | null
  createBy: string | null
  createTime: string | null
}

export type Row = Record<string, unknown> & { id: string }

export interface MemorialRow extends Row {
  title: string
  memorialDate: string
  nextDate: string | null
  daysLeft: number | null
}

/** The CRM deal calls the screens make (001 §7 CRM): one place, typed. */
export const crmApi = {
  approve: (kind: 'business' | 'contract', id: string, status: 3 | 6, refuseReason?: string) =>
    api.post<void>(`/crm/${kind}/approve`, { id, status, refuseReason }),
  business: (id: string) => api.get<Row>('/crm/business', { id }),
  businessPage: (query: Record<string, unknown>) => api.get<Page<Row>>('/crm/business/query', query),
  contract: (id: string) => api.get<Row>('/crm/contract', { id }),
  contractPage: (query: Record<string, unknown>) => api.post<Page<Row>>('/crm/contract/query', query),
  payment: (query: Record<string, unknown>) => api.get<PaymentPage>('/crm/contract/queryPayment', query),
  savePlans: (contractId: string, plans: PlanInput[]) => api.post<PaymentPage>('/crm/contract/plan', { contractId, plans }),
  receive: (body: { planId: string; amount: string; receiveDate: string; payMethod?: string; description?: string }) => api.post<string>('/crm/contract/receive', body),
  removeReceive: (id: string) => api.delete<void>('/crm/contract/receive', { id }),
  parents: (id: string) => api.get<Row[]>('/crm/contract/queryParent', { id }),
  files: (contractId: string) => api.get<ContractFile[]>('/crm/contract/queryFile', { contractId }),
  upload: (file: File) => {
    const body = new FormData()
    body.append('file', file)
    return api.post<string>('/crm/contract/upload', undefined, { body })
  },
  createFile: (contractId: string, url: string, fileName: string, fileSize: number) => api.get<string>('/crm/contract/createFile', { contractId, url, fileName, fileSize }),
  removeFile: (id: string) => api.get<void>('/crm/contract/fileRemoveId', { id }),
  downloadFile: (url: string) => download('get', url.replace(/^\/cloud-api/, '')),
  contactsOf: (customerId: string) => api.get<Page<Row>>('/crm/contact/queryPageResult', { customerId, pageSize: 100 }),
  memorials: (query: Record<string, unknown>) => api.get<Page<MemorialRow>>('/basedata/memorial/query', query),
  reminders: (hideError = false) => api.get<MemorialRow[]>('/basedata/memorial/myRemindQuery', undefined, { hideError }),
  share: (id: string, userIds: string[]) => api.post<void>('/basedata/memorial/share', { id, userIds }),
  removeMemorial: (ids: string[]) => api.delete<void>('/basedata/memorial/delete', { ids }),
}
