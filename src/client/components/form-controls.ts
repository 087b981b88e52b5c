import type { ComponentType } from 'react'

/** What a custom form control receives: Formily's value/onChange and states, plus the record being edited. */
export interface FormControlProps {
  value?: unknown
  onChange?: (value: unknown) => void
  disabled?: boolean
  readOnly?: boolean
  /** Detail forms: show the value, no inputs. */
  readPretty?: boolean
  /** The loaded record (modify and detail), for controls that need sibling values. */
  record?: Record<string, unknown>
  id?: string
  'aria-label'?: string
}

const controls = new Map<string, ComponentType<FormControlProps>>()

/**
 * Replaces the generated control of one field of one entity (e.g. a SKU matrix instead of JSON
 * text). Validation stays the shared `checkField`; register before the form opens (at import time).
 */
export function registerFormControl(entityName: string, fieldName: string, component: ComponentType<FormControlProps>): void {
  controls.set(`${entityName}.${fieldName}`, component)
}

export function formControl(entityName: string, fieldName: string): ComponentType<FormControlProps> | undefined {
  return controls.get(`${entityName}.${fieldName}`)
}

const kinds = new Map<string, ComponentType<FormControlProps & Record<string, unknown>>>()

/**
 * A control by kind rather than by field (e.g. CUSTOM_SELECTOR, the control type of the spec's
 * form controls): low-code forms and query forms look it up by that name.
 */
export function registerControlKind(kind: string, component: ComponentType<FormControlProps & Record<string, unknown>>): void {
  kinds.set(kind, component)
}

export function controlKind(kind: string): ComponentType<FormControlProps & Record<string, unknown>> | undefined {
  return kinds.get(kind)
}
