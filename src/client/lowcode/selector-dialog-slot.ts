import type { ComponentType } from 'react'
import type { CustomSelectorConfig, ListRow } from '../../shared/contracts/lowcode-wire.js'

export interface CustomSelectorDialogProps {
  selectorId: string
  open: boolean
  multiple?: boolean
  onCancel: () => void
  onConfirm: (rows: ListRow[], config: CustomSelectorConfig) => void
}

let dialog: ComponentType<CustomSelectorDialogProps> | undefined

/**
 * A custom list's query form holds selector inputs and a selector's dialog shows a custom list, so the
 * input does not import the dialog: the low-code module fills this slot (lowcode/index.tsx).
 */
export function provideSelectorDialog(component: ComponentType<CustomSelectorDialogProps>): void {
  dialog = component
}

export const selectorDialog = (): ComponentType<CustomSelectorDialogProps> | undefined => dialog
