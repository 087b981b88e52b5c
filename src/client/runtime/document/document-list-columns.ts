import type { ListColumn } from '../../../shared/generated/entity.js'

/**
 * What a document list shows first, whatever else its file declares: the number, the state and the
 * total amount (columns the engine gives every document: `code`, `status`, and `totalAmount` where the
 * document has a total). The rest follow in their declared order, so the facts a clerk scans a list for
 * are in view on a 1440 px screen without scrolling, and the audit columns scroll under 操作 instead.
 */
export const DOCUMENT_LEAD_COLUMNS = ['code', 'status', 'totalAmount'] as const

const fieldOf = (c: ListColumn) => (typeof c === 'string' ? c : c.field)

export function documentListColumns(columns: readonly ListColumn[]): ListColumn[] {
  const lead = DOCUMENT_LEAD_COLUMNS.flatMap((name) => columns.filter((c) => fieldOf(c) === name && (typeof c === 'string' || c.show !== 'code')))
  return [...lead, ...columns.filter((c) => !lead.includes(c))]
}
