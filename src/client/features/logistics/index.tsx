import { lazy, Suspense, type ReactNode } from 'react'
import { registerRowAction } from '../../runtime/row-actions.js'
import type { EntityRow } from '../../runtime/entity-api.js'

/**
 * 物流单管理 (menu 物流管理 › 物流单管理): the list, add and modify/{id} pages are the document runtime's
 * (schemas/documents/logistics-sheet.json); this feature adds the 发货 dialog of its `rowActions` key
 * `delivery`, loaded on first use (the list's two imports are declared in the document file's toolbar).
 */
const DeliveryDialog = lazy(() => import('./DeliveryDialog.js'))

let opened = 0

function delivery(sheet: EntityRow, reload: () => void, close: () => void): ReactNode {
  opened += 1
  return (
    <Suspense key={`logistics-delivery-${opened}`} fallback={null}>
      <DeliveryDialog sheet={sheet} reload={reload} onClose={close} />
    </Suspense>
  )
}

registerRowAction('logisticsSheet', 'delivery', delivery)
