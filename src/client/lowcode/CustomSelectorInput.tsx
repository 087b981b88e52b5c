import { Suspense, useState } from 'react'
import { Input, Select } from 'antd'
import type { FormControlProps } from '../components/form-controls.js'
import type { ListRow } from '../../shared/contracts/lowcode-wire.js'
import { selectorDialog } from './selector-dialog-slot.js'

export interface CustomSelectorInputProps extends FormControlProps {
  selectorId?: string
  multiple?: boolean
  placeholder?: string
}

type Chosen = { value: string; label: string }

/**
 * A form or query input backed by a custom selector (control type CUSTOM_SELECTOR): the value is the
 * chosen row's idColumn (ids for multiple), the text its nameColumn.
 */
export default function CustomSelectorInput({ selectorId, multiple, placeholder, value, onChange, disabled, readOnly, readPretty, id, ...rest }: CustomSelectorInputProps) {
  const [open, setOpen] = useState(false)
  const CustomSelectorDialog = selectorDialog()
  const [labels, setLabels] = useState<Map<string, string>>(new Map())
  const values = (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]).map(String)
  const items: Chosen[] = values.map((v) => ({ value: v, label: labels.get(v) ?? v }))
  if (readPretty) return <span>{items.map((i) => i.label).join('，')}</span>
  const confirm = (rows: ListRow[], idColumn: string, nameColumn: string) => {
    const next = new Map(labels)
    const picked = rows.map((r) => {
      const v = String(r[idColumn] ?? '')
      next.set(v, String(r[nameColumn] ?? v))
      return v
    })
    setLabels(next)
    onChange?.(multiple ? [...new Set([...values, ...picked])] : picked[0])
    setOpen(false)
  }
  return (
    <>
      {multiple ? (
        <Select
          id={id}
          aria-label={rest['aria-label']}
          mode="multiple"
          open={false}
          value={values}
          options={items}
          placeholder={placeholder}
          disabled={disabled || !selectorId}
          onClick={() => !readOnly && setOpen(true)}
          onChange={(v: string[]) => onChange?.(v)}
        />
      ) : (
        <Input
          id={id}
          aria-label={rest['aria-label']}
          readOnly
          value={items[0]?.label ?? ''}
          placeholder={placeholder}
          disabled={disabled || !selectorId}
          allowClear
          onClick={() => !readOnly && setOpen(true)}
          onChange={(e) => {
            if (!e.target.value) onChange?.(undefined)
          }}
        />
      )}
      {open && selectorId && CustomSelectorDialog && (
        <Suspense fallback={null}>
          <CustomSelectorDialog
            selectorId={selectorId}
            open={open}
            multiple={multiple}
            onCancel={() => setOpen(false)}
            onConfirm={(rows, config) => confirm(rows, config.idColumn, config.nameColumn)}
          />
        </Suspense>
      )}
    </>
  )
}
