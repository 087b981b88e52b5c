import { describe, expect, it } from 'vitest'
import { authorityPasses, permits, routePasses } from '../../src/client/app/authority.js'
import type { Session } from '../../src/client/app/session.js'
import { MESSAGES, translate } from '../../src/client/i18n/messages.js'
import { toOrderChartData } from '../../src/client/pages/workplace/order-chart-data.js'

const session = (permissions: string[], roles: string[] = [], id = 'u1'): Session => ({
  token: 't',
  user: { id, code: 'c', name: 'n', username: 'user1', tenantId: '1' },
  permissions,
  roles,
})

describe('route authority (000 §6)', () => {
  const clerk = session(['base-data:supplier:query'], ['clerk'])
  it('passes no authority and *, checks a permission string and a role list', () => {
    expect(authorityPasses(clerk, undefined)).toBe(true)
    expect(authorityPasses(clerk, '*')).toBe(true)
    expect(authorityPasses(clerk, 'base-data:supplier:query')).toBe(true)
    expect(authorityPasses(clerk, 'system:role:query')).toBe(false)
    expect(authorityPasses(clerk, ['manager', 'clerk'])).toBe(true)
    expect(authorityPasses(clerk, ['manager'])).toBe(false)
  })
  it('needs every authority of the chain; admin passes all', () => {
    expect(routePasses(clerk, [null, 'base-data:supplier:query'])).toBe(true)
    expect(routePasses(clerk, ['system:menu:query', 'base-data:supplier:query'])).toBe(false)
    expect(routePasses(session(['admin']), ['system:menu:query', ['manager']])).toBe(true)
  })
})

describe('permission directive', () => {
  it('checks the permission and the permissionUserId:{id} entry; admin passes', () => {
    const owner = session(['crm:customer:modify'], [], '42')
    expect(permits(owner, ['crm:customer:modify'])).toBe(true)
    expect(permits(owner, ['crm:customer:delete'])).toBe(false)
    expect(permits(owner, ['crm:customer:modify', 'permissionUserId:42'])).toBe(true)
    expect(permits(owner, ['crm:customer:modify', 'permissionUserId:7'])).toBe(false)
    expect(permits(session(['admin'], [], '1'), ['crm:customer:delete', 'permissionUserId:7'])).toBe(true)
  })
})

describe('messages', () => {
  it('has every key in the three languages and fills parameters', () => {
    for (const entry of Object.values(MESSAGES)) for (const text of Object.values(entry)) expect(text.length).toBeGreaterThan(0)
    expect(translate('zh-CN', 'tabs.lastTab')).toBe('这已经是最后一页，不能再关闭了！')
    expect(translate('en-US', 'login.resend', { seconds: 9 })).toBe('Resend in 9 s')
  })
})

describe('order chart data', () => {
  it('answers nothing for no rows or a non-list', () => {
    expect(toOrderChartData([])).toBeUndefined()
    expect(toOrderChartData(null)).toBeUndefined()
  })
  it('makes one series per kind over the sorted dates, zero where a kind has no row', () => {
    const data = toOrderChartData([
      { date: '2026-11-02', bizType: 2, totalNum: 5, totalAmount: '3000.00' },
      { date: '2026-11-01', bizType: 0, totalNum: 3, totalAmount: '1200.50' },
      { date: '2026-11-02', bizType: 0, totalNum: 1, totalAmount: 99 },
    ])
    expect(data).toEqual({
      dates: ['2026-11-01', '2026-11-02'],
      series: [
        { bizType: 0, num: [3, 1], amount: [1200.5, 99] },
        { bizType: 2, num: [0, 5], amount: [0, 3000] },
      ],
    })
  })
})
