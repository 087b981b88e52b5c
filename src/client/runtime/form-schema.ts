import type { ISchema } from '@formily/react'
import { FORM_LOOK } from '../../shared/look/ui-constants.js'
import type { FormItem } from '../../shared/generated/entity.js'
import { refLabelProperty, type EntityModel, type FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { checkField, type WriteMode } from '../../shared/metadata/validate-record.js'
import { pickerKindOf, type EntityLookup } from './picker-kind.js'
import { enumOptions } from './query-params.js'
import { tr } from '../i18n/use-tr.js'

export type FormMode = 'add' | 'modify' | 'detail'

/** The spec's form layout (000 §9): 24 columns, items 8 wide, labels 100px. */
export const FORM_DEFAULTS = FORM_LOOK

/** One form item as placed in this mode. */
export interface FormItemModel {
  field: FieldModel
  span: number
  /** Shown but not editable in this mode (disabledIn, immutable on modify, server-set fields). */
  disabled: boolean
  /** Formily component name registered by the FormView. */
  component: string
  pickerKind?: string
}

/** Detail checks like a modification: nothing is "required on create" there. */
export const writeModeOf = (mode: FormMode): WriteMode => (mode === 'add' ? 'create' : 'modify')

const CHOOSE: FieldModel['type'][] = ['enum', 'ref', 'boolean', 'date', 'datetime']

function componentOf(field: FieldModel, pickerKind: string | undefined): string {
  const control = field.control
  if (field.type === 'password' || control === 'password') return 'Password'
  if (control === 'regionCascader') return 'RegionCascader'
  if (control === 'image') return 'ImageUpload'
  if (control === 'video') return 'VideoUpload'
  if (control === 'icon') return 'IconPicker'
  if (field.dictionary) return 'DictionarySelect'
  if (field.type === 'ref') return pickerKind ? 'PickerInput' : 'RefText'
  if (field.type === 'boolean') return control === 'radio' ? 'Radio.Group' : 'BooleanSwitch'
  if (field.type === 'enum') return control === 'radio' ? 'Radio.Group' : 'Select'
  if (field.type === 'integer' || field.type === 'decimal') return 'NumberPicker'
  if (field.type === 'date' || field.type === 'datetime') return 'DatePicker'
  if (field.type === 'json' || control === 'json') return 'JsonInput'
  if (field.type === 'text' || control === 'textarea') return 'Input.TextArea'
  return 'Input'
}

/** Whether a JSON field's value is usable: empty, a parsed value, or text that parses. */
export function isValidJsonValue(value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() === '') return true
  try {
    JSON.parse(value)
    return true
  } catch {
    return false
  }
}

/** Name under which a feature module's own control of a field is registered with the form. */
export const customControlName = (field: FieldModel) => `Custom_${field.name}`

/**
 * The items of `views.form` visible in this mode (every declared field when the entity has no form
 * view). `hasCustomControl` says which fields a feature module renders itself; `holds` whether the
 * user holds a key, so a field with a `writePermission` is offered only to those the server lets set it.
 */
export function formItems(
  entity: EntityModel,
  mode: FormMode,
  lookup: EntityLookup,
  hasCustomControl: (field: FieldModel) => boolean = () => false,
  holds: (key: string) => boolean = () => true,
): FormItemModel[] {
  const view = entity.file.views?.form
  const declared: FormItem[] = view?.items ?? entity.fields.filter((f) => !f.hidden).map((f) => f.name)
  const defaultSpan = view?.span ?? FORM_DEFAULTS.span
  const out: FormItemModel[] = []
  for (const raw of declared) {
    const item = typeof raw === 'string' ? { field: raw } : raw
    if (item.modes && !item.modes.includes(mode)) continue
    const field = entity.byName.get(item.field)
    if (!field || (field.writePermission && mode !== 'detail' && !holds(field.writePermission))) continue
    const pickerKind = pickerKindOf(field, lookup)
    const disabled =
      mode !== 'detail' &&
      Boolean(item.disabledIn?.includes(mode) || (field.immutable && mode === 'modify') || field.readOnly || field.builtin)
    const component = hasCustomControl(field) ? customControlName(field) : componentOf(field, pickerKind)
    out.push({ field, span: item.span ?? defaultSpan, disabled, component, pickerKind })
  }
  return out
}

function booleanLabels(field: FieldModel, enums: EnumCatalog): [string, string] {
  const items = field.enum ? enums.items(field.enum) : []
  const label = (code: boolean, fallback: string) => {
    const item = items.find((i) => i.code === code)
    return item ? enums.text(item) : fallback
  }
  return [label(true, tr('是')), label(false, tr('否'))]
}

function booleanColors(field: FieldModel, enums: EnumCatalog): [string | undefined, string | undefined] {
  const items = field.enum ? enums.items(field.enum) : []
  return [items.find((i) => i.code === true)?.color, items.find((i) => i.code === false)?.color]
}

