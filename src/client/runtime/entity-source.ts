import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { entityCalls } from '../../shared/contracts/entity-calls.js'
import { hasOperation, operationKeys } from '../../shared/metadata/operation-keys.js'
import { entityColumns } from './list-columns.js'
import type { ListSource } from './list-source.js'
import { documentListColumns } from './document/document-list-columns.js'

/**
 * The list of an entity as a source like any declared view: its `{api.base}/query` (or `/trees`),
 * its list view's search params, columns, order, tree and buttons, and the permission of each.
 */
export function entitySource(entity: EntityModel): ListSource {
  const list = entity.file.views?.list
  const calls = entityCalls(entity.file.api?.base ?? '')
  const paged = list?.paged !== false
  const listOp = hasOperation(entity, 'query') ? 'query' : 'trees'
  const toolbar = list?.toolbar ?? []
  return {
    name: 'entity-list',
    // A tree without `/query` reads `/trees`.
    path: paged ? calls.query.path : calls[listOp].path,
    entity: entity.name,
    query: list?.query ?? [],
    columns: entityColumns(entity, entity.file.document ? documentListColumns(list?.columns ?? []) : (list?.columns ?? []), true),
    paged,
    tree: !paged && entity.parentField ? { parentField: entity.parentField, expanded: list?.treeExpanded !== false } : undefined,
    sort: list?.sort && { field: list.sort.field, order: list.sort.order ?? 'asc' },
    permission: hasOperation(entity, listOp) && operationKeys(entity, listOp),
    export:
      toolbar.includes('export') && hasOperation(entity, 'export')
        ? { path: calls.export.path, method: 'post', permission: operationKeys(entity, 'export') }
        : undefined,
    actions: { toolbar, row: list?.row ?? [] },
  }
}
