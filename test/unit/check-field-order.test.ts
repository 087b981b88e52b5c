import { describe, expect, it } from 'vitest'
import { checkField } from '../../src/shared/metadata/validate-record.js'
import type { FieldModel } from '../../src/shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'

/**
 * A number's reasons come in the order that names the real problem: not a number, then its sign and bounds,
 * then its places, then its field's pattern (whose message, such as "at most 2 places", would misname a sign).
 */
describe('checkField tells a sign before places and pattern', () => {
  const enums = {} as EnumCatalog
  // The agreed payment's amount as its import column checks it: the entity's field and "greater than 0".
  const amount = {
    name: 'payAmount', label: '支付金额', type: 'decimal', precision: 24, scale: 2, pattern: 'price', patternMessage: '支付金额最多允许2位小数！', minExclusive: 0,
  } as FieldModel
  const quantity = { name: 'orderNum', label: '采购数量', type: 'integer', min: 1, minMessage: '采购数量必须大于0', max: 1000 } as FieldModel
  it.each([
    ['-100', '支付金额必须大于0'],
    [-100, '支付金额必须大于0'],
    ['-1.239', '支付金额必须大于0'],
    ['0', '支付金额必须大于0'],
    ['1.239', '支付金额最多允许2位小数！'],
    ['-', '支付金额必须为数字'],
    ['1.50', undefined],
  ])('amount %j', (value, message) => {
    expect(checkField(amount, value, enums, 'create')).toBe(message)
  })
  it.each([
    ['-99999999999999999999', '采购数量必须大于0'],
    ['0', '采购数量必须大于0'],
    ['1001', '采购数量不能大于1000'],
    ['1.5', '采购数量必须为整数'],
    ['3', undefined],
  ])('quantity %j', (value, message) => {
    expect(checkField(quantity, value, enums, 'create')).toBe(message)
  })
})
