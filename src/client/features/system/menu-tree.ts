import type { MenuGrant } from '../../../shared/contracts/system.js'

export type { MenuGrant }

export interface MenuTreeNode {
  key: string
  /** Plain title: the tree names each node's checkbox after it. */
  title: string
  menu: MenuGrant
  children?: MenuTreeNode[]
}

export interface MenuTree {
  roots: MenuTreeNode[]
  byId: Map<string, MenuGrant>
  /** Every menu id, parents first. */
  allKeys: string[]
  /** Ids of menus that have children (what 展开 opens). */
  parentKeys: string[]
  /** Parent of each menu that is in the tree. */
  parentOf: Map<string, string>
}

/** Builds the tree in the server's order; a menu whose parent is missing becomes a root. */
export function buildMenuTree(menus: readonly MenuGrant[]): MenuTree {
  const byId = new Map(menus.map((m) => [String(m.id), { ...m, id: String(m.id) }]))
  const nodes = new Map<string, MenuTreeNode>()
  for (const m of byId.values()) nodes.set(m.id, { key: m.id, title: m.title, menu: m })
  const roots: MenuTreeNode[] = []
  const parentOf = new Map<string, string>()
  for (const node of nodes.values()) {
    const pid = node.menu.parentId == null ? undefined : String(node.menu.parentId)
    const parent = pid && pid !== node.key ? nodes.get(pid) : undefined
    if (parent) {
      ;(parent.children ??= []).push(node)
      parentOf.set(node.key, parent.key)
    } else roots.push(node)
  }
  const allKeys: string[] = []
  const parentKeys: string[] = []
  const walk = (list: MenuTreeNode[]) => {
    for (const n of list) {
      allKeys.push(n.key)
      if (n.children?.length) {
        parentKeys.push(n.key)
        walk(n.children)
      }
    }
  }
  walk(roots)
  return { roots, byId, allKeys, parentKeys, parentOf }
}

/** Ancestors of a menu, nearest first (guarded against cycles in bad data). */
export function ancestorsOf(tree: MenuTree, id: string): string[] {
  const out: string[] = []
  const seen = new Set([id])
  for (let p = tree.parentOf.get(id); p && !seen.has(p); p = tree.parentOf.get(p)) {
    out.push(p)
    seen.add(p)
  }
  return out
}

/** Every menu below one, at any depth. */
export function descendantsOf(tree: MenuTree, id: string): string[] {
  const out: string[] = []
  const walk = (nodes: MenuTreeNode[] | undefined) => {
    for (const n of nodes ?? []) {
      out.push(n.key)
      walk(n.children)
    }
  }
  const find = (nodes: MenuTreeNode[]): MenuTreeNode | undefined => {
    for (const n of nodes) {
      if (n.key === id) return n
      const hit = n.children && find(n.children)
      if (hit) return hit
    }
    return undefined
  }
  walk(find(tree.roots)?.children)
  return out
}

/**
 * Ticking a menu grants it with everything below it (a catalog with its menus and their buttons, a menu
 * with its buttons) and the catalogs above it, which the menu needs to be reachable; unticking takes it
 * and everything below it away, and a catalog left with nothing granted below it goes too. A menu kept
 * without its buttons stays a read-only grant.
 */
export function toggleGrant(tree: MenuTree, checked: readonly string[], id: string, on: boolean): string[] {
  const next = new Set(checked)
  if (on) for (const k of [id, ...descendantsOf(tree, id), ...ancestorsOf(tree, id)]) next.add(k)
  else {
    for (const k of [id, ...descendantsOf(tree, id)]) next.delete(k)
    for (const a of ancestorsOf(tree, id)) {
      if (Number(tree.byId.get(a)?.display) !== 0 || descendantsOf(tree, a).some((k) => next.has(k))) break
      next.delete(a)
    }
  }
  return tree.allKeys.filter((k) => next.has(k))
}

/**
 * How the tree shows grants: ticked when a menu and everything below it is granted, half-ticked when
 * it is granted without all that is below it (a catalog with some of its menus, a read-only menu).
 */
export function grantMarks(tree: MenuTree, checked: readonly string[]): { checked: string[]; halfChecked: string[] } {
  const granted = new Set(checked)
  const full: string[] = []
  const half: string[] = []
  for (const k of tree.allKeys) {
    if (!granted.has(k)) continue
    if (descendantsOf(tree, k).every((d) => granted.has(d))) full.push(k)
    else half.push(k)
  }
  return { checked: full, halfChecked: half }
}

/**
 * What to save: the checked menus and every ancestor of them (the half-checked ones), so that a
 * granted button also grants its menu and catalogs.
 */
export function grantedIds(tree: MenuTree, checked: readonly string[]): string[] {
  const out = new Set<string>()
  for (const id of checked) {
    if (!tree.byId.has(id)) continue
    out.add(id)
    for (const a of ancestorsOf(tree, id)) out.add(a)
  }
  return tree.allKeys.filter((k) => out.has(k))
}
