import { useRef } from 'react'
import type { Meta } from '../api/meta.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import type { FormMode } from './form-schema.js'
import FormView from './FormView.js'
import { tr } from '../i18n/use-tr.js'
import GuardedModal from './GuardedModal.js'
import { actionVerb, DEFAULT_VERB } from './action-verb.js'

export interface FormDialog {
  mode: FormMode
  id?: string
}

export interface EntityFormModalProps {
  meta: Meta
  entity: EntityModel
  /** The open dialog, or null when closed. */
  dialog: FormDialog | null
  onClose: () => void
  onSaved: (id?: string) => void
}

export function formTitle(entity: EntityModel, mode: FormMode): string {
  if (mode === 'add') return tr(`新增${entity.label}`)
  const verb = actionVerb(entity, mode)
  // an entity's own word for the action titles its dialog the same way (重命名在线Excel)
  if (verb !== DEFAULT_VERB[mode]) return tr(`${verb}${entity.label}`)
  return tr(mode === 'modify' ? `修改${entity.label}` : `${entity.label}详情`)
}

/** The entity form in a dialog (width from `views.form.width`); Esc or × on unsaved input asks first. */
export default function EntityFormModal({ meta, entity, dialog, onClose, onSaved }: EntityFormModalProps) {
  // The closing animation still renders the last form instead of an empty box.
  const last = useRef<FormDialog | null>(null)
  if (dialog) last.current = dialog
  const shown = dialog ?? last.current
  return (
    <GuardedModal
      open={Boolean(dialog)}
      title={shown ? formTitle(entity, shown.mode) : ''}
      width={entity.file.views?.form?.width ?? '75%'}
      footer={null}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      {shown && (
        <FormView
          key={`${shown.mode}:${shown.id ?? ''}`}
          meta={meta}
          entity={entity}
          mode={shown.mode}
          id={shown.id}
          onSaved={onSaved}
          onCancel={onClose}
        />
      )}
    </GuardedModal>
  )
}
