import type { FastifyReply } from 'fastify'
import { sendXlsxStream, type SheetColumn } from '../../engine/list-export.js'

export type { SheetColumn }

/** Rows of 50,000 at most for the hand-written reports that still load their rows at once (the engine's list exports stream every row). */
export const EXPORT_LIMIT = 50000

/**
 * Sends rows as an .xlsx download named after the sheet (the blob answer of the spec's exports), written
 * with the streaming writer (engine/list-export.ts): the reply never holds the whole file. `rows` may
 * come in slices (an async sequence of arrays) so a caller can page its query instead of loading it.
 */
export async function sendWorkbook(
  reply: FastifyReply,
  title: string,
  columns: SheetColumn[],
  rows: Record<string, unknown>[] | AsyncIterable<Record<string, unknown>[]>,
  total?: number,
) {
  return sendXlsxStream(reply, title, columns, Array.isArray(rows) ? [rows] : rows, total ?? (Array.isArray(rows) ? rows.length : undefined))
}

/** Query string and JSON body together: exports are called as GET or POST. */
export function exportValues(query: Record<string, unknown>, body: unknown): Record<string, unknown> {
  return { ...query, ...(body && typeof body === 'object' && !Array.isArray(body) ? (body as object) : {}) }
}
