import type { ReactNode } from 'react'

const pages = new Map<string, () => ReactNode>()

/**
 * The page of a normal-view menu component other than an entity screen (e.g. `/system/notice/index`).
 * Feature modules register at import time, before the shell renders; an unregistered component
 * shows 页面开发中.
 */
export function registerMenuPage(component: string, render: () => ReactNode): void {
  pages.set(component.trim(), render)
}

export function menuPage(component: string): (() => ReactNode) | undefined {
  return pages.get(component.trim())
}
