import type { DocumentEvent } from '../../engine/document-store.js'
import { invalid } from '../../platform/errors.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'

/**
 * Approval re-checks "only one document may follow this source" (the config may have changed since the
 * document was created; the ancestor checks at create and at approve).
 */
export async function requireSingleFollower(registry: EntityRegistry, e: DocumentEvent & { id: string }, headerField: string, message: string) {
  const sourceId = e.header[headerField]
  if (!sourceId) return
  const field = e.doc.header.byName.get(headerField)!
  const other = await e.trx
    .selectFrom(e.doc.header.table)
    .select('id')
    .where(field.column, '=', String(sourceId))
    .where('id', '<>', e.id)
    .executeTakeFirst()
  if (!other) return
  const source = registry.get(field.ref as string)
  const row = await e.trx.selectFrom(source.table).select('code').where('id', '=', String(sourceId)).executeTakeFirst()
  throw invalid(message.replace('{code}', String(row?.code ?? '')))
}
