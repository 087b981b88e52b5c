import { download } from '../api/http.js'
import { call } from '../api/call.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { entityCalls, type EntityQuery, type EntityRecord } from '../../shared/contracts/entity-calls.js'
import { entityWritten } from '../api/entity-writes.js'
import { tr } from '../i18n/use-tr.js'

/** One record as the server answers it (wire names, ref labels beside the ids). */
export type EntityRow = EntityRecord

/** The calls of one entity's master-data family (`shared/contracts/entity-calls.ts`), for its form and list buttons. */
export function entityApi(entity: EntityModel) {
  const base = entity.file.api?.base
  if (!base) throw new Error(tr(`${entity.label}没有接口`))
  const calls = entityCalls(base)
  const written = async <T>(answer: Promise<T>): Promise<T> => {
    const value = await answer
    entityWritten(entity.name)
    return value
  }
  return {
    get: (id: string) => call(calls.get, { id }),
    create: (values: Record<string, unknown>) => written(call(calls.create, values)),
    modify: (values: Record<string, unknown> & { id: string }) => written(call(calls.modify, values)),
    remove: (ids: string[]) => written(call(calls.delete, ids.length === 1 ? { id: ids[0] } : { ids })),
    enable: (ids: string[]) => written(call(calls.enable, ids)),
    unable: (ids: string[]) => written(call(calls.unable, ids)),
    exportFile: (query: EntityQuery) => download('post', calls.export.path, { query }),
  }
}

export type EntityApi = ReturnType<typeof entityApi>
