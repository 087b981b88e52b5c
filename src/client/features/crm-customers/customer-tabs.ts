import type { ReactNode } from 'react'

/**
 * The tabs of the customer detail page (客户详情). The customer feature owns the page and its own tabs
 * (跟进记录, 负责人变更); the other CRM features (contacts, opportunities, contracts, collections) add
 * theirs by importing this file from their feature index:
 *
 *   registerCustomerTab({ key: 'contacts', title: '联系人', order: 20, render: (customerId) => <ContactsOfCustomer customerId={customerId} /> })
 *
 * `order` sorts the tabs (smaller first; the customer's own tabs use 10 and 90); a second registration
 * with the same key replaces the first (hot reload, tests).
 */
export interface CustomerTab {
  key: string
  title: string
  order?: number
  /** Permission keys of which the user needs one to see the tab; none means every user who sees the customer. */
  permissions?: readonly string[]
  render: (customerId: string) => ReactNode
}

const tabs = new Map<string, CustomerTab>()
const listeners = new Set<() => void>()

export function registerCustomerTab(tab: CustomerTab): void {
  tabs.set(tab.key, tab)
  for (const listener of listeners) listener()
}

/** The registered tabs in display order. */
export function customerTabs(): CustomerTab[] {
  return [...tabs.values()].sort((a, b) => (a.order ?? 50) - (b.order ?? 50) || a.key.localeCompare(b.key))
}

/** Called whenever a tab is registered (the detail page re-renders when a lazy feature adds one late). */
export function onCustomerTabsChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}
