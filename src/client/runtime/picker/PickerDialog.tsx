import { useEffect, useMemo, useState } from 'react'
import { Button } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { hasOperation, operationKeys } from '../../../shared/metadata/operation-keys.js'
import { useFeedback } from '../../components/feedback.js'
import ListView from '../ListView.js'
import PickerModal from './PickerModal.js'
import { pickerSource } from './picker-source.js'
// Forms hold pickers and a picker may add a row through a form: the signed-in app fills this slot.
import { pickerAddForm } from './picker-slots.js'
import { useTr } from '../../i18n/use-tr.js'

export interface PickerDialogProps {
  meta: Meta
  /** The entity whose `views.picker` this dialog shows. */
  entity: EntityModel
  open: boolean
  multiple: boolean
  /** Tree pickers: only leaves may be chosen (the paged picker ignores it). */
  onlyFinal?: boolean
  /** One of the picker view's `types` (its own call and preselected filters); none: `/selector/{kind}`. */
  type?: number
  /** Rows already chosen when the dialog opens. */
  value: readonly EntityRow[]
  onCancel: () => void
  onClear: () => void
  onConfirm: (rows: EntityRow[]) => void
  /**
   * The warehouse of the document being entered: a picker declaring `warehouseStock` (products) is
   * asked for each row's available stock there and shows it as a column.
   */
  warehouse?: string
}

/**
 * The rows' height (000 §9: grid max height 600): 600 px where the window has room, else what is left
 * under the dialog's title, search form, pager and footer, never below a few rows. The dialog's body
 * scrolls as well, so a picker with many filters still fits.
 */
const PICKER_GRID_HEIGHT = 'clamp(200px, calc(100vh - 450px), 600px)'

/**
 * The paged picker of `/selector/{kind}`: the product's list over the picker view as a source (search
 * form from its filters, columns, pager), in the shared picker frame. Single mode chooses by radio,
 * click or double-click (which confirms), multiple mode by ticks kept across pages; 新增 adds a record
 * through the entity's form where the view offers it.
 */
export default function PickerDialog({ meta, entity, open, multiple, value, onCancel, onClear, onConfirm, warehouse, type }: PickerDialogProps) {
  const tr = useTr()
  const picker = entity.file.views!.picker!
  const { message } = useFeedback()
  const can = usePermission()
  const source = useMemo(() => pickerSource(entity, warehouse, type), [entity, warehouse, type])
  const [chosen, setChosen] = useState<EntityRow[]>([])
  const [adding, setAdding] = useState(false)
  const [version, setVersion] = useState(0)

  useEffect(() => {
    if (open) setChosen([...value])
    // Only on opening: the chosen rows then belong to the dialog until confirm or cancel.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])

  const confirm = () => {
    if (!multiple && !chosen.length) {
      message.warning(tr('请选择数据！'))
      return
    }
    onConfirm(chosen)
  }

  const AddForm = pickerAddForm()
  const canAdd = AddForm !== undefined && picker.addButton && hasOperation(entity, 'create') && can(operationKeys(entity, 'create'))

  return (
    <PickerModal entity={entity} open={open} multiple={multiple} chosen={chosen} onCancel={onCancel} onClear={onClear} onConfirm={confirm}>
      <ListView<EntityRow>
        meta={meta}
        source={source}
        className="picker-list"
        choose={multiple ? 'multiple' : 'single'}
        chosen={value}
        onChoose={setChosen}
        onRowDoubleClick={multiple ? undefined : (row) => onConfirm([row])}
        scrollY={PICKER_GRID_HEIGHT}
        version={version}
        renderToolbar={
          canAdd
            ? () => (
                <Button key="add" type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)}>
                  {tr('新增')}
                </Button>
              )
            : undefined
        }
        after={
          canAdd &&
          AddForm && (
            <AddForm
              meta={meta}
              entity={entity}
              dialog={adding ? { mode: 'add' } : null}
              onClose={() => setAdding(false)}
              onSaved={() => {
                setAdding(false)
                setVersion((v) => v + 1)
              }}
            />
          )
        }
      />
    </PickerModal>
  )
}
