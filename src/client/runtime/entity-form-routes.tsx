import { lazy } from 'react'
import { loadedMeta } from '../api/meta.js'
import { ENTITY_COMPONENT_PREFIX, registerMenuResolver } from '../app/menu-pages.js'
import { hasOperation } from '../../shared/metadata/operation-keys.js'
import { formTitle } from './EntityFormModal.js'

const EntityFormPage = lazy(() => import('./EntityFormPage.js'))

/**
 * `add` and `modify/{id}` below every entity screen's menu (e.g. `/product/info/add`, spec 000 §2), for
 * an entity that can be created or modified; documents have their own pages (runtime/document).
 */
registerMenuResolver((menu, rest) => {
  const component = (menu.component ?? '').trim()
  if (!rest || !menu.path || !component.startsWith(ENTITY_COMPONENT_PREFIX)) return undefined
  const entityName = component.slice(ENTITY_COMPONENT_PREFIX.length).trim()
  const parts = rest.replace(/^\/+|\/+$/g, '').split('/')
  const mode = parts.length === 1 && parts[0] === 'add' ? 'add' : parts.length === 2 && parts[0] === 'modify' && parts[1] ? 'modify' : undefined
  if (!mode) return undefined
  let entity
  try {
    entity = loadedMeta()?.entity(entityName)
  } catch {
    return undefined
  }
  if (entity && (entity.file.document || !hasOperation(entity, mode === 'add' ? 'create' : 'modify'))) return undefined
  const listPath = menu.path.replace(/\/+$/, '')
  return {
    title: entity ? formTitle(entity, mode) : menu.meta.title,
    pattern: mode === 'add' ? 'add' : 'modify/:id',
    render: () => <EntityFormPage entityName={entityName} mode={mode} listPath={listPath} />,
  }
})
