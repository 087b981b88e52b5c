import { lazy } from 'react'
import { loadedMeta } from '../../api/meta.js'
import { registerMenuResolver } from '../../app/menu-pages.js'
import { singletonOfMenu } from './singleton-menus.js'

const SingletonPage = lazy(() => import('./SingletonPage.js'))

/** Every settings menu of a singleton entity (参数设置) opens its one-row form. */
registerMenuResolver((menu, rest) => {
  const meta = loadedMeta()
  if (!meta || rest || !menu.path) return undefined
  const entity = singletonOfMenu(meta.all(), menu)
  if (!entity) return undefined
  return { title: menu.meta.title || entity.label, pattern: '', render: () => <SingletonPage entityName={entity.name} /> }
})
