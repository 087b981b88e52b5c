import type { ComponentType } from 'react'
import type { MenuEntry } from './menus.js'

/** What a header item receives: the signed-in user's function menus (a bell links its entries to their pages). */
export interface HeaderItemProps {
  entries: MenuEntry[]
}

const items = new Map<string, ComponentType<HeaderItemProps>>()

/**
 * The header's slots between the language switch and the user menu: a feature fills one at import time
 * (the notice bell, the bus connection), so the shell shows them without importing the features.
 * Shown in the order they were filled.
 */
export function fillHeaderSlot(key: string, component: ComponentType<HeaderItemProps>): void {
  items.set(key, component)
}

export const headerSlots = (): [string, ComponentType<HeaderItemProps>][] => [...items]
