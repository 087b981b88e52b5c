import type { ReactNode } from 'react'
import { Modal } from 'antd'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { describeRow } from './picker-labels.js'
import type { SearchItem } from '../query-params.js'
import PickerFooter from './PickerFooter.js'
import QueryForm from '../QueryForm.js'
import { useTr } from '../../i18n/use-tr.js'

export interface PickerModalProps {
  /** The entity whose picker view (title, width, Reset, Enter-to-search) the dialog follows. */
  entity: EntityModel
  open: boolean
  multiple: boolean
  chosen: readonly EntityRow[]
  searchItems: readonly SearchItem[]
  onSearch: (values: Record<string, unknown>) => void
  onCancel: () => void
  onClear: () => void
  onConfirm: () => void
  /** The rows to choose from: a table or a tree. */
  children: ReactNode
}

/** The frame every picker shares: title 选择X, the spec's width, the search form and 取消/清空/确定. */
export default function PickerModal({ entity, open, multiple, chosen, searchItems, onSearch, onCancel, onClear, onConfirm, children }: PickerModalProps) {
  const tr = useTr()
  const picker = entity.file.views?.picker
  return (
    <Modal
      title={picker?.title ?? tr(`选择${entity.label}`)}
      open={open}
      width={picker?.width ?? '60%'}
      onCancel={onCancel}
      footer={<PickerFooter multiple={multiple} selected={chosen} describe={describeRow} onCancel={onCancel} onClear={onClear} onConfirm={onConfirm} />}
    >
      <QueryForm items={searchItems} onSearch={onSearch} showReset={Boolean(picker?.resetButton)} enterToSearch={Boolean(picker?.enterToSearch)} span={8} />
      {children}
    </Modal>
  )
}
