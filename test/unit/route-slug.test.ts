import { describe, expect, it } from 'vitest'
import { deriveRules } from '../../src/shared/metadata/derive.js'

describe('routeSlug', () => {
  it('turns a Chinese title into a readable route segment', () => {
    expect(deriveRules.routeSlug('客户列表')).toBe('ke-hu-lie-biao')
    expect(deriveRules.routeSlug('采购 订单2')).toBe('cai-gou-ding-dan-2')
    expect(deriveRules.routeSlug('Sales Report')).toBe('sales-report')
    expect(deriveRules.routeSlug('绿色')).toBe('lv-se')
  })
})
