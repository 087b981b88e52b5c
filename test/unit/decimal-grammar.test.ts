import { describe, expect, it } from 'vitest'
import { checkDecimal, checkInteger, fitsDecimalColumn } from '../../src/shared/metadata/decimal-grammar.js'
import { checkField } from '../../src/shared/metadata/validate-record.js'
import type { FieldModel } from '../../src/shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'

describe('the decimal grammar shared by the browser form and the server write', () => {
  it.each(['0', '1', '-1', '+1', '1.5', '1.50', '-0.01', '007.10', '1.500', '99999999999999999999.99'])('takes %j', (text) => {
    expect(checkDecimal(text)).toBeUndefined()
  })

  it.each([' 1.00 ', '1.00 ', '0x10', '1e2', '1E2', '.5', '5.', '1,00', '１.00', '', ' ', '+', '-', '--1', '1.2.3', 'NaN', 'Infinity', '0b11', '1_000'])(
    'refuses the text %j',
    (text) => {
      expect(checkDecimal(text)).toBe('format')
    },
  )

  it.each([true, false, null, undefined, [1], { a: 1 }, Number.NaN, Number.POSITIVE_INFINITY])('refuses the value %j', (value) => {
    expect(checkDecimal(value)).toBe('format')
  })

  it('reads a JSON number through its shortest text', () => {
    expect(checkDecimal(1.25)).toBeUndefined()
    expect(checkDecimal(0.1 + 0.2)).toBe('scale')
    expect(checkDecimal(1e21)).toBe('format')
    expect(checkDecimal(1e-7, { scale: 6 })).toBe('format')
  })

  it('counts significant places against the scale and integer digits against the precision', () => {
    expect(checkDecimal('1.234')).toBe('scale')
    expect(checkDecimal('1.2300')).toBeUndefined()
    expect(checkDecimal('1.234567', { scale: 6 })).toBeUndefined()
    expect(checkDecimal('99999999999999.99', { precision: 16, scale: 2 })).toBeUndefined()
    expect(checkDecimal('100000000000000.00', { precision: 16, scale: 2 })).toBe('range')
    expect(checkDecimal('-100000000000000', { precision: 16, scale: 2 })).toBe('range')
    expect(checkDecimal('000000000000000001.5', { precision: 16, scale: 2 })).toBeUndefined()
    expect(fitsDecimalColumn('214748364699999999978525.53')).toBe(false)
    expect(fitsDecimalColumn('-9999999999999999999999.99')).toBe(true)
  })

  it('takes integers that are safe, and nothing else', () => {
    expect(checkInteger('42')).toBeUndefined()
    expect(checkInteger(-3)).toBeUndefined()
    expect(checkInteger(Number.MAX_SAFE_INTEGER)).toBeUndefined()
    expect(checkInteger('9007199254740993')).toBe('range')
    expect(checkInteger(1e20)).toBe('range')
    expect(checkInteger(1.5)).toBe('format')
    expect(checkInteger('1e3')).toBe('format')
    expect(checkInteger('0x10')).toBe('format')
    expect(checkInteger(' 1')).toBe('format')
  })
})

describe('checkField answers the form message for each problem', () => {
  const enums = {} as EnumCatalog
  const price = { name: 'taxPrice', label: '采购价', type: 'decimal', precision: 16, scale: 2 } as FieldModel
  const num = { name: 'orderNum', label: '采购数量', type: 'integer', integerMessage: '采购数量必须为整数' } as FieldModel
  it.each([
    [' 1.00 ', '采购价必须为数字'],
    ['1.00\u00a0', '采购价必须为数字'],
    ['\t1', '采购价必须为数字'],
    [' ', '采购价必须为数字'],
    ['', undefined],
    ['0x10', '采购价必须为数字'],
    ['1e2', '采购价必须为数字'],
    ['1.001', '采购价最多允许2位小数！'],
    ['100000000000000', '采购价超出允许范围'],
    ['12.30', undefined],
  ])('price %j', (value, message) => {
    expect(checkField(price, value, enums, 'create')).toBe(message)
  })
  it.each([
    [1e20, '采购数量超出允许范围'],
    ['9007199254740993', '采购数量超出允许范围'],
    ['1.5', '采购数量必须为整数'],
    // Blanks around a number, or blanks alone, are refused for quantities as for prices (never trimmed).
    [' 7 ', '采购数量必须为整数'],
    ['7 ', '采购数量必须为整数'],
    ['\t7', '采购数量必须为整数'],
    ['7\u00a0', '采购数量必须为整数'],
    [' ', '采购数量必须为整数'],
    ['7', undefined],
  ])('quantity %j', (value, message) => {
    expect(checkField(num, value, enums, 'create')).toBe(message)
  })
})
