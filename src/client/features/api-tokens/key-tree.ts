import type { ApiTokenKeys } from '../../../shared/contracts/api-tokens.js'

export interface KeyNode {
  key: string
  title: string
  /** The permission key this node grants itself (a menu or a button), if any. */
  permission: string | null
  /** Every key of this node and the nodes below it. */
  keys: string[]
  children?: KeyNode[]
}

/** The id of the group of keys no menu grants (a role's own key). */
export const OTHER_KEYS = 'other-keys'

/**
 * The tree a token's keys are chosen in, grouped as the menu is: each menu or button that grants one of
 * the user's keys under its catalogs, titles in the shown language; keys no menu grants form one group
 * at the end, so every key the server offers can be chosen.
 */
export function buildKeyTree(answer: ApiTokenKeys, tr: (text: string) => string, otherTitle: string): KeyNode[] {
  const nodes = new Map<string, KeyNode>()
  for (const m of answer.menus) nodes.set(m.id, { key: m.id, title: tr(m.title), permission: m.permission, keys: [] })
  const roots: KeyNode[] = []
  for (const m of answer.menus) {
    const node = nodes.get(m.id)!
    const parent = m.parentId ? nodes.get(m.parentId) : undefined
    if (parent && parent !== node) (parent.children ??= []).push(node)
    else roots.push(node)
  }
  const placed = new Set(answer.menus.map((m) => m.permission).filter((p): p is string => Boolean(p)))
  const others = answer.keys.filter((k) => !placed.has(k))
  if (others.length)
    roots.push({ key: OTHER_KEYS, title: otherTitle, permission: null, keys: [], children: others.map((k) => ({ key: `key:${k}`, title: k, permission: k, keys: [] })) })
  const fill = (node: KeyNode): string[] => {
    node.keys = [...(node.permission ? [node.permission] : []), ...(node.children ?? []).flatMap(fill)]
    return node.keys
  }
  roots.forEach(fill)
  return roots
}

/** Every node of the tree, parents first. */
export function allNodes(roots: readonly KeyNode[]): KeyNode[] {
  return roots.flatMap((n) => [n, ...allNodes(n.children ?? [])])
}

/** How the tree shows the chosen keys: a node whose keys are all chosen is ticked, one with some of them half-ticked. */
export function keyMarks(roots: readonly KeyNode[], chosen: ReadonlySet<string>): { checked: string[]; halfChecked: string[] } {
  const checked: string[] = []
  const halfChecked: string[] = []
  for (const node of allNodes(roots)) {
    const held = node.keys.filter((k) => chosen.has(k)).length
    if (held && held === node.keys.length) checked.push(node.key)
    else if (held) halfChecked.push(node.key)
  }
  return { checked, halfChecked }
}

/** Ticking a node chooses its keys and those below it; unticking lets them all go. */
export function toggleKeys(chosen: ReadonlySet<string>, node: KeyNode, on: boolean): Set<string> {
  const next = new Set(chosen)
  for (const k of node.keys) {
    if (on) next.add(k)
    else next.delete(k)
  }
  return next
}

/**
 * The nodes whose title or key contains `text`, with everything below them and the catalogs above them
 * (the whole tree for no text): what 定位 leaves of a tree of a few hundred keys.
 */
export function filterKeyTree(roots: readonly KeyNode[], text: string): KeyNode[] {
  const needle = text.trim().toLowerCase()
  if (!needle) return [...roots]
  const keep = (node: KeyNode): KeyNode | undefined => {
    if (node.title.toLowerCase().includes(needle) || node.permission?.toLowerCase().includes(needle)) return node
    const children = (node.children ?? []).map(keep).filter((n): n is KeyNode => Boolean(n))
    return children.length ? { ...node, children } : undefined
  }
  return roots.map(keep).filter((n): n is KeyNode => Boolean(n))
}
