import { describe, expect, it } from 'vitest'
import { documentSums, documentTotals, isGiftLine, paymentsMatch, paymentsRemaining, paymentsSum } from '../../src/shared/metadata/document-totals.js'

const totals = { num: 'orderNum', price: 'taxPrice', gift: 'isGift' }

describe('document totals (one function: the browser shows them, the server stores them)', () => {
  it('sums quantities, gifts apart, and the amount exactly', () => {
    const lines = [
      { orderNum: 3, taxPrice: '0.10' },
      { orderNum: 7, taxPrice: '0.20' },
      { orderNum: 2, taxPrice: '0' },
    ]
    // 0.3 + 1.4 in binary floating point is 1.7000000000000002; decimals give 1.70 exactly.
    expect(documentTotals(lines, totals)).toEqual({ num: '10', giftNum: '2', amount: '1.70' })
  })

  it('a price of 0 makes a gift; a price not typed yet does not', () => {
    expect(isGiftLine({ orderNum: 1, taxPrice: '0.00' }, totals)).toBe(true)
    expect(isGiftLine({ orderNum: 1, taxPrice: '' }, totals)).toBe(false)
    expect(isGiftLine({ orderNum: 1, taxPrice: undefined }, totals)).toBe(false)
    expect(isGiftLine({ orderNum: 1, taxPrice: '5', isGift: true }, totals)).toBe(true)
  })

  it('lines being typed count as nothing until they hold numbers', () => {
    const lines = [
      { orderNum: undefined, taxPrice: '12.50' },
      { orderNum: '4', taxPrice: 'abc' },
      { orderNum: 1.5, taxPrice: '2' },
      { orderNum: 4, taxPrice: '12.345' },
    ]
    // Only the last line is complete: 12.345 × 4 = 49.38; the 4 of the second line has no price yet.
    expect(documentTotals(lines, totals)).toEqual({ num: '8', giftNum: '0', amount: '49.38' })
  })

  it('numbers with blanks around them count as nothing, as the form and the server refuse them', () => {
    const lines = [
      { orderNum: ' 2 ', taxPrice: '1.00' },
      { orderNum: 3, taxPrice: '2.00\u00a0' },
      { orderNum: '\t5', taxPrice: '1.00' },
      { orderNum: 1, taxPrice: '7.00' },
    ]
    // The second line's quantity counts, its price does not; only the last line adds an amount.
    expect(documentTotals(lines, totals)).toEqual({ num: '4', giftNum: '0', amount: '7.00' })
  })

  it('large amounts and quantities stay exact', () => {
    expect(documentTotals([{ orderNum: 999999, taxPrice: '99999999.99' }], totals).amount).toBe('99999899990000.01')
    // Past the safe integers a float sum would round; the column check refuses the exact sum instead.
    expect(documentTotals([{ orderNum: '9007199254740991', taxPrice: '1' }, { orderNum: 2, taxPrice: '1' }], totals).num).toBe('9007199254740993')
  })

  it('sums the declared header amounts exactly; blanks count as 0', () => {
    const lines = [{ payAmount: '0.10', discountAmount: '' }, { payAmount: 0.2, discountAmount: '1.05' }]
    expect(documentSums(lines, { totalAmount: 'payAmount', totalDiscountAmount: 'discountAmount' })).toEqual([
      { field: 'totalAmount', value: '0.30' },
      { field: 'totalDiscountAmount', value: '1.05' },
    ])
  })

  it('documents without totals answer zeros; without a price no amount is added', () => {
    expect(documentTotals([{ orderNum: 5 }], undefined)).toEqual({ num: '0', giftNum: '0', amount: '0.00' })
    expect(documentTotals([{ orderNum: 5 }], { num: 'orderNum' })).toEqual({ num: '5', giftNum: '0', amount: '0.00' })
  })

  it('agreed payments add up to the total exactly or not at all', () => {
    const payments = [{ payAmount: '0.10' }, { payAmount: '0.20' }, { payAmount: '' }]
    expect(paymentsSum(payments)).toBe('0.30')
    expect(paymentsMatch(payments, '0.30')).toBe(true)
    expect(paymentsMatch(payments, '0.31')).toBe(false)
  })

  it('a new agreed payment starts with what the others leave of the total, nothing when they cover it', () => {
    expect(paymentsRemaining([], '42.00')).toBe('42.00')
    expect(paymentsRemaining([{ payAmount: '0.10' }, { payAmount: '' }], '0.30')).toBe('0.20')
    expect(paymentsRemaining([{ payAmount: '0.30' }], '0.30')).toBeUndefined()
    expect(paymentsRemaining([{ payAmount: '50' }], '42.00')).toBeUndefined()
  })
})
