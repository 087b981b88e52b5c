/**
 * The SKU lines of a SPU (`productPoly.products`) as the SKU matrix edits them, and the wire shape the
 * server's poly hooks read (`src/server/modules/basedata/product-poly.ts`): per line `id` (existing SKU),
 * `salePropItem1Id` / `salePropItem2Id` (one item of each chosen group, in group order), `code`,
 * `skuCode`, `externalCode` and the three prices as decimal text. Nothing here touches React.
 */

/** A SPU has at most two ordered sale-property groups (server: 销售属性数据有误！ beyond that). */
export const MAX_SALE_PROP_GROUPS = 2

export interface SkuLine {
  /** Set for a SKU that already exists (modify). */
  id?: string
  /** Item ids, one per group, in group order; empty for a SPU without sale properties. */
  items: string[]
  code: string
  skuCode: string
  externalCode: string
  purchasePrice: string | null
  salePrice: string | null
  retailPrice: string | null
}

export const PRICE_FIELDS = ['purchasePrice', 'salePrice', 'retailPrice'] as const
export type PriceField = (typeof PRICE_FIELDS)[number]
export const TEXT_FIELDS = ['code', 'skuCode', 'externalCode'] as const
export type TextField = (typeof TEXT_FIELDS)[number]

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
const text = (v: unknown) => (blank(v) ? '' : String(v))
const price = (v: unknown) => (blank(v) ? null : String(v))

/** Key of an item combination; '' for the single line of a SPU without groups. */
export const comboKey = (items: readonly string[]) => items.join('|')

/** Every combination of the chosen items, group 1 × group 2, in order (`[[]]` without groups). */
export function cartesian(itemsByGroup: readonly (readonly string[])[]): string[][] {
  return itemsByGroup.reduce<string[][]>((rows, items) => rows.flatMap((row) => items.map((item) => [...row, item])), [[]])
}

/** A SKU line from the value or from a SKU row of the record (`GET /basedata/product/poly` answers full product rows). */
export function lineFromWire(raw: unknown): SkuLine {
  const r = isObject(raw) ? raw : {}
  const items = [r.salePropItem1Id, r.salePropItem2Id].filter((v) => !blank(v)).map(String)
  const line: SkuLine = {
    items,
    code: text(r.code),
    skuCode: text(r.skuCode),
    externalCode: text(r.externalCode),
    purchasePrice: price(r.purchasePrice),
    salePrice: price(r.salePrice),
    retailPrice: price(r.retailPrice),
  }
  if (typeof r.id === 'string' && r.id) line.id = r.id
  return line
}

/** The lines held in a field value (anything that is not an array holds none). */
export const linesOf = (value: unknown): SkuLine[] => (Array.isArray(value) ? value.map(lineFromWire) : [])

/** A line as the server reads it; blank optional text goes as null, prices as decimal text or null. */
export function lineToWire(line: SkuLine): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (line.id) out.id = line.id
  out.salePropItem1Id = line.items[0] ?? null
  out.salePropItem2Id = line.items[1] ?? null
  out.code = line.code
  out.skuCode = line.skuCode
  out.externalCode = blank(line.externalCode) ? null : line.externalCode
  for (const f of PRICE_FIELDS) out[f] = line[f]
  return out
}

export const blankLine = (items: readonly string[]): SkuLine => ({
  items: [...items],
  code: '',
  skuCode: '',
  externalCode: '',
  purchasePrice: null,
  salePrice: null,
  retailPrice: null,
})

/** The ticked items per group that a set of lines uses, in the lines' order. */
export function selectionOf(lines: readonly SkuLine[], groupIds: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  groupIds.forEach((g, i) => {
    const used: string[] = []
    for (const l of lines) {
      const item = l.items[i]
      if (item && !used.includes(item)) used.push(item)
    }
    out[g] = used
  })
  return out
}

export type RowState =
  /** In the value: saved as a new SKU or as the existing one. */
  | 'active'
  /** A combination the user took out (a new one is simply not created). */
  | 'excluded'
  /** An existing SKU whose item is no longer ticked: the server deletes it. */
  | 'unticked'

export interface MatrixRow {
  key: string
  items: string[]
  line: SkuLine
  state: RowState
  /** The SKU of the record with this combination (modify). */
  existing?: SkuLine
}

export interface MatrixInput {
  groupIds: readonly string[]
  /** Ticked items per group id, ordered as the rows should be. */
  selected: Readonly<Record<string, readonly string[]>>
  excluded: ReadonlySet<string>
  /** The lines of the current value. */
  current: readonly SkuLine[]
  /** Lines typed earlier for combinations that are not in the value now. */
  cache: ReadonlyMap<string, SkuLine>
  /** The SKUs the record had (modify); empty when adding. */
  existing: readonly SkuLine[]
}

/**
 * The rows of the matrix: every combination of the ticked items (active unless excluded), each line
 * taken from the value, else from what was typed before for that combination, else the existing SKU,
 * else blank; then the existing SKUs whose combination is no longer ticked (to be deleted).
 */
export function matrixRows({ groupIds, selected, excluded, current, cache, existing }: MatrixInput): MatrixRow[] {
  const byKey = new Map(current.map((l) => [comboKey(l.items), l]))
  const existingByKey = new Map(existing.map((l) => [comboKey(l.items), l]))
  const combos = cartesian(groupIds.map((g) => selected[g] ?? []))
  const rows: MatrixRow[] = combos.map((items) => {
    const key = comboKey(items)
    const old = existingByKey.get(key)
    const line = byKey.get(key) ?? cache.get(key) ?? old ?? blankLine(items)
    // The one line of a SPU without sale properties cannot be taken out.
    const state: RowState = groupIds.length && excluded.has(key) ? 'excluded' : 'active'
    return { key, items, line, state, existing: old }
  })
  const shown = new Set(rows.map((r) => r.key))
  for (const old of existing) {
    const key = comboKey(old.items)
    if (shown.has(key)) continue
    shown.add(key)
    rows.push({ key, items: old.items, line: cache.get(key) ?? old, state: 'unticked', existing: old })
  }
  return rows
}

/** The value the matrix rows stand for: the active lines, in matrix order. */
export const valueOf = (rows: readonly MatrixRow[]) => rows.filter((r) => r.state === 'active').map((r) => lineToWire(r.line))

/**
 * Combinations of the ticked items that a value does not hold: opening an existing SPU whose SKUs do
 * not fill the whole matrix must not offer the missing combinations as new SKUs.
 */
export function missingCombos(groupIds: readonly string[], selected: Readonly<Record<string, readonly string[]>>, lines: readonly SkuLine[]) {
  // Nothing to hold yet (adding), or the one line of a SPU without groups: nothing is missing.
  if (!lines.length || !groupIds.length) return []
  const have = new Set(lines.map((l) => comboKey(l.items)))
  return cartesian(groupIds.map((g) => selected[g] ?? []))
    .map(comboKey)
    .filter((k) => !have.has(k))
}

/** Orders ticked ids like the group's items (the picker's order), unknown ids last in their order. */
export function inItemOrder(ids: readonly string[], order: readonly string[]): string[] {
  const at = (id: string) => {
    const i = order.indexOf(id)
    return i < 0 ? order.length : i
  }
  return [...ids].sort((a, b) => at(a) - at(b))
}

/** A code for a line: the SPU 货号 followed by the item codes, cut to the code's 20 characters. */
export const suggestedCode = (spuCode: string, itemCodes: readonly string[]) => `${spuCode.trim()}${itemCodes.join('')}`.slice(0, 20)
