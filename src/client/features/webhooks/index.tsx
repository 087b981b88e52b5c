import { lazy, Suspense, type ReactNode } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'
import { registerRowAction } from '../../runtime/row-actions.js'
import type { EntityRow } from '../../runtime/entity-api.js'

/**
 * 系统管理 › 事件订阅 and 投递记录: the generic screens of the webhookSubscription and webhookDelivery
 * entities, with the delivery row actions 尝试记录 (the attempts of one delivery) and 重新投递 (call,
 * message, reload). Loaded on first use.
 */
const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))
const DeliveryAttemptsDialog = lazy(() => import('./DeliveryAttemptsDialog.js'))
const ReplayDelivery = lazy(() => import('./ReplayDelivery.js'))

registerMenuPage('/system/webhook/index', () => <EntityPage entityName="webhookSubscription" />)
registerMenuPage('/system/webhook-delivery/index', () => <EntityPage entityName="webhookDelivery" />)

let opened = 0
const suspended = (node: ReactNode) => (
  <Suspense key={`webhook-action-${++opened}`} fallback={null}>
    {node}
  </Suspense>
)

registerRowAction('webhookDelivery', 'attempts', (row: EntityRow, _reload, close) => suspended(<DeliveryAttemptsDialog delivery={row} onClose={close} />))
registerRowAction('webhookDelivery', 'replay', (row: EntityRow, reload, close) => suspended(<ReplayDelivery delivery={row} reload={reload} onDone={close} />))
