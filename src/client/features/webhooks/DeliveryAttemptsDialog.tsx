import ChildrenDialog from '../../runtime/ChildrenDialog.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useTr } from '../../i18n/use-tr.js'

export interface DeliveryAttemptsDialogProps {
  delivery: EntityRow
  onClose: () => void
}

/** 尝试记录 of a delivery: the generic list of webhookAttempt fixed to it (answer, status, duration, process). */
export default function DeliveryAttemptsDialog({ delivery, onClose }: DeliveryAttemptsDialogProps) {
  const tr = useTr()
  return (
    <ChildrenDialog
      title={tr('尝试记录') + ` - ${String(delivery.subscriptionName ?? delivery.id)}`}
      entityName="webhookAttempt"
      parentField="deliveryId"
      parentId={String(delivery.id)}
      onClose={onClose}
      className="webhook-attempts-dialog"
    />
  )
}
