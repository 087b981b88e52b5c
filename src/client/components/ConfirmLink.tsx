import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, Popconfirm } from 'antd'
import { useTr } from '../i18n/use-tr.js'

interface Props {
  /** The question asked before the action runs. */
  title: ReactNode
  onConfirm: () => unknown
  danger?: boolean
  children: ReactNode
}

/**
 * A row's link whose action is confirmed in a bubble first (删除). The bubble is mounted at the first
 * click, not with the row: a page of rows each holding a Popconfirm (a tooltip, a trigger and their
 * hooks) cost a third of the render that shows the rows.
 */
export function ConfirmLink({ title, onConfirm, danger = true, children }: Props) {
  const tr = useTr()
  const [asked, setAsked] = useState(false)
  const [open, setOpen] = useState(false)
  // The link is mounted again inside the bubble's trigger: the focus stays on it, for the keyboard.
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (asked) button.current?.focus()
  }, [asked])
  const link = (
    <Button
      ref={button}
      type="link"
      size="small"
      danger={danger}
      onClick={
        asked
          ? undefined
          : () => {
              setAsked(true)
              setOpen(true)
            }
      }
    >
      {children}
    </Button>
  )
  if (!asked) return link
  return (
    <Popconfirm title={title} okText={tr('确定')} cancelText={tr('取消')} open={open} onOpenChange={setOpen} onConfirm={onConfirm}>
      {link}
    </Popconfirm>
  )
}
