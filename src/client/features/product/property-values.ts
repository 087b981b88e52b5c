import { COLUMN_TYPE } from '../../../shared/generated/enum-codes.js'
import type { PropertyDef } from '../../../shared/contracts/product.js'

/**
 * Property values of a product or SPU (`properties`) in the shape the server reads
 * (`readPropertyValues` in `src/server/modules/basedata/product-hooks.ts`): `[{id: propertyId, text}]`
 * where `text` is an item id (SINGLE), item ids (MULTIPLE) or the typed text (CUSTOM). The record
 * answers the same entries with `name`, `columnType` and `itemNames` beside them.
 */
export type PropertyText = string | string[]

export interface PropertyEntry {
  id: string
  text: PropertyText
  /** From the record only: what a detail shows. */
  name?: string
  itemNames?: string
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

function textOf(raw: unknown): PropertyText | undefined {
  if (Array.isArray(raw)) {
    const ids = raw.filter((v) => !blank(v)).map(String)
    return ids.length ? ids : undefined
  }
  if (typeof raw === 'string' && raw.trim().startsWith('[')) {
    try {
      return textOf(JSON.parse(raw))
    } catch {
      return raw
    }
  }
  if (typeof raw === 'number') return String(raw)
  return typeof raw === 'string' && raw !== '' ? raw : undefined
}

/** The entries of a value (the record's decorated ones included), by property id, blank ones left out. */
export function entriesOf(value: unknown): Map<string, PropertyEntry> {
  const out = new Map<string, PropertyEntry>()
  if (!Array.isArray(value)) return out
  for (const raw of value) {
    if (!isObject(raw)) continue
    const id = String(raw.id ?? raw.propertyId ?? '')
    const text = textOf(raw.text ?? raw.value)
    if (!id || text === undefined) continue
    out.set(id, {
      id,
      text,
      name: typeof raw.name === 'string' ? raw.name : undefined,
      itemNames: typeof raw.itemNames === 'string' ? raw.itemNames : undefined,
    })
  }
  return out
}

/** The text a property's control edits: one id for SINGLE, ids for MULTIPLE, text for CUSTOM. */
export function controlText(def: PropertyDef, text: PropertyText | undefined): PropertyText | undefined {
  if (text === undefined) return undefined
  if (def.columnType === COLUMN_TYPE.MULTIPLE) return Array.isArray(text) ? text : [text]
  return Array.isArray(text) ? text[0] : text
}

/**
 * The value to send: the properties of the category in their order, then entries of properties the
 * category list does not offer (a disabled property keeps its value); blanks are left out.
 */
export function propertyWire(defs: readonly PropertyDef[], entries: ReadonlyMap<string, PropertyEntry>): { id: string; text: PropertyText }[] {
  const out: { id: string; text: PropertyText }[] = []
  for (const def of defs) {
    const text = controlText(def, entries.get(def.id)?.text)
    if (text === undefined || (Array.isArray(text) && !text.length) || text === '') continue
    out.push({ id: def.id, text })
  }
  const offered = new Set(defs.map((d) => d.id))
  for (const e of entries.values()) if (!offered.has(e.id)) out.push({ id: e.id, text: e.text })
  return out
}

/** Item names of a choice value, or the text itself. */
export function displayText(def: PropertyDef | undefined, entry: PropertyEntry): string {
  if (entry.itemNames) return entry.itemNames
  const ids = Array.isArray(entry.text) ? entry.text : [entry.text]
  if (def?.items?.length) return ids.map((id) => def.items!.find((i) => i.id === id)?.name ?? id).join('，')
  return ids.join('，')
}
