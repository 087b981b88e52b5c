import { createContext, useCallback, useContext, useEffect, useRef, useState, type RefObject, type SyntheticEvent } from 'react'
import { Modal, type ModalProps } from 'antd'
import { useFeedback } from '../components/feedback.js'
import { term, useTr } from '../i18n/use-tr.js'

/** Asked before Esc, the close icon, the mask or 取消 of the frame throws away what was typed. */
export const DISCARD_QUESTION = term('有未保存的内容，确定关闭吗？')

/** Where the cursor goes when a dialog opens: its first field a clerk types into (not a picker or a date). */
const FIRST_FIELD = 'input.ant-input:not([readonly]):not([disabled]), textarea.ant-input:not([readonly]):not([disabled]), input.ant-input-number-input:not([readonly]):not([disabled])'
/** A form's fields may come a little after the frame (lazy code, a record read): look for them this long. */
const FIELD_WAIT_FRAMES = 120

/**
 * The focus moves into a dialog as it opens: Esc closes it at once (antd listens inside the dialog, and the
 * click that opened it left the focus on the page's 新增), and the clerk types into the first field without
 * reaching for the mouse. Until that field is there the dialog itself holds the focus; a place the user
 * chose inside the dialog is never taken away.
 */
function useFocusInside(open: boolean | undefined, box: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    if (!open) return
    let frame = 0
    let waited = 0
    let holder: HTMLElement | null = null
    const place = () => {
      const root = box.current
      const active = document.activeElement
      if (root && root.contains(active) && active !== holder) return
      const field = root?.querySelector<HTMLElement>(FIRST_FIELD)
      if (field) return field.focus()
      if (root && !root.contains(active)) {
        holder = root
        root.focus()
      }
      if (++waited < FIELD_WAIT_FRAMES) frame = requestAnimationFrame(place)
    }
    frame = requestAnimationFrame(place)
    return () => cancelAnimationFrame(frame)
  }, [open, box])
}

const DirtyReport = createContext<((dirty: boolean) => void) | null>(null)

/**
 * How a form inside a dialog says it holds unsaved input (a Formily form on its first input change);
 * outside a guarded dialog it does nothing.
 */
export function useReportDirty(): (dirty: boolean) => void {
  const report = useContext(DirtyReport)
  return useCallback((dirty: boolean) => report?.(dirty), [report])
}

export interface GuardedModalProps extends ModalProps {
  /** Unsaved input the dialog knows of by itself (e.g. a grid edited in state), besides what is typed. */
  dirty?: boolean
  /** Changes when what was typed so far has been saved (a wizard's step): input counts again from there. */
  savedAt?: unknown
}

/**
 * The dialog frame of the runtime: an antd Modal whose cancel (Esc, close icon, mask, the footer's 取消)
 * asks first when the dialog holds unsaved input. Input is noticed three ways so no dialog has to wire
 * it: any input/change event inside the dialog's own DOM (antd and native controls), a Formily form
 * reporting through `useReportDirty`, and the caller's `dirty`. Reopening starts clean. The focus moves
 * into the dialog as it opens (`useFocusInside`).
 */
export default function GuardedModal({ dirty, savedAt, onCancel, modalRender, open, ...rest }: GuardedModalProps) {
  const { modal } = useFeedback()
  const tr = useTr()
  const [touched, setTouched] = useState(false)
  const asking = useRef(false)
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) setTouched(false)
  }, [open])
  useEffect(() => setTouched(false), [savedAt])
  useFocusInside(open, box)
  const mark = (e: SyntheticEvent) => {
    // Events of nested dialogs (a picker's search box) bubble here through React, not through this DOM.
    if (box.current?.contains(e.target as Node)) setTouched(true)
  }
  const cancel: ModalProps['onCancel'] = (e) => {
    if (!(dirty || touched)) return onCancel?.(e)
    if (asking.current) return
    asking.current = true
    modal.confirm({
      title: tr('提示'),
      content: tr(DISCARD_QUESTION),
      okText: tr('确定'),
      cancelText: tr('取消'),
      onOk: () => onCancel?.(e),
      afterClose: () => (asking.current = false),
    })
  }
  return (
    <DirtyReport.Provider value={setTouched}>
      <Modal
        {...rest}
        open={open}
        onCancel={cancel}
        modalRender={(node) => (
          <div ref={box} tabIndex={-1} className="guarded-modal-frame" onInputCapture={mark} onChangeCapture={mark}>
            {modalRender ? modalRender(node) : node}
          </div>
        )}
      />
    </DirtyReport.Provider>
  )
}
