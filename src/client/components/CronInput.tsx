import { lazy, Suspense, useState } from 'react'
import { Input } from 'antd'
import type { FormControlProps } from './form-controls.js'
import { useTr } from '../i18n/use-tr.js'

const CronBuilderModal = lazy(() => import('./CronBuilderModal.js'))

/**
 * The cron picker (spec 001 §2): a read-only input with a clear icon; a click opens the modal
 * 'Cron表达式', whose OK writes the expression back. Detail forms show the text only.
 */
export default function CronInput({ value, onChange, disabled, readOnly, readPretty, id, ...rest }: FormControlProps) {
  const tr = useTr()
  const [open, setOpen] = useState(false)
  const text = typeof value === 'string' ? value : ''
  if (readPretty) return <span>{text}</span>
  const editable = !disabled && !readOnly
  return (
    <>
      <Input
        id={id}
        aria-label={rest['aria-label'] ?? tr('Cron表达式')}
        readOnly
        allowClear={editable}
        disabled={disabled}
        value={text}
        placeholder={tr('请选择Cron表达式')}
        style={{ cursor: editable ? 'pointer' : undefined }}
        onClick={() => editable && setOpen(true)}
        onChange={(e) => {
          // only the clear icon changes a read-only input
          if (!e.target.value) onChange?.('')
        }}
      />
      {open && (
        <Suspense fallback={null}>
          <CronBuilderModal
            open={open}
            value={text}
            onClose={() => setOpen(false)}
            onOk={(expression) => {
              onChange?.(expression)
              setOpen(false)
            }}
          />
        </Suspense>
      )}
    </>
  )
}
