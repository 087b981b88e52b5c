import type { EntityModel } from '../../../shared/metadata/entity-model.js'

/**
 * The singleton entity a settings menu shows: its permission is the entity's `api.permission` plus
 * `:modify` (采购参数设置 `purchase:config:modify` → purchaseConfig), or its component is `entity:<name>`.
 */
export function singletonOfMenu(entities: readonly EntityModel[], menu: { component?: string | null; permission?: string | null }): EntityModel | undefined {
  const singletons = entities.filter((e) => e.file.singleton && e.file.api)
  const component = (menu.component ?? '').trim()
  if (component.startsWith('entity:')) return singletons.find((e) => e.name === component.slice('entity:'.length).trim())
  const permission = menu.permission?.trim()
  if (!permission?.endsWith(':modify')) return undefined
  return singletons.find((e) => `${e.file.api!.permission}:modify` === permission)
}
