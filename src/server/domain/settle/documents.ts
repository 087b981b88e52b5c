import Decimal from 'decimal.js'
import { SETTLE_FEE_SHEET_TYPE } from '../../../shared/generated/enum-codes.js'
import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import type { RequestContext } from '../../platform/request-context.js'
import { invalid } from '../../platform/errors.js'
import { today } from '../../platform/clock.js'

/** 收支方向 (SETTLE_FEE_SHEET_TYPE). */
export const Direction = SETTLE_FEE_SHEET_TYPE

/** The business documents settlement looks up by kind and number, and what it needs of each. */
export interface SettleDocumentKind {
  /** Document (header entity) name in schemas/documents. */
  document: string
  party: 'supplierId' | 'customerId'
  /** Direction when nothing is configured: goods in are paid, goods out are received, returns the other way. */
  direction: number
}

/** SETTLE_PAYMENT_ORDER_KIND codes. */
export const PAYMENT_ORDER_KINDS: Record<number, SettleDocumentKind> = {
  1: { document: 'purchaseOrder', party: 'supplierId', direction: Direction.PAY },
  2: { document: 'receiveSheet', party: 'supplierId', direction: Direction.PAY },
  3: { document: 'purchaseReturn', party: 'supplierId', direction: Direction.RECEIVE },
  4: { document: 'saleOrder', party: 'customerId', direction: Direction.RECEIVE },
  5: { document: 'saleOutSheet', party: 'customerId', direction: Direction.RECEIVE },
  6: { document: 'saleReturn', party: 'customerId', direction: Direction.PAY },
}

/** SETTLE_INVOICE_BIZ_TYPE codes: 开票 for out sheets (销项), received for receive sheets (进项). */
export const INVOICE_BIZ_KINDS: Record<number, SettleDocumentKind> = {
  1: { document: 'saleOutSheet', party: 'customerId', direction: Direction.RECEIVE },
  2: { document: 'receiveSheet', party: 'supplierId', direction: Direction.PAY },
}

export interface SettleDocument {
  id: string
  code: string
  status: number
  total: Decimal
  supplierId: string | null
  customerId: string | null
  /** 付款日期 where the document has one, else today. */
  dueDate: string
}

/** Statuses of a document that is not (yet) approved: 0 pending, 6 refused. */
const NOT_APPROVED = [0, 6]

/**
 * The document of `kind` numbered `code`, as the caller may see it (the store's data-permission
 * predicate applies), locked for the rest of the transaction on PostgreSQL so that sums over what
 * hangs on it (plans, invoices) are read and extended by one request at a time (SQLite has one writer).
 * `approvedOnly`: status 3 exactly (invoices); otherwise any status after approval (an order may
 * already be partly received or ended).
 */
export async function lockSettleDocument(
  services: Services,
  trx: Db,
  ctx: RequestContext,
  kind: SettleDocumentKind,
  kindLabel: string,
  code: unknown,
  approvedOnly = false,
): Promise<SettleDocument> {
  if (typeof code !== 'string' || !code.trim()) throw invalid('请输入单据号', 'orderCode')
  const entity = services.registry.get(kind.document)
  const party = entity.byName.get(kind.party)
  const visible = await (await services.store.rows(trx, ctx, entity)).select('t.id').where('t.code', '=', code.trim()).executeTakeFirst()
  if (!visible) throw invalid(`${kindLabel}不存在：${code.trim()}`, 'orderCode')
  let q = trx.selectFrom(entity.table).selectAll().where('id', '=', String(visible.id))
  if (services.databases.kind === 'postgres') q = q.forUpdate()
  const row = (await q.executeTakeFirstOrThrow()) as Record<string, unknown>
  const status = Number(row.status)
  if (approvedOnly ? status !== 3 : NOT_APPROVED.includes(status))
    throw invalid(`${kindLabel}：${row.code}未审核通过，无法办理！`, 'orderCode')
  const partyId = party ? (row[party.column] as string | null) : null
  const paymentDate = row.payment_date
  return {
    id: String(row.id),
    code: String(row.code),
    status,
    total: new Decimal(String(row.total_amount ?? 0)),
    supplierId: kind.party === 'supplierId' ? partyId : null,
    customerId: kind.party === 'customerId' ? partyId : null,
    dueDate: typeof paymentDate === 'string' && paymentDate ? paymentDate.slice(0, 10) : today(),
  }
}
