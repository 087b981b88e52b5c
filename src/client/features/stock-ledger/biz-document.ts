import type { MenuEntry } from '../../app/menus.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'
import { listPathOf } from '../../runtime/document/document-menus.js'

/** The business-type enumeration of the stock ledger; each code names the entity it posts from (enums.json `entity`). */
export const STOCK_BIZ_TYPE_ENUM = 'STOCK_BIZ_TYPE'

/** The entity behind a ledger row's business type, as schemas/enums.json declares it. */
export function bizEntityName(enums: EnumCatalog, bizType: unknown): string | undefined {
  return enums.items(STOCK_BIZ_TYPE_ENUM).find((i) => String(i.code) === String(bizType))?.entity
}

/**
 * Where a row of the ledger opens its document: the menu that lists that entity (found as the document
 * screens find theirs, so a renamed menu path still works), then `detail/{id}` for a document with a
 * page, or the menu's page with `?id=` for a record shown in a dialog (a take-stock plan). Undefined
 * when the user has no such menu.
 */
export function bizDocumentPath(entity: EntityModel | undefined, entries: readonly MenuEntry[], bizId: unknown): string | undefined {
  if (!entity || bizId === null || bizId === undefined || bizId === '') return undefined
  const path = listPathOf(entity, entries)
  if (!path) return undefined
  const id = encodeURIComponent(String(bizId))
  return entity.file.document ? `${path}/detail/${id}` : `${path}?id=${id}`
}
