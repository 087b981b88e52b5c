import type { ComponentType, ReactNode } from 'react'
import type { MenuNode } from './menus.js'

/**
 * What a menu view receives (001 §2): the query parameters of its address and the `:param` values of
 * its path, as strings.
 */
/** A menu whose component is `entity:<name>` opens that entity's list (and its add/modify pages below it). */
export const ENTITY_COMPONENT_PREFIX = 'entity:'

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

/** A page below a function menu that is not itself a menu (e.g. `/purchase/order/add`, `/purchase/order/modify/:id`). */
export interface SubPage {
  title: string
  /** Route pattern relative to the menu path (`modify/:id`), so `useParams` works inside the page. */
  pattern: string
  render: () => ReactNode
}

/** Answers the page of a menu that registered no component, or a page below it (`rest` is the path after the menu's). */
export type MenuResolver = (menu: MenuNode, rest: string) => SubPage | undefined

const resolvers: MenuResolver[] = []

/**
 * Data-driven pages (e.g. every document screen found from the menu's permission): asked, in order of
 * registration, for menus without a registered component (`rest` empty) and for paths below a menu.
 */
export function registerMenuResolver(resolver: MenuResolver): void {
  resolvers.push(resolver)
}

export function resolveMenu(menu: MenuNode, rest: string): SubPage | undefined {
  for (const r of resolvers) {
    const page = r(menu, rest)
    if (page) return page
  }
  return undefined
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
