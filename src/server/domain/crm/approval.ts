import type { Db } from '../../db/dialect.js'
import { CRM_BUSINESS_STATUS, WEBHOOK_EVENT } from '../../../shared/generated/enum-codes.js'
import { announceApproval } from '../../webhooks/approval-events.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityHooks } from '../../engine/entity-hooks.js'
import type { EntityStore } from '../../engine/entity-store.js'
import { invalid } from '../../platform/errors.js'
import { now } from '../../platform/clock.js'
import { updateColumns } from '../../platform/audit-columns.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { assertNotOwnApproval } from '../../platform/separation-of-duties.js'
import type { RequestContext } from '../../platform/request-context.js'

/** CRM_BUSINESS_STATUS / CRM_CONTRACT_STATUS share the codes of 001 §4: 0 pending, 3 passed, 6 refused. */
export const CRM_STATUS = CRM_BUSINESS_STATUS

/**
 * The approval rules shared by opportunities and contracts: a new record is pending and owned by its
 * creator unless an owner is chosen; a passed record can be neither modified nor deleted; modifying a
 * refused one submits it again (pending).
 */
export function approvalHooks(subject: string, ownerField: string): EntityHooks {
  return {
    async beforeSave({ ctx, mode, values, existing }) {
      if (mode === 'create' && !values[ownerField]) values[ownerField] = ctx.userId
      if (mode === 'modify' && Number(existing?.status) === CRM_STATUS.APPROVE_PASS) throw invalid(`${subject}已审核通过，无法修改！`)
    },
    async afterSave({ trx, entity, mode, id, existing }) {
      if (mode === 'create' || Number(existing?.status) === CRM_STATUS.APPROVE_REFUSE)
        await trx.updateTable(entity.table).set({ status: CRM_STATUS.CREATED, refuse_reason: null }).where('id', '=', id).execute()
    },
    async beforeDelete({ trx, entity, ids }) {
      const passed = await trx.selectFrom(entity.table).select('id').where('id', 'in', ids).where('status', '=', CRM_STATUS.APPROVE_PASS).executeTakeFirst()
      if (passed) throw invalid(`${subject}已审核通过，无法删除！`)
    },
  }
}

export interface ApproveInput {
  id?: unknown
  /** 3 pass (default) or 6 refuse. */
  status?: unknown
  refuseReason?: unknown
}

/**
 * Approves or refuses one pending record with a single guarded statement (`where status = 0`), so two
 * approvers at once cannot both act on it; the loser reads the record's new state.
 */
export async function approveRecord(
  trx: Db,
  ctx: RequestContext,
  store: EntityStore,
  entity: EntityModel,
  subject: string,
  input: ApproveInput,
  before?: (record: Record<string, unknown>, pass: boolean) => Promise<void>,
): Promise<void> {
  const record = await store.get(trx, ctx, entity, input.id)
  const raw = input.status ?? CRM_STATUS.APPROVE_PASS
  const status = Number(raw)
  if (status !== CRM_STATUS.APPROVE_PASS && status !== CRM_STATUS.APPROVE_REFUSE) throw invalid('审核状态不正确', 'status')
  const reason = typeof input.refuseReason === 'string' ? input.refuseReason.trim() : ''
  if (reason.length > 200) throw invalid('审核意见长度不能超过200个字符', 'refuseReason')
  if (status === CRM_STATUS.APPROVE_REFUSE && !reason) throw invalid('请输入拒绝理由', 'refuseReason')
  const current = Number(record.status)
  if (current === CRM_STATUS.APPROVE_PASS) throw invalid(`${subject}已审核通过，不允许重复审核！`)
  if (current === CRM_STATUS.APPROVE_REFUSE) throw invalid(`${subject}已审核拒绝，请修改后重新提交！`)
  await assertNotOwnApproval(trx, ctx, record.createById, subject)
  if (before) await before(record, status === CRM_STATUS.APPROVE_PASS)
  const scope = await store.scope(trx, ctx, entity)
  const done = await trx
    .updateTable(entity.table)
    .set({ status, approve_by: ctx.name, approve_time: now(), refuse_reason: reason || null, ...updateColumns(ctx) })
    .where('id', '=', String(record.id))
    .where('status', '=', CRM_STATUS.CREATED)
    .where(scope)
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid(`${subject}已被其他人审核，请刷新后重试！`)
  await writeOpLog(trx, ctx, `${status === CRM_STATUS.APPROVE_PASS ? '审核通过' : '审核拒绝'}${subject}`, OpLogType.OTHER, { id: record.id })
  const passed = status === CRM_STATUS.APPROVE_PASS
  await announceApproval(trx, ctx, passed ? WEBHOOK_EVENT.DOCUMENT_APPROVED : WEBHOOK_EVENT.DOCUMENT_REFUSED, { kind: entity.name, subject, id: record.id, code: record.code }, passed ? { status } : { status, refuseReason: reason })
}
