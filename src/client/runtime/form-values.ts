import dayjs from 'dayjs'
import type { FieldModel } from '../../shared/metadata/entity-model.js'
import type { FormItemModel, FormMode } from './form-schema.js'
import { rememberedValue } from './remembered-values.js'

/**
 * Values a form opens with: declared defaults when adding (a switch with no default starts off, so
 * the record says false rather than nothing), the record's values otherwise.
 */
export function initialFormValues(
  items: readonly FormItemModel[],
  mode: FormMode,
  record?: Record<string, unknown>,
  /** The signed-in user, for fields that start with them (`defaultFrom: "user.id"`) or with their last choice (`"last"`). */
  userId?: string,
  /** The value of a settings field named by `defaultDays` (`purchaseConfig.expectArriveDays`), when the caller read it. */
  setting?: (ref: string) => unknown,
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const { field } of items) {
    if (mode === 'add') {
      const last = field.defaultFrom === 'last' ? rememberedValue(userId, field.name) : undefined
      if (field.defaultFrom === 'user.id' && userId) values[field.name] = userId
      else if (last) values[field.name] = last
      else if (field.defaultFrom === 'today') {
        const days = field.defaultDays ? daysOf(setting?.(field.defaultDays)) : 0
        if (days !== undefined) values[field.name] = dayjs().add(days, 'day').format('YYYY-MM-DD')
      }
      else if (field.default !== undefined && field.default !== null) values[field.name] = field.default
      else if (field.type === 'boolean') values[field.name] = false
    } else if (record && record[field.name] !== undefined) values[field.name] = record[field.name]
  }
  return values
}

/** A day count a setting holds; blank (or unreadable) means no default. */
function daysOf(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined
  const n = Number(value)
  return Number.isInteger(n) ? n : undefined
}

const trimmed = (field: FieldModel, value: unknown) =>
  typeof value === 'string' && field.trim !== false && field.type !== 'password' ? value.trim() : value

/**
 * The body to save: the editable items only, text trimmed (the spec trims inputs), and blanks sent
 * as null so that clearing a field on modify really clears it (an absent field is left unchanged).
 */
export function toSubmitValues(items: readonly FormItemModel[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const { field, disabled } of items) {
    if (disabled || field.readOnly || field.builtin) continue
    let value = trimmed(field, values[field.name])
    if (value === undefined || value === '') value = null
    out[field.name] = value
  }
  return out
}

/** The first failing message in the order the form shows its items. */
export function firstError(items: readonly FormItemModel[], errors: readonly { path?: string; messages?: string[] }[]): string | undefined {
  for (const { field } of items) {
    const hit = errors.find((e) => e.path === field.name && e.messages?.length)
    if (hit) return hit.messages![0]
  }
  return errors.find((e) => e.messages?.length)?.messages?.[0]
}