function componentProps(item: FormItemModel, enums: EnumCatalog, record: Record<string, unknown> | undefined): Record<string, unknown> {
  const { field } = item
  const choose = CHOOSE.includes(field.type) || field.control === 'regionCascader' || field.control === 'image' || field.control === 'video' || field.control === 'icon' || Boolean(field.dictionary)
  // Formily's FormItem label is not tied to its control, so each control carries its own accessible name.
  const props: Record<string, unknown> = {
    'aria-label': field.label,
    placeholder: field.placeholder ?? tr(choose ? `请选择${field.label}` : `请输入${field.label}`),
  }
  switch (item.component) {
    case 'Select':
      props.allowClear = !field.requiredMessage
      break
    case 'DictionarySelect':
      props.dicCode = field.dictionary
      props.stores = 'name'
      props.allowClear = !field.requiredMessage
      break
    case 'NumberPicker':
      props.style = { width: '100%' }
      if (field.type === 'decimal') {
        // Decimal text end to end: no binary floating point for money or quantity.
        props.stringMode = true
        props.precision = field.scale ?? 2
      } else {
        // No `precision: 0` here: it would round 1.5 to 2 on blur and hide the spec's "必须为整数" message.
        props.step = 1
      }
      break
    case 'DatePicker':
      props.style = { width: '100%' }
      // The formats typed text is read in, and the wire value, come from FormDateInput.
      if (field.type === 'datetime') props.showTime = true
      break
    case 'JsonInput':
      delete props.placeholder
      break
    case 'ImageUpload':
    case 'VideoUpload':
      if (field.upload) props.uploadUrl = field.upload
      break
    case 'Input.TextArea':
      props.autoSize = { minRows: 2, maxRows: 6 }
      // A counter, not a hard limit: a hard limit would cut the text silently instead of showing the spec's message.
      if (field.maxLength) props.count = { show: true, max: field.maxLength }
      break
    case 'BooleanSwitch': {
      const [on, off] = booleanLabels(field, enums)
      props.trueLabel = on
      props.falseLabel = off
      ;[props.trueColor, props.falseColor] = booleanColors(field, enums)
      delete props.placeholder
      break
    }
    case 'PickerInput':
      props.kind = item.pickerKind
      props.multiple = Boolean(field.multiple)
      if (field.onlyFinal) props.onlyFinal = true
      if (field.pickerType !== undefined) props.type = field.pickerType
      break
    case 'RefText':
      props.text = record?.[refLabelProperty(field.name)] ?? ''
      break
    case 'Password':
      props.autoComplete = 'new-password'
      break
  }
  return props
}

function optionsOf(item: FormItemModel, enums: EnumCatalog): { label: string; value: unknown }[] | undefined {
  const { field } = item
  if (item.component !== 'Select' && item.component !== 'Radio.Group') return undefined
  if (field.type === 'boolean') {
    const [on, off] = booleanLabels(field, enums)
    return [
      { label: on, value: true },
      { label: off, value: false },
    ]
  }
  return field.enum ? enumOptions(field.enum, enums) : []
}

const schemaType = (field: FieldModel) =>
  field.type === 'ref' && field.multiple ? 'array'
  : field.type === 'boolean' ? 'boolean'
  : field.type === 'integer' ? 'number'
  : 'string'

/**
 * The Formily schema of an entity form: a 24-column FormGrid of FormItems, each validated by the
 * shared `checkField`, so the browser shows exactly the messages the server answers.
 */
export function buildFormSchema(
  entity: EntityModel,
  items: readonly FormItemModel[],
  enums: EnumCatalog,
  mode: FormMode,
  record?: Record<string, unknown>,
): ISchema {
  const grid = entity.file.views?.form?.grid ?? FORM_DEFAULTS.grid
  const writeMode = writeModeOf(mode)
  const properties: Record<string, ISchema> = {}
  for (const item of items) {
    const { field } = item
    const required = Boolean(field.requiredMessage || (field.requiredOnCreate && mode === 'add'))
    const schema: ISchema = {
      type: schemaType(field),
      title: field.label,
      'x-decorator': 'FormItem',
      'x-decorator-props': { gridSpan: Math.min(item.span, grid), asterisk: required && mode !== 'detail' },
      'x-component': item.component,
      'x-component-props': componentProps(item, enums, record),
    }
    if (item.disabled) schema['x-disabled'] = true
    const options = optionsOf(item, enums)
    if (options) schema.enum = options
    if (!item.disabled && !field.readOnly)
      schema['x-validator'] = (value: unknown) =>
        // JSON typed as text that does not parse is the browser's own problem; everything else is the shared rule.
        tr(item.component === 'JsonInput' && !isValidJsonValue(value) ? `${field.label}格式不正确` : checkField(field, value, enums, writeMode) ?? '')
    properties[field.name] = schema
  }
  return {
    type: 'object',
    properties: {
      grid: {
        type: 'void',
        'x-component': 'FormGrid',
        // minWidth 0: Formily's grid would otherwise drop to fewer columns on narrow dialogs; strictAutoFit
        // moves a wide item to the next row instead of squeezing it into what is left of the current one.
        'x-component-props': { maxColumns: grid, minColumns: grid, minWidth: 0, columnGap: 16, strictAutoFit: true },
        properties,
      },
    },
  }
}
