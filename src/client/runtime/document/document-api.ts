import { api, download, type Page } from '../../api/http.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { tr } from '../../i18n/use-tr.js'

/** One document as `GET {base}?id=` answers it: header values, `details` lines, maybe `payTypes`. */
export type DocumentRecord = EntityRow & { details?: Record<string, unknown>[]; payTypes?: Record<string, unknown>[] }

export interface TimelineEntry {
  id: string
  bizType: number
  content: string
  createBy: string
  createTime: string
}

/** The shared document family of 000 §7 "Document APIs" for one document's `api.base`. */
export function documentApi(entity: EntityModel) {
  const base = entity.file.api?.base
  if (!base) throw new Error(tr(`${entity.label}没有接口`))
  return {
    base,
    list: async (query: Record<string, unknown>) => {
      const page = await api.get<Page<EntityRow>>(`${base}/query`, query)
      return { rows: page.datas, total: page.totalCount }
    },
    get: (id: string) => api.get<DocumentRecord>(base, { id }),
    create: (body: Record<string, unknown>) => api.post<string>(base, body),
    modify: (body: Record<string, unknown>) => api.put<void>(base, body),
    createAndApprove: (body: Record<string, unknown>) => api.post<string>(`${base}/approve/pass/direct`, body),
    remove: (id: string) => api.delete<void>(base, { id }),
    removeBatch: (ids: string[]) => api.delete<void>(`${base}/batch`, ids),
    approvePass: (id: string) => api.patch<void>(`${base}/approve/pass`, { id }),
    approveRefuse: (id: string, refuseReason: string) => api.patch<void>(`${base}/approve/refuse`, { id, refuseReason }),
    approvePassBatch: (ids: string[]) => api.patch<void>(`${base}/approve/pass/batch`, { ids }),
    approveRefuseBatch: (ids: string[], refuseReason: string) => api.patch<void>(`${base}/approve/refuse/batch`, { ids, refuseReason }),
    exportFile: (query: Record<string, unknown>) => download('post', `${base}/export`, { query }),
  }
}

export type DocumentApi = ReturnType<typeof documentApi>

export const orderTimeline = (orderId: string) => api.get<TimelineEntry[]>('/component/timeline/order', { orderId })
