import type { JSONSchema4 } from 'json-schema'
import { refCodeProperty, refLabelProperty } from './entity-model.js'

/** How each field type travels on the wire, as JSON Schema (for generated TypeScript record types). */
export const WIRE_TYPES: Record<string, JSONSchema4> = {
  string: { type: 'string' },
  text: { type: 'string' },
  password: { type: 'string' },
  integer: { type: 'integer' },
  decimal: { type: 'string', description: 'decimal as text' },
  boolean: { type: 'boolean' },
  date: { type: 'string', description: 'YYYY-MM-DD' },
  datetime: { type: 'string', description: 'YYYY-MM-DD HH:mm:ss' },
  ref: { type: 'string', description: 'id' },
  json: {},
}

export interface WireEntity {
  name: string
  label: { 'zh-CN': string }
  fields: Record<string, { type: string; label: string; enum?: string; ref?: string; multiple?: boolean; hidden?: boolean }>
}

/** Whether the entity of this name has a `code` field (its refs then answer `<x>Code` beside `<x>Name`). */
export type RefHasCode = (ref: string) => boolean

/**
 * The record of one entity file as it travels on the wire (hidden fields left out): `npm run gen`
 * writes it to src/shared/generated/entities.ts, the low-code generator previews the same type.
 */
export function entityWireSchema(
  entity: WireEntity,
  enums: Record<string, { items?: { code: unknown }[] }>,
  refHasCode: RefHasCode = () => false,
): JSONSchema4 {
  const properties: Record<string, JSONSchema4> = { id: { type: 'string' } }
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.hidden) continue
    let type: JSONSchema4 = WIRE_TYPES[field.type] ?? {}
    if (field.type === 'enum' && field.enum) type = { enum: (enums[field.enum]?.items ?? []).map((i) => i.code) as JSONSchema4['enum'] }
    if (field.type === 'ref' && field.multiple) type = { type: 'array', items: { type: 'string' } }
    properties[name] = { ...type, description: field.label }
  }
  // What the store joins beside a single ref's id (engine/entity-store.ts): its label and, where the target has one, its code.
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.hidden || field.type !== 'ref' || field.multiple) continue
    const label = refLabelProperty(name)
    const code = refCodeProperty(name)
    if (!(label in entity.fields)) properties[label] = { type: ['string', 'null'], description: `${field.label}（名称）` }
    if (field.ref && refHasCode(field.ref) && !(code in entity.fields)) properties[code] = { type: ['string', 'null'], description: `${field.label}（编号）` }
  }
  for (const audit of ['createBy', 'createById', 'createTime', 'updateBy', 'updateById', 'updateTime']) properties[audit] = { type: 'string' }
  const title = entity.name[0].toUpperCase() + entity.name.slice(1)
  return { title, description: entity.label['zh-CN'], type: 'object', properties, additionalProperties: true }
}
