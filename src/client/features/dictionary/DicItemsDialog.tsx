import type { EntityRow } from '../../runtime/entity-api.js'
import ChildrenDialog from '../../runtime/ChildrenDialog.js'
import { useTr } from '../../i18n/use-tr.js'

export interface DicItemsDialogProps {
  dic: EntityRow
  onClose: () => void
}

/** 字典值 of a dictionary: the generic list and form of dicItem, fixed to the dictionary. */
export default function DicItemsDialog({ dic, onClose }: DicItemsDialogProps) {
  const tr = useTr()
  return (
    <ChildrenDialog
      title={tr(`字典值 - ${String(dic.name ?? dic.code ?? dic.id)}`)}
      entityName="dicItem"
      parentField="dicId"
      parentId={String(dic.id)}
      onClose={onClose}
      className="dic-items-dialog"
    />
  )
}
