import dayjs from 'dayjs'
import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'

/**
 * The next document number, `yyyyMMdd` + a 10-digit daily sequence (domain-rules §2.8; all document
 * kinds share one counter per tenant). The upsert runs in the document's transaction: its row lock
 * (PostgreSQL) or the single writer (SQLite) makes numbers unique across requests and processes,
 * and a rolled-back document gives its number back.
 */
export async function nextDocumentNumber(trx: Db): Promise<string> {
  const day = dayjs().format('YYYYMMDD')
  const row = await trx
    .insertInto('sys_document_number')
    .values({ day, value: 1 })
    .onConflict((oc) => oc.column('day').doUpdateSet({ value: sql`sys_document_number.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow()
  return `${day}${String(row.value).padStart(10, '0')}`
}
