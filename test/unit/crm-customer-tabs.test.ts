import { describe, expect, it } from 'vitest'
import { customerTabs, onCustomerTabsChange, registerCustomerTab } from '../../src/client/features/crm-customers/customer-tabs.js'

/** The registry other CRM features use to add tabs to the customer detail page. */
describe('customer detail tabs', () => {
  it('orders tabs, replaces a tab registered again under its key and tells listeners', () => {
    const seen: number[] = []
    const stop = onCustomerTabsChange(() => seen.push(customerTabs().length))
    registerCustomerTab({ key: 'owners', title: '负责人变更', order: 90, render: () => null })
    registerCustomerTab({ key: 'contacts', title: '联系人', order: 20, render: () => null })
    registerCustomerTab({ key: 'actions', title: '跟进记录', order: 10, render: () => null })
    registerCustomerTab({ key: 'contacts', title: '联系人（新）', order: 20, render: (id) => id })
    expect(customerTabs().map((t) => t.title)).toEqual(['跟进记录', '联系人（新）', '负责人变更'])
    expect(customerTabs()[1].render('c1')).toBe('c1')
    expect(seen).toEqual([1, 2, 3, 3])
    stop()
    registerCustomerTab({ key: 'contracts', title: '合同', render: () => null })
    expect(seen).toHaveLength(4)
    expect(customerTabs().map((t) => t.key)).toEqual(['actions', 'contacts', 'contracts', 'owners'])
  })
})
