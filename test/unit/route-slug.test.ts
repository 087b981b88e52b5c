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

describe('camelName', () => {
  it('turns a label into a camelCase ASCII property name with the same pinyin words', () => {
    expect(deriveRules.camelName('客户名称')).toBe('keHuMingCheng')
    expect(deriveRules.camelName('采购 订单2')).toBe('caiGouDingDan2')
    expect(deriveRules.camelName('customerName')).toBe('customerName')
    expect(deriveRules.camelName('绿色')).toBe('lvSe')
    expect(deriveRules.camelName('——')).toBe('')
  })
})
