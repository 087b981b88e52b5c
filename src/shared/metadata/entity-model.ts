import type { EntityFile, Field } from '../generated/entity.js'
import { translatorOf } from '../i18n/catalogue.js'
import { labelIn, type Locale } from '../i18n/locales.js'

export type { EntityFile, Field }
export type FieldType = Field['type']

/** Columns every table has; the engine fills them, clients may list and filter by them. */
export const AUDIT_FIELDS = ['createBy', 'createById', 'createTime', 'updateBy', 'updateById', 'updateTime'] as const

export interface FieldModel extends Field {
  name: string
  column: string
  /** Message when empty, or undefined when optional. */
  requiredMessage?: string
  uniqueMessage?: string
  builtin?: boolean
}

export interface EntityModel {
  file: EntityFile
  name: string
  table: string
  label: string
  scope: 'tenant' | 'platform'
  /** Declared fields, in file order. */
  fields: FieldModel[]
  /** Declared and built-in fields by name (id and audit columns included). */
  byName: Map<string, FieldModel>
  parentField?: string
}

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

const CHOOSE_TYPES: FieldType[] = ['enum', 'ref', 'boolean', 'date', 'datetime']

export function defaultRequiredMessage(field: Field): string {
  return `${CHOOSE_TYPES.includes(field.type) || field.control === 'regionCascader' ? '请选择' : '请输入'}${field.label}`
}

function builtin(name: string, type: FieldType, label: string, ref?: string): FieldModel {
  return { name, column: snakeCase(name), type, label, builtin: true, readOnly: true, ...(ref ? { ref } : {}) }
}

const BUILTINS: FieldModel[] = [
  builtin('id', 'string', 'ID'),
  builtin('createBy', 'string', '创建人'),
  // The audit user ids are refs to the user: a filter on them is a user picker, never a box asking for an id.
  builtin('createById', 'ref', '创建人', 'user'),
  builtin('createTime', 'datetime', '创建时间'),
  builtin('updateBy', 'string', '修改人'),
  builtin('updateById', 'ref', '修改人', 'user'),
  builtin('updateTime', 'datetime', '修改时间'),
]

/**
 * Normalises an entity file once: columns, messages and the built-in fields. `locale` is the language
 * the browser shows (the server validates in Simplified and translates its answers on the way out).
 */
export function buildEntityModel(file: EntityFile, locale: Locale = 'zh-CN'): EntityModel {
  const t = translatorOf(locale)
  const fields: FieldModel[] = Object.entries(file.fields).map(([name, field]) => ({
    ...field,
    name,
    column: field.column ?? snakeCase(name),
    requiredMessage:
      typeof field.required === 'string' ? t(field.required) : field.required ? t(defaultRequiredMessage(field)) : undefined,
    uniqueMessage:
      typeof field.unique === 'string' ? t(field.unique) : field.unique ? t(`${field.label}重复，请重新输入`) : undefined,
  }))
  const byName = new Map<string, FieldModel>()
  const builtins = locale === 'zh-CN' ? BUILTINS : BUILTINS.map((f) => ({ ...f, label: t(f.label) }))
  for (const f of [...builtins, ...fields]) byName.set(f.name, f)
  return {
    file,
    name: file.name,
    table: file.table,
    label: labelIn(file.label, locale),
    scope: file.scope ?? 'tenant',
    fields,
    byName,
    parentField: file.tree?.parentField,
  }
}

/** Name of the wire property that carries a ref's display text (`categoryId` -> `categoryName`). */
export function refLabelProperty(fieldName: string): string {
  return fieldName.endsWith('Id') ? `${fieldName.slice(0, -2)}Name` : `${fieldName}Name`
}

/** Name of the wire property that carries a ref's code beside its label (`scId` -> `scCode`, spec 000 §3 picker rows). */
export function refCodeProperty(fieldName: string): string {
  return fieldName.endsWith('Id') ? `${fieldName.slice(0, -2)}Code` : `${fieldName}Code`
}
