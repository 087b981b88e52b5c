/** A row placed in a tree: its children and its outline number (1, 1.2, 1.2.1). */
export type TreeRow<T> = T & { children?: TreeRow<T>[]; __seq: string }

/**
 * Nests the flat rows of a tree entity by their parent field, keeping the server's order within
 * each level. A row whose parent is not in the answer (filtered out by a search) becomes a root, so
 * matches are never hidden.
 */
export function buildTree<T extends { id: string }>(rows: readonly T[], parentField: string): TreeRow<T>[] {
  const parentOf = new Map<string, string | undefined>()
  for (const row of rows) {
    const p = (row as Record<string, unknown>)[parentField]
    parentOf.set(row.id, typeof p === 'string' && p ? p : undefined)
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
  const nodes = new Map<string, TreeRow<T>>()
  for (const row of rows) nodes.set(row.id, { ...row, __seq: '' })
  const roots: TreeRow<T>[] = []
  for (const row of rows) {
    const node = nodes.get(row.id)!
    const parentId = parentOf.get(row.id)
    const parent = parentId !== undefined && !inCycle(row.id) ? nodes.get(parentId) : undefined
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
export function parentKeys<T extends { id: string }>(tree: readonly TreeRow<T>[]): string[] {
  const out: string[] = []
  const walk = (level: readonly TreeRow<T>[]) => {
    for (const node of level) {
      if (node.children?.length) {
        out.push(node.id)
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
 * Keeps the rows matching every text filter (substring, case-insensitive) together with their
 * ancestors, so a match is shown where it sits in the tree.
 */
export function filterTreeRows<T extends { id: string } & Record<string, unknown>>(rows: readonly T[], parentField: string, filters: Record<string, string>): T[] {
  const active = Object.entries(filters).filter(([, v]) => v.trim() !== '')
  if (!active.length) return [...rows]
  const byId = new Map(rows.map((r) => [r.id, r]))
  const keep = new Set<string>()
  for (const row of rows) {
    const hit = active.every(([field, v]) => String(row[field] ?? '').toLowerCase().includes(v.trim().toLowerCase()))
    if (!hit) continue
    for (let r: T | undefined = row; r && !keep.has(r.id); r = byId.get(String(r[parentField] ?? ''))) keep.add(r.id)
  }
  return rows.filter((r) => keep.has(r.id))
}
