import { useEffect, useRef } from 'react'
import { Input } from 'antd'
import { observer, useForm } from '@formily/react'
import { MENU_COMPONENT_TYPE as CT } from '../../shared/generated/enum-codes.js'
import PickerInput from '../runtime/picker/PickerInput.js'
import type { FormControlProps } from '../components/form-controls.js'
import { term, useTr } from '../i18n/use-tr.js'

/** The picker of what a low-code menu opens, by its 组件类型. */
const PICKER_OF: Record<number, { kind: string; what: string }> = {
  [CT.CUSTOM_LIST]: { kind: 'gen/custom/list', what: term('自定义列表') },
  [CT.CUSTOM_FORM]: { kind: 'gen/custom/form', what: term('自定义表单') },
  [CT.CUSTOM_PAGE]: { kind: 'gen/custom/page', what: term('自定义页面') },
}

/**
 * The menu's 组件: for a custom list, form or page it is the id of one, chosen in that kind's picker
 * that shows names (never a 32-character id to type); for a normal menu it is the view path, typed.
 * Switching 组件类型 clears a value that belonged to the other kind.
 */
function MenuComponentInput({ value, onChange, readOnly, readPretty, disabled, id, ...rest }: FormControlProps) {
  const tr = useTr()
  const form = useForm()
  const type = Number(form.values.componentType ?? CT.NORMAL)
  const picker = PICKER_OF[type]
  const text = typeof value === 'string' ? value : ''
  const shownType = useRef(type)
  useEffect(() => {
    if (shownType.current === type) return
    shownType.current = type
    if (text) onChange?.(null)
  }, [type, text, onChange])
  if (picker)
    return (
      <PickerInput
        key={picker.kind}
        kind={picker.kind}
        id={id}
        aria-label={rest['aria-label']}
        placeholder={tr(`请选择${picker.what}`)}
        value={text || undefined}
        readOnly={readOnly}
        readPretty={readPretty}
        disabled={disabled}
        onChange={(v) => onChange?.(typeof v === 'string' ? v : null)}
      />
    )
  if (readPretty) return <span>{text || '-'}</span>
  return <Input id={id} aria-label={rest['aria-label']} placeholder={tr('请输入组件')} value={text} readOnly={readOnly} disabled={disabled} onChange={(e) => onChange?.(e.target.value)} />
}

export default observer(MenuComponentInput)
