/**
 * SPU / SKU ("poly", v2 `ProductPolyServiceImpl`): a SPU has at most two ordered sale-property groups;
 * each SKU is a product row that names one item of each group, and the items' names complete its name.
 */
export const SALE_PROP_WRONG = '销售属性数据有误！'
export const MAX_SALE_PROP_GROUPS = 2

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** The groups of a SPU: at most two, each once. */
export function salePropGroupsError(groupIds: readonly unknown[]): string | undefined {
  if (groupIds.length > MAX_SALE_PROP_GROUPS) return SALE_PROP_WRONG
  if (groupIds.some((g) => typeof g !== 'string' || !g)) return SALE_PROP_WRONG
  if (new Set(groupIds).size !== groupIds.length) return SALE_PROP_WRONG
  return undefined
}

/**
 * A SKU line's item ids, checked against the SPU's groups in order: item 1 belongs to group 1, item 2 to
 * group 2, and a line names exactly as many items as the SPU has groups. `groupOf` maps an item id to its
 * group id (unknown items are absent).
 */
export function skuItems(
  line: { salePropItem1Id?: unknown; salePropItem2Id?: unknown },
  groupIds: readonly string[],
  groupOf: ReadonlyMap<string, string>,
): { items: string[] } | { error: string } {
  const given = [line.salePropItem1Id, line.salePropItem2Id]
  const items: string[] = []
  for (let i = 0; i < MAX_SALE_PROP_GROUPS; i++) {
    const item = given[i]
    if (i >= groupIds.length) {
      if (!blank(item)) return { error: SALE_PROP_WRONG }
      continue
    }
    if (typeof item !== 'string' || blank(item) || groupOf.get(item) !== groupIds[i]) return { error: SALE_PROP_WRONG }
    items.push(item)
  }
  return { items }
}

/** Key of a SKU's item combination, to refuse two SKUs with the same items. */
export const comboKey = (items: readonly string[]) => items.join('\u0001')

/** SKU name: the SPU name followed by its item names, e.g. `T恤 红色 XL`. */
export function skuName(polyName: string, itemNames: readonly string[]): string {
  return [polyName.trim(), ...itemNames.map((n) => n.trim()).filter(Boolean)].join(' ')
}

/** Every combination of the chosen items (group 1 × group 2), in order; what a client shows as the matrix. */
export function skuMatrix(itemsByGroup: readonly (readonly string[])[]): string[][] {
  if (!itemsByGroup.length) return [[]]
  return itemsByGroup.reduce<string[][]>((rows, items) => rows.flatMap((row) => items.map((item) => [...row, item])), [[]])
}
