import { api, download, type Page } from '../api/http.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { hasOperation } from '../../shared/metadata/operation-keys.js'
import { entityWritten } from '../api/entity-writes.js'
import { tr } from '../i18n/use-tr.js'

/** One record as the server answers it (wire names, ref labels beside the ids). */
export type EntityRow = Record<string, unknown> & { id: string }

export interface ListResult {
  rows: EntityRow[]
  total: number
}

/** Whether the list answers every row at once (trees) instead of pages. */
export const isUnpaged = (entity: EntityModel) => entity.file.views?.list?.paged === false

/** The calls of one entity's master-data family, derived from `api.base`. */
export function entityApi(entity: EntityModel) {
  const base = entity.file.api?.base
  if (!base) throw new Error(tr(`${entity.label}没有接口`))
  const written = async <T>(call: Promise<T>): Promise<T> => {
    const answer = await call
    entityWritten(entity.name)
    return answer
  }
  return {
    /** Pages for normal lists; trees answer a plain array (from `/trees` when the entity has no `/query`). */
    async list(query: Record<string, unknown>): Promise<ListResult> {
      if (isUnpaged(entity)) {
        const { pageIndex: _i, pageSize: _s, ...rest } = query
        const path = hasOperation(entity, 'query') ? `${base}/query` : `${base}/trees`
        const rows = await api.get<EntityRow[]>(path, rest)
        return { rows, total: rows.length }
      }
      const page = await api.get<Page<EntityRow>>(`${base}/query`, query)
      return { rows: page.datas, total: page.totalCount }
    },
    get: (id: string) => api.get<EntityRow>(base, { id }),
    create: (values: Record<string, unknown>) => written(api.post<string>(base, values)),
    modify: (values: Record<string, unknown>) => written(api.put<void>(base, values)),
    remove: (ids: string[]) => written(api.delete<void>(base, ids.length === 1 ? { id: ids[0] } : { ids })),
    enable: (ids: string[]) => written(api.patch<void>(`${base}/enable/batch`, ids)),
    unable: (ids: string[]) => written(api.patch<void>(`${base}/unable/batch`, ids)),
    exportFile: (query: Record<string, unknown>) => download('post', `${base}/export`, { query }),
  }
}

export type EntityApi = ReturnType<typeof entityApi>
