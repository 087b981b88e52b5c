import { useEffect, useState, type CSSProperties, type ReactNode } from 'react'
import { Input } from 'antd'
import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons'
import { call } from '../../api/call.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'
import { useMeta } from '../../api/meta.js'
import type { EntityRow } from '../entity-api.js'
import { joinLabels, labelFieldOf, pickerDescription, pickerLabel } from './picker-labels.js'
import PickerDialog from './PickerDialog.js'
import TreePicker from './TreePicker.js'
import { useTr } from '../../i18n/use-tr.js'

export type PickerValue = string | string[] | null | undefined

export interface PickerInputProps {
  /** As in `/selector/{kind}`. */
  kind: string
  multiple?: boolean
  value?: PickerValue
  /** The chosen id (single) or ids (multiple), and the chosen rows for callers that copy fields. */
  onChange?: (value: string | string[] | undefined, rows: EntityRow[]) => void
  disabled?: boolean
  readOnly?: boolean
  /** Show the labels as text (Formily detail forms). */
  readPretty?: boolean
  /** How read-only labels are drawn (the form gives them its preview style). */
  renderText?: (text: string) => ReactNode
  /** Tree pickers: only leaves may be chosen. */
  onlyFinal?: boolean
  /** One of the picker view's `types` (a field's `pickerType`): its own call and preselected filters. */
  type?: number
  placeholder?: string
  id?: string
  'aria-label'?: string
  style?: CSSProperties
}

const toIds = (value: PickerValue): string[] =>
  Array.isArray(value) ? value.filter((v) => typeof v === 'string' && v !== '') : typeof value === 'string' && value ? [value] : []

/**
 * The input of a ref value (Formily- and antd-Form-compatible value/onChange): shows the chosen
 * rows' labels (the code by default, 000 §9; multiple: codes joined with "，"), code and name as its tooltip and in
 * read-only text, and opens the kind's picker, a tree picker for tree entities. Labels of saved values are
 * fetched through `/selector/{kind}/load`.
 */
export default function PickerInput(props: PickerInputProps) {
  const tr = useTr()
  const { kind, multiple = false, value, onChange, disabled, readOnly, readPretty, renderText, onlyFinal, type, placeholder, id, style } = props
  const meta = useMeta()
  const entity = meta?.pickerEntity(kind)
  const labelField = labelFieldOf(entity)
  const ids = toIds(value)
  const idsKey = ids.join(',')
  const [known, setKnown] = useState<Map<string, EntityRow>>(new Map())
  const [tried, setTried] = useState<Set<string>>(new Set())
  const [open, setOpen] = useState(false)
  const [mounted, setMounted] = useState(false)

  useEffect(() => {
    const missing = ids.filter((i) => !known.has(i) && !tried.has(i))
    if (!missing.length || !entity) return
    let live = true
    call(pickerCalls(kind).load, missing, { hideError: true })
      .then((rows) => {
        if (live) setKnown((prev) => new Map([...prev, ...rows.map((r) => [r.id, r] as const)]))
      })
      .catch(() => undefined)
      .finally(() => {
        if (live) setTried((prev) => new Set([...prev, ...missing]))
      })
    return () => {
      live = false
    }
    // Keyed by the ids' text: a new array with the same ids must not fetch again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, idsKey, entity])

  // While a saved value's row is loading nothing is shown rather than a raw id.
  const shown = (label: (row: EntityRow) => string) => joinLabels(ids.map((i) => (known.has(i) ? label(known.get(i)!) : tried.has(i) ? i : '')))
  const text = shown((row) => pickerLabel(row, labelField))
  // What the code stands for: the tooltip of the input, and the text where nothing can be hovered.
  const described = shown((row) => pickerDescription(row, labelField))

  if (readPretty) return renderText ? renderText(described) : <span>{described}</span>

  const editable = !disabled && !readOnly && Boolean(entity)
  const show = () => {
    if (!editable) return
    setMounted(true)
    setOpen(true)
  }
  const choose = (rows: EntityRow[]) => {
    setKnown((prev) => new Map([...prev, ...rows.map((r) => [r.id, r] as const)]))
    setOpen(false)
    onChange?.(multiple ? rows.map((r) => r.id) : rows[0]?.id, rows)
  }
  const clear = () => {
    setOpen(false)
    onChange?.(multiple ? [] : undefined, [])
  }
  const chosenRows = ids.map((i) => known.get(i) ?? ({ id: i } as EntityRow))
  const Dialog = entity?.parentField ? TreePicker : PickerDialog

  return (
    <>
      <Input
        id={id}
        aria-label={props['aria-label']}
        aria-haspopup="dialog"
        readOnly
        disabled={disabled}
        value={text}
        title={described}
        placeholder={placeholder}
        style={{ cursor: editable ? 'pointer' : undefined, ...style }}
        onClick={show}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault()
            show()
          }
        }}
        suffix={
          <span style={{ display: 'inline-flex', gap: 6, color: 'rgba(0,0,0,0.35)' }}>
            {editable && ids.length > 0 && (
              <CloseCircleFilled
                role="button"
                aria-label={tr('清除')}
                onClick={(e) => {
                  e.stopPropagation()
                  clear()
                }}
              />
            )}
            <SearchOutlined aria-hidden onClick={show} />
          </span>
        }
      />
      {mounted && meta && entity && (
        <Dialog
          meta={meta}
          entity={entity}
          open={open}
          multiple={multiple}
          onlyFinal={onlyFinal}
          type={type}
          value={chosenRows}
          onCancel={() => setOpen(false)}
          onClear={clear}
          onConfirm={choose}
        />
      )}
    </>
  )
}
