import { describe, expect, it } from 'vitest'
import { decimalText } from '../../src/shared/metadata/decimal-text.js'
import { fieldText } from '../../src/client/runtime/field-text.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()

/** Decimals are shown at the scale their field declares, wherever a list, a line or a print shows them. */
describe('decimals at their declared scale', () => {
  it('formats exactly, keeps what is not a number', () => {
    expect(decimalText({ scale: 2 }, '38.000000')).toBe('38.00')
    expect(decimalText({ scale: 6 }, 38)).toBe('38.000000')
    expect(decimalText({}, '0.105')).toBe('0.11')
    expect(decimalText({ scale: 2 }, '12345678901234567890.125')).toBe('12345678901234567890.13')
    expect(decimalText({ scale: 2 }, 'abc')).toBe('abc')
  })

  it('a list cell of a declared decimal field (a check sheet’s 总金额, scale 2; 商品库存’s 含税成本价, scale 6)', () => {
    const total = meta.entity('settleCheckSheet').byName.get('totalAmount')!
    expect(fieldText(total, { totalAmount: '38.000000' }, meta.enums)).toBe('38.00')
    const stock = meta.entity('productStock').byName.get('taxPrice')!
    expect(fieldText(stock, { taxPrice: '38' }, meta.enums)).toBe('38.000000')
    expect(fieldText(stock, { taxPrice: null }, meta.enums)).toBe('')
  })
})
