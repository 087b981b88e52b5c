import type { ComponentType, ReactNode } from 'react'

/**
 * What a menu view receives (001 §2): the query parameters of its address and the `:param` values of
 * its path, as strings.
 */
export type MenuInputs = Record<string, string>

const pages = new Map<string, (inputs: MenuInputs) => ReactNode>()

/**
 * The page of a normal-view menu component other than an entity screen (e.g. `/system/notice/index`).
 * Feature modules register at import time, before the shell renders; an unregistered component
 * shows 页面开发中.
 */
export function registerMenuPage(component: string, render: (inputs: MenuInputs) => ReactNode): void {
  pages.set(component.trim(), render)
}

export function menuPage(component: string): ((inputs: MenuInputs) => ReactNode) | undefined {
  return pages.get(component.trim())
}

/** The low-code runtimes that host custom lists, forms and pages (MENU_COMPONENT_TYPE 1, 2, 3). */
export type LowCodeKind = 'list' | 'form' | 'page'

export interface LowCodeHostProps {
  kind: LowCodeKind
  /** customListId, formId or pageId: the menu's component. */
  id: string
  /** Custom forms: the menu's requestParam, parsed from its JSON text. */
  requestParam?: Record<string, unknown>
  inputs: MenuInputs
}

const hosts = new Map<LowCodeKind, ComponentType<LowCodeHostProps>>()

/** The low-code issue registers its runtimes here; until then the shell shows a placeholder host. */
export function registerLowCodeHost(kind: LowCodeKind, host: ComponentType<LowCodeHostProps>): void {
  hosts.set(kind, host)
}

export function lowCodeHost(kind: LowCodeKind): ComponentType<LowCodeHostProps> | undefined {
  return hosts.get(kind)
}
