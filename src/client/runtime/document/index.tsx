import { lazy } from 'react'
import { loadedMeta } from '../../api/meta.js'
import { registerMenuResolver } from '../../app/menu-pages.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { documentOfMenu } from './document-menus.js'
import { documentPageTitle, parseDocumentRoute } from './document-routes.js'
import { tr } from '../../i18n/use-tr.js'

const DocumentListPage = lazy(() => import('./DocumentListPage.js'))
const DocumentPage = lazy(() => import('./DocumentPage.js'))
const TransferReceivePage = lazy(() => import('./TransferReceivePage.js'))

let documentsOf: { meta: unknown; list: EntityModel[] } | undefined

function documents(): EntityModel[] {
  const meta = loadedMeta()
  if (!meta) return []
  if (documentsOf?.meta !== meta) documentsOf = { meta, list: meta.all().filter((e) => e.file.document && e.file.api) }
  return documentsOf.list
}

/**
 * Every document menu opens its document list, and the pages below it (`add`, `modify/{id}`,
 * `approve/{id}`, `detail/{id}`, with `require/`/`unrequire/` variants) open the document page.
 */
registerMenuResolver((menu, rest) => {
  const doc = menu.path ? documentOfMenu(documents(), menu) : undefined
  if (!doc || !menu.path) return undefined
  const listPath = menu.path.replace(/\/+$/, '')
  if (!rest) return { title: menu.meta.title || doc.label, pattern: '', render: () => <DocumentListPage entityName={doc.name} listPath={listPath} /> }
  const route = parseDocumentRoute(rest)
  if (!route) return undefined
  if (route.mode === 'receive') {
    // Only a warehouse transfer is received on its own page.
    if (doc.name !== 'scTransferOrder' || !route.id) return undefined
    const id = route.id
    return { title: tr('仓库调拨单收货'), pattern: route.pattern, render: () => <TransferReceivePage id={id} listPath={listPath} /> }
  }
  const subject = (doc.file.document as { subject: string }).subject
  return {
    title: documentPageTitle(route.mode, subject),
    pattern: route.pattern,
    render: () => <DocumentPage entityName={doc.name} listPath={listPath} route={route} />,
  }
})

