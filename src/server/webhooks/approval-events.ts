import type { Db } from '../db/dialect.js'
import type { RequestContext } from '../platform/request-context.js'
import { WEBHOOK_EVENT } from '../../shared/generated/enum-codes.js'
import { emitWebhookEvent } from './webhook-outbox.js'

/** A change of approval state a receiver is told of. */
export type ApprovalEvent = typeof WEBHOOK_EVENT.DOCUMENT_APPROVED | typeof WEBHOOK_EVENT.DOCUMENT_REFUSED | typeof WEBHOOK_EVENT.DOCUMENT_CANCELLED

/** The record whose approval changed: its kind (document or entity name), its subject, id and number. */
export interface ApprovedRecord {
  kind: string
  subject: string
  id: unknown
  code?: unknown
}

/**
 * The webhook event of an approval (approved, refused, approval cancelled), into the outbox of the
 * action's transaction. Every path that approves (the document engine, CRM's opportunities and contracts)
 * announces through here, so a receiver gets one shape whatever approved the record.
 */
export async function announceApproval(trx: Db, ctx: RequestContext, event: ApprovalEvent, record: ApprovedRecord, extra: Record<string, unknown>): Promise<void> {
  await emitWebhookEvent(trx, event, { document: record.kind, subject: record.subject, id: record.id, code: record.code ?? null, ...extra }, ctx, ctx.settings)
}
