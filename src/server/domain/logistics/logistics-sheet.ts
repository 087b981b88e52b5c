import type { Db } from '../../db/dialect.js'
import type { DocumentHooks } from '../../engine/document-store.js'
import type { Wire } from '../../engine/record-codec.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { LOGISTICS_SHEET_STATUS } from '../../../shared/generated/enum-codes.js'
import { regionByCode } from '../../../shared/region/regions.js'
import { invalid } from '../../platform/errors.js'
import { updateColumns } from '../../platform/audit-columns.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { lockRows } from '../../db/row-locks.js'
import { describeShipped, findShipped, LOGISTICS_DETAIL_TABLE, LOGISTICS_TABLE, shippableStatuses, SHIPPED_KINDS } from './documents.js'

/** An address's district (third level) and the province and city above it, or the Chinese refusal. */
function placeAddress(header: Wire, side: 'sender' | 'receiver', label: string) {
  const field = `${side}DistrictId`
  const code = header[field]
  if (isBlank(code)) return
  const district = regionByCode(String(code).trim())
  const city = district?.parentId ? regionByCode(district.parentId) : undefined
  if (!district || district.level !== 3 || !city?.parentId) throw invalid(`${label}地区不存在，请选择省/市/区`, field)
  header[field] = district.code
  header[`${side}CityId`] = city.code
  header[`${side}ProvinceId`] = city.parentId
}

/**
 * Takes the row lock of a 待发货 sheet (a guarded touch), so a delivery cannot slip in between the
 * check and the change; answers false when the sheet is no longer 待发货.
 */
async function holdCreated(trx: Db, ctx: RequestContext, id: string): Promise<boolean> {
  const done = await trx
    .updateTable(LOGISTICS_TABLE)
    .set(updateColumns(ctx))
    .where('id', '=', id)
    .where('status', '=', LOGISTICS_SHEET_STATUS.CREATED)
    .executeTakeFirst()
  return Number(done.numUpdatedRows) === 1
}

/**
 * Logistics sheets (物流单): lines are sale out or retail out sheets that may ship (approved, or awaiting
 * approval where the configuration requires logistics), within the caller's data permission, on no
 * other logistics sheet (the documents are locked first, so two sheets saving the same document
 * serialise and the second is refused with the ancestor's message). The line's 业务类型 comes from the
 * document, never from the client. Status starts 待发货; once 已发货 nothing changes any more.
 */
export function logisticsSheetHooks(services: Services): DocumentHooks {
  return {
    async prepare(e) {
      if (e.mode === 'modify') {
        if (Number(e.existing?.status) !== LOGISTICS_SHEET_STATUS.CREATED || !(await holdCreated(e.trx, e.ctx, String(e.existing?.id))))
          throw invalid('物流单已发货，无法修改！')
      } else e.header.status = LOGISTICS_SHEET_STATUS.CREATED
      placeAddress(e.header, 'sender', '寄件人')
      placeAddress(e.header, 'receiver', '收件人')
      const ids = e.lines.map((l) => l.bizId).filter((v): v is string => typeof v === 'string' && v !== '')
      const docs = await findShipped(e.trx, ids, { store: services.store, ctx: e.ctx })
      for (const kind of SHIPPED_KINDS)
        await lockRows(e.trx, kind.table, [...docs.values()].filter((d) => d.kind === kind).map((d) => d.id))
      const allowed = new Map<number, number[]>()
      for (const kind of SHIPPED_KINDS) allowed.set(kind.bizType, await shippableStatuses(services, e.trx, e.ctx, kind))
      const taken = ids.length
        ? await e.trx
            .selectFrom(`${LOGISTICS_DETAIL_TABLE} as d`)
            .innerJoin(`${LOGISTICS_TABLE} as s`, 's.id', 'd.sheet_id')
            .select(['d.biz_id', 's.code'])
            .where('d.biz_id', 'in', ids)
            .where('d.sheet_id', '<>', e.mode === 'modify' ? String(e.existing?.id) : '')
            .execute()
        : []
      e.lines.forEach((line, i) => {
        if (isBlank(line.bizId)) return
        const doc = docs.get(String(line.bizId))
        if (!doc) throw invalid(`第${i + 1}行业务单据不存在！`, 'bizId')
        line.bizType = doc.kind.bizType
        if (taken.some((t) => String(t.biz_id) === doc.id)) throw invalid(`${doc.kind.subject}【${doc.code}】已关联物流单，不允许再次关联物流单`, 'bizId')
        if (!allowed.get(doc.kind.bizType)?.includes(doc.status)) throw invalid(`${doc.kind.subject}【${doc.code}】尚未审核通过，无法发货！`, 'bizId')
      })
    },

    async remove(e) {
      if (Number(e.existing?.status) !== LOGISTICS_SHEET_STATUS.CREATED || !(await holdCreated(e.trx, e.ctx, e.id)))
        throw invalid('已发货的物流单不允许执行删除操作！')
    },

    async decorate(db, _ctx, _doc, answer) {
      const details = (answer.details as Wire[] | undefined) ?? []
      const described = await describeShipped(db, details.map((d) => String(d.bizId)))
      for (const d of details) Object.assign(d, described.get(String(d.bizId)) ?? { bizCode: null }, { bizType: d.bizType })
    },
  }
}
