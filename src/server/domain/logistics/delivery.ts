import type { Db } from '../../db/dialect.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import type { Wire } from '../../engine/record-codec.js'
import { checkField, isBlank } from '../../../shared/metadata/validate-record.js'
import { LOGISTICS_SHEET_STATUS } from '../../../shared/generated/enum-codes.js'
import { now } from '../../platform/clock.js'
import { invalid } from '../../platform/errors.js'
import { updateColumns } from '../../platform/audit-columns.js'
import { OpLogType, writeOpLog } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { LOGISTICS_TABLE } from './documents.js'

/** What a delivery sets: the carrier (logistics company), the tracking number and the fee. */
export interface DeliveryInput {
  id: unknown
  logisticsCompanyId?: unknown
  logisticsNo?: unknown
  totalAmount?: unknown
}

/** `GET /logistics/sheet/delivery`: the sheet's number, status, carrier, tracking number and fee. */
export async function deliveryInfo(services: Services, db: Db, ctx: RequestContext, doc: DocumentModel, id: unknown): Promise<Wire> {
  const sheet = await services.documents.header(db, ctx, doc, id)
  const company = await db.selectFrom('base_data_logistics_company').select(['code', 'name']).where('id', '=', String(sheet.logisticsCompanyId)).executeTakeFirst()
  return {
    id: sheet.id,
    code: sheet.code,
    status: sheet.status,
    logisticsCompanyId: sheet.logisticsCompanyId,
    logisticsCompanyCode: company?.code ?? null,
    logisticsCompanyName: company?.name ?? null,
    logisticsNo: sheet.logisticsNo ?? null,
    totalAmount: sheet.totalAmount ?? null,
    deliveryBy: sheet.deliveryBy ?? null,
    deliveryTime: sheet.deliveryTime ?? null,
  }
}

/**
 * Delivers a logistics sheet (物流单发货): 待发货 → 已发货 with one guarded UPDATE (status = 0 and the
 * caller's data permission), recording who and when, the carrier (the stored one unless another is
 * chosen; it must exist and be enabled), the tracking number (required: sent or already on the sheet)
 * and the fee when sent. A delivered sheet refuses a second delivery (物流单已发货，无法重复发货！).
 */
export async function deliver(services: Services, trx: Db, ctx: RequestContext, doc: DocumentModel, input: DeliveryInput): Promise<void> {
  const sheet = await services.documents.header(trx, ctx, doc, input.id)
  if (Number(sheet.status) !== LOGISTICS_SHEET_STATUS.CREATED) throw invalid('物流单已发货，无法重复发货！')
  const set: Record<string, unknown> = {}
  const companyId = isBlank(input.logisticsCompanyId) ? sheet.logisticsCompanyId : input.logisticsCompanyId
  if (typeof companyId !== 'string') throw invalid('物流公司不能为空', 'logisticsCompanyId')
  const company = await trx.selectFrom('base_data_logistics_company').select(['id', 'available']).where('id', '=', companyId).executeTakeFirst()
  if (!company) throw invalid('物流公司不存在', 'logisticsCompanyId')
  if (companyId !== sheet.logisticsCompanyId && !services.codec.fromRow(services.registry.get('logisticsCompany'), company).available)
    throw invalid('物流公司已停用', 'logisticsCompanyId')
  set.logistics_company_id = companyId
  const number = isBlank(input.logisticsNo) ? sheet.logisticsNo : typeof input.logisticsNo === 'string' ? input.logisticsNo.trim() : input.logisticsNo
  if (isBlank(number)) throw invalid('物流单号不能为空', 'logisticsNo')
  const numberField = doc.header.byName.get('logisticsNo')!
  const numberProblem = checkField(numberField, number, services.registry.enums, 'modify')
  if (numberProblem) throw invalid(numberProblem, 'logisticsNo')
  set.logistics_no = String(number)
  if (!isBlank(input.totalAmount)) {
    const amountField = doc.header.byName.get('totalAmount')!
    const problem = checkField(amountField, input.totalAmount, services.registry.enums, 'modify')
    if (problem) throw invalid(problem, 'totalAmount')
    set.total_amount = services.codec.toColumn(amountField, input.totalAmount)
  }
  const done = await trx
    .updateTable(LOGISTICS_TABLE)
    .set({ ...set, status: LOGISTICS_SHEET_STATUS.DELIVERY, delivery_by: ctx.name, delivery_time: now(), ...updateColumns(ctx) })
    .where('id', '=', String(sheet.id))
    .where('status', '=', LOGISTICS_SHEET_STATUS.CREATED)
    .where(await services.store.scope(trx, ctx, doc.header))
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid('物流单信息已过期，请刷新重试！')
  await writeOpLog(trx, ctx, `物流单发货，单号：${String(sheet.code)}`, OpLogType.OTHER, { id: sheet.id })
}
