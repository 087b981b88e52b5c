/** A row placed in a tree: its children and its outline number (1, 1.2, 1.2.1). */
export type TreeRow<T> = T & { children?: TreeRow<T>[]; __seq: string }

/** A row's id or parent as a key: text, or nothing for an empty value (ids may be numbers in a custom list). */
const keyOf = (v: unknown): string | undefined => (v === null || v === undefined || v === '' ? undefined : String(v))

/**
 * Nests the flat rows of a tree by their parent field (ids in `idField`, `id` by default), keeping the
 * server's order within each level. A row whose parent is not in the answer (filtered out by a search)
 * becomes a root, so matches are never hidden.
 */
export function buildTree<T extends object>(rows: readonly T[], parentField: string, idField = 'id'): TreeRow<T>[] {
  const field = (row: T, name: string) => (row as Record<string, unknown>)[name]
  const parentOf = new Map<string, string | undefined>()
  const nodes = new Map<string, TreeRow<T>>()
  for (const row of rows) {
    const id = keyOf(field(row, idField))
    if (id === undefined || nodes.has(id)) continue
    parentOf.set(id, keyOf(field(row, parentField)))
    nodes.set(id, { ...row, __seq: '' })
  }
  // A parent chain that leads back to the row (bad data) would hide the whole loop: cut it there.
  const inCycle = (id: string) => {
    const seen = new Set([id])
    for (let p = parentOf.get(id); p !== undefined && parentOf.has(p); p = parentOf.get(p)) {
      if (seen.has(p)) return true
      seen.add(p)
    }
    return false
  }
  const roots: TreeRow<T>[] = []
  for (const [id, node] of nodes) {
    const parentId = parentOf.get(id)
    const parent = parentId !== undefined && parentId !== id && !inCycle(id) ? nodes.get(parentId) : undefined
    if (parent) (parent.children ??= []).push(node)
    else roots.push(node)
  }
  const number = (level: TreeRow<T>[], prefix: string) => {
    level.forEach((node, i) => {
      node.__seq = prefix ? `${prefix}.${i + 1}` : String(i + 1)
      if (node.children) number(node.children, node.__seq)
    })
  }
  number(roots, '')
  return roots
}

/** Ids of every node that has children: the keys to expand a whole tree. */
export function parentKeys<T extends object>(tree: readonly TreeRow<T>[], idField = 'id'): string[] {
  const out: string[] = []
  const walk = (level: readonly TreeRow<T>[]) => {
    for (const node of level) {
      if (node.children?.length) {
        out.push(String((node as Record<string, unknown>)[idField]))
        walk(node.children)
      }
    }
  }
  walk(tree)
  return out
}

/** Ids of a node and everything below it. */
export function subtreeIds<T extends { id: string }>(node: TreeRow<T>): string[] {
  return [node.id, ...(node.children ?? []).flatMap((c) => subtreeIds(c))]
}

/**
 * Keeps the rows matching every text filter together with their ancestors, so a match is shown where it
 * sits in the tree. A filter's text, trimmed, is looked for (case-insensitive) in the node's trimmed name
 * (000: a tree picker searches the name, whichever box it is typed in) and in the filtered field itself,
 * so a code typed into 编号 still finds its node.
 */
export function filterTreeRows<T extends { id: string } & Record<string, unknown>>(
  rows: readonly T[],
  parentField: string,
  filters: Record<string, string>,
  nameField = 'name',
): T[] {
  const active = Object.entries(filters)
    .map(([field, v]) => [field, v.trim().toLowerCase()] as const)
    .filter(([, v]) => v !== '')
  if (!active.length) return [...rows]
  const byId = new Map(rows.map((r) => [r.id, r]))
  const keep = new Set<string>()
  const has = (value: unknown, text: string) => String(value ?? '').trim().toLowerCase().includes(text)
  for (const row of rows) {
    const hit = active.every(([field, v]) => has(row[nameField], v) || has(row[field], v))
    if (!hit) continue
    for (let r: T | undefined = row; r && !keep.has(r.id); r = byId.get(String(r[parentField] ?? ''))) keep.add(r.id)
  }
  return rows.filter((r) => keep.has(r.id))
}
