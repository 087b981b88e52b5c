import type { ListRow } from '../../shared/contracts/lowcode-wire.js'

/** Marks rows of a tree list: matches of the search are `"id@show": true` (domain-rules §2.11). */
export const SHOW_MARK = 'id@show'

/**
 * Nests the flat rows of a tree list by id and parent columns, keeping the server's order; a row
 * whose parent is missing (or that would close a loop) is a root.
 */
export function nestRows(rows: readonly ListRow[], idColumn: string, pidColumn: string, childrenKey: string): ListRow[] {
  const key = (v: unknown) => (v === null || v === undefined || v === '' ? undefined : String(v))
  const nodes = new Map<string, ListRow>()
  for (const row of rows) {
    const id = key(row[idColumn])
    if (id !== undefined && !nodes.has(id)) nodes.set(id, { ...row })
  }
  const parentOf = (id: string) => key(nodes.get(id)?.[pidColumn])
  const loops = (id: string) => {
    const seen = new Set([id])
    for (let p = parentOf(id); p !== undefined && nodes.has(p); p = parentOf(p)) {
      if (seen.has(p)) return true
      seen.add(p)
    }
    return false
  }
  const roots: ListRow[] = []
  for (const [id, node] of nodes) {
    const pid = parentOf(id)
    const parent = pid !== undefined && pid !== id && !loops(id) ? nodes.get(pid) : undefined
    if (parent) ((parent[childrenKey] as ListRow[] | undefined) ?? (parent[childrenKey] = [])).push(node)
    else roots.push(node)
  }
  return roots
}

/** Every id of a nested tree (to show it expanded). */
export function allKeys(rows: readonly ListRow[], idColumn: string, childrenKey: string): string[] {
  const out: string[] = []
  const walk = (list: readonly ListRow[]) => {
    for (const r of list) {
      out.push(String(r[idColumn]))
      const children = r[childrenKey]
      if (Array.isArray(children)) walk(children as ListRow[])
    }
  }
  walk(rows)
  return out
}
