import type { ReactNode } from 'react'

/** One tab of the customer detail page (联系人, 跟进, 商机, 合同, 回款, 负责人变更…), contributed by a CRM feature. */
export interface CustomerTab {
  key: string
  title: string
  render: (customerId: string) => ReactNode
}

const tabs: CustomerTab[] = []

/** Adds (or replaces, by key) a tab of the customer detail page; features call it at import time. */
export function registerCustomerTab(tab: CustomerTab): void {
  const at = tabs.findIndex((t) => t.key === tab.key)
  if (at >= 0) tabs[at] = tab
  else tabs.push(tab)
}

/** The registered tabs, in registration order. */
export function customerTabs(): readonly CustomerTab[] {
  return tabs
}
