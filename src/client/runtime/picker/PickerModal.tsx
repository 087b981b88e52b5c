import type { ReactNode } from 'react'
import { Modal } from 'antd'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { describeRow } from './picker-labels.js'
import PickerFooter from './PickerFooter.js'
import { useTr } from '../../i18n/use-tr.js'

export interface PickerModalProps {
  /** The entity whose picker view (title, width) the dialog follows. */
  entity: EntityModel
  open: boolean
  multiple: boolean
  chosen: readonly EntityRow[]
  onCancel: () => void
  onClear: () => void
  onConfirm: () => void
  /** The search form and the rows to choose from: a list or a tree. */
  children: ReactNode
}

/** Space between the window's edges and the dialog, top and bottom. */
const EDGE = 24
/**
 * The dialog's own parts around its body (title, footer, paddings): the body gets what is left of the
 * window, so 确定 is always on screen and a long list scrolls inside.
 */
const FRAME = 130

/**
 * The frame every picker shares: title 选择X, the spec's width (000 §9: 60%, 80% or 90% as the picker
 * view declares), 取消/清空/确定, and a height that fits the window whatever its rows and filters.
 * Its content is made anew at each opening (search, page and ticks start from the input's value).
 */
export default function PickerModal({ entity, open, multiple, chosen, onCancel, onClear, onConfirm, children }: PickerModalProps) {
  const tr = useTr()
  const picker = entity.file.views?.picker
  return (
    <Modal
      title={picker?.title ?? tr(`选择${entity.label}`)}
      open={open}
      width={picker?.width ?? '60%'}
      style={{ top: EDGE, paddingBottom: 0 }}
      styles={{ body: { maxHeight: `calc(100vh - ${2 * EDGE + FRAME}px)`, overflowY: 'auto', overflowX: 'hidden' } }}
      className="picker-modal"
      destroyOnHidden
      onCancel={onCancel}
      footer={<PickerFooter multiple={multiple} selected={chosen} describe={describeRow} onCancel={onCancel} onClear={onClear} onConfirm={onConfirm} />}
    >
      {children}
    </Modal>
  )
}
