import type { MenuNode } from '../../../shared/contracts/menu-node.js'
import type { MenuEntry } from '../../app/menus.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'

const ENTITY_PREFIX = 'entity:'
const QUERY_SUFFIX = ':query'

/**
 * The document a list menu shows: the menu component `entity:<name>`, or else the document whose
 * `api.permission` is the menu's permission without `:query` (menu 采购订单管理 `purchase:order:query`
 * → purchaseOrder). So a new document file is reachable from its seeded menu with no client change.
 */
export function documentOfMenu(documents: readonly EntityModel[], menu: Pick<MenuNode, 'component' | 'permission'>): EntityModel | undefined {
  const component = (menu.component ?? '').trim()
  if (component.startsWith(ENTITY_PREFIX)) {
    const name = component.slice(ENTITY_PREFIX.length).trim()
    return documents.find((d) => d.name === name)
  }
  const permission = menu.permission?.trim()
  if (!permission?.endsWith(QUERY_SUFFIX)) return undefined
  const prefix = permission.slice(0, -QUERY_SUFFIX.length)
  return documents.find((d) => d.file.api?.permission === prefix)
}

/** The path of the user's menu listing this entity (its pages are below it), if they have one. */
export function listPathOf(entity: EntityModel, entries: readonly MenuEntry[]): string | undefined {
  const entry = entries.find((e) => e.menu.path && documentOfMenu([entity], e.menu) === entity)
  return entry?.menu.path?.replace(/\/+$/, '') || undefined
}
