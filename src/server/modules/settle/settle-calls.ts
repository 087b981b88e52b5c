import type { Services } from '../../engine/services.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { inTransaction } from '../../platform/db-tx.js'
import { BizError, invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Wire } from '../../engine/record-codec.js'

/** Most records one createMore call may carry. */
export const CREATE_MORE_LIMIT = 200

/** The entity's list (its schema's query params and columns, plus `extra`), paged unless `paged` is false. */
export function entityList(services: Services, ctx: RequestContext, entity: EntityModel, query: Record<string, unknown>, extra: QueryParam[] = [], paged = true) {
  const list = entity.file.views?.list
  return services.store.list(ctx.db, ctx, entity, {
    params: [...(list?.query ?? []), ...extra],
    columns: list?.columns,
    values: query,
    paged,
    sort: list?.sort,
  })
}

/** The records of a createMore body: a JSON array, or `{list: [...]}`. */
export function manyBodies(body: unknown, what: string): Wire[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? (body as Record<string, unknown>).list : undefined
  if (!Array.isArray(list) || !list.length) throw invalid(`请添加${what}`)
  if (list.length > CREATE_MORE_LIMIT) throw invalid(`一次最多保存${CREATE_MORE_LIMIT}条${what}`)
  return list.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalid(`第${i + 1}条${what}格式不正确`)
    return item as Wire
  })
}

/** Runs `work` for each record in one transaction; the first refusal names the record and rolls all back. */
export async function allOrNothing(ctx: RequestContext, records: Wire[], work: (trx: RequestContext['db'], record: Wire) => Promise<string>) {
  return inTransaction(ctx.db, async (trx) => {
    const ids: string[] = []
    for (const [i, record] of records.entries()) {
      try {
        ids.push(await work(trx, record))
      } catch (error) {
        if (error instanceof BizError && error.status === 400) throw invalid(`第${i + 1}条：${error.message}`, error.field)
        throw error
      }
    }
    return ids
  })
}
