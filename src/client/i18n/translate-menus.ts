import type { MenuNode } from '../../shared/contracts/menu-node.js'

/**
 * Menu titles in another language: the seeded menus' titles are in the term catalogue; a title an
 * admin wrote (or changed) shows as written.
 */
export function translateMenus(nodes: MenuNode[], translate: (text: string) => string): MenuNode[] {
  return nodes.map((n) => ({
    ...n,
    meta: { ...n.meta, title: n.meta.title ? translate(n.meta.title) : n.meta.title },
    children: n.children ? translateMenus(n.children, translate) : n.children,
  }))
}
