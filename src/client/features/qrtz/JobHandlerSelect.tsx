import { useEffect, useState } from 'react'
import { Select } from 'antd'
import type { FormControlProps } from '../../components/form-controls.js'
import { useTr } from '../../i18n/use-tr.js'
import { qrtz, type JobHandler } from '../../../shared/contracts/qrtz.js'
import { call } from '../../api/call.js'

/** 内置任务: the built-in jobs this tenant may schedule (GET /qrtz/handlers), shown by name. */
export default function JobHandlerSelect({ value, onChange, disabled, readPretty, id }: FormControlProps) {
  const tr = useTr()
  const [handlers, setHandlers] = useState<JobHandler[]>([])
  useEffect(() => {
    let live = true
    call(qrtz.handlers, undefined, { hideError: true }).then((h) => live && setHandlers(h)).catch(() => {})
    return () => {
      live = false
    }
  }, [])
  const found = handlers.find((h) => h.key === value)?.label
  const label = found === undefined ? undefined : tr(found)
  if (readPretty) return <span>{label ?? (typeof value === 'string' ? value : '')}</span>
  return (
    <Select
      id={id}
      aria-label={tr('内置任务')}
      allowClear
      disabled={disabled}
      placeholder={tr('任务类型为内置任务时选择')}
      value={typeof value === 'string' && value ? value : undefined}
      options={handlers.map((h) => ({ value: h.key, label: tr(h.label) }))}
      onChange={(v: string | undefined) => onChange?.(v ?? null)}
    />
  )
}
