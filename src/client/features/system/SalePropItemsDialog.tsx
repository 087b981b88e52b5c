import type { EntityRow } from '../../runtime/entity-api.js'
import ChildrenDialog from '../../runtime/ChildrenDialog.js'
import { nameOf } from './use-load.js'
import { useTr } from '../../i18n/use-tr.js'

export interface SalePropItemsDialogProps {
  group: EntityRow
  onClose: () => void
}

/** 销售属性 of a sale-property group: the generic list and form of salePropItem, fixed to the group. */
export default function SalePropItemsDialog({ group, onClose }: SalePropItemsDialogProps) {
  const tr = useTr()
  return (
    <ChildrenDialog
      title={tr(`销售属性 - ${nameOf(group)}`)}
      entityName="salePropItem"
      parentField="groupId"
      parentId={String(group.id)}
      onClose={onClose}
    />
  )
}
