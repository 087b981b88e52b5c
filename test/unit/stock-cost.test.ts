import { describe, expect, it } from 'vitest'
import {
  adjustCostPrice,
  issueAtAmount,
  issueAtAverage,
  receiveAtAverage,
  receiveAtPrice,
  round2,
  round6,
  type CostState,
} from '../../src/server/domain/stock/stock-cost.js'

const empty: CostState = { stockNum: 0, taxPrice: '0.000000', taxAmount: '0.00' }

describe('stock cost: moving weighted average with exact decimals', () => {
  it('rounds half up at 2 and 6 places, on exact decimal values', () => {
    expect(round2('1.005').toFixed(2)).toBe('1.01') // 1.005 in binary floating point is 1.00499…
    expect(round2('2.675').toFixed(2)).toBe('2.68')
    expect(round2('-1.005').toFixed(2)).toBe('-1.01') // half away from zero
    expect(round6('0.0000005').toFixed(6)).toBe('0.000001')
    expect(round6('1.2345674999').toFixed(6)).toBe('1.234567')
    expect(round6('1.2345675').toFixed(6)).toBe('1.234568')
  })

  it('has no float drift: 0.1 + 0.2, three times 0.1', () => {
    const a = receiveAtPrice(empty, 1, '0.1').after
    const b = receiveAtPrice(a, 1, '0.2').after
    expect(b).toEqual({ stockNum: 2, taxPrice: '0.150000', taxAmount: '0.30' })
    const three = receiveAtPrice(empty, 3, '0.1')
    expect(three.amount).toBe('0.30')
    expect(three.after).toEqual({ stockNum: 3, taxPrice: '0.100000', taxAmount: '0.30' })
  })

  it('prices of a third: the average keeps 6 places, the amount stays exact to the cent', () => {
    const r = receiveAtPrice(empty, 3, '1.00').after // 3.00
    const s = receiveAtPrice(r, 6, '0.00').after // gifts: 3.00 over 9
    expect(s).toEqual({ stockNum: 9, taxPrice: '0.333333', taxAmount: '3.00' })
    const out = issueAtAverage(s, 1) // round2(0.333333) = 0.33
    expect(out.amount).toBe('0.33')
    expect(out.after).toEqual({ stockNum: 8, taxPrice: '0.333333', taxAmount: '2.67' })
    const avgOf = receiveAtPrice(empty, 3, '10').after
    expect(receiveAtPrice(avgOf, 3, '10.01').after.taxPrice).toBe('10.005000')
    expect(receiveAtPrice(avgOf, 6, '10.01').after.taxPrice).toBe('10.006667') // 90.06 / 9 = 10.00666…
  })

  it('a line price with more than 2 places is rounded half up before it is multiplied', () => {
    const r = receiveAtPrice(empty, 10, '1.005')
    expect(r.amount).toBe('10.10')
    expect(r.after).toEqual({ stockNum: 10, taxPrice: '1.010000', taxAmount: '10.10' })
  })

  it('average after two receipts at two prices', () => {
    const first = receiveAtPrice(empty, 10, '12.50')
    expect(first.amount).toBe('125.00')
    const second = receiveAtPrice(first.after, 5, '13.99')
    expect(second.amount).toBe('69.95')
    // (125.00 + 69.95) / 15 = 12.996666…
    expect(second.after).toEqual({ stockNum: 15, taxPrice: '12.996667', taxAmount: '194.95' })
  })

  it('out then in at the average: the price stays, amounts move by round2(avg × num)', () => {
    const s = receiveAtPrice(receiveAtPrice(empty, 10, '12.50').after, 5, '13.99').after
    const out = issueAtAverage(s, 4)
    expect(out.amount).toBe('51.99') // 12.996667 × 4 = 51.986668
    expect(out.after).toEqual({ stockNum: 11, taxPrice: '12.996667', taxAmount: '142.96' })
    const back = receiveAtAverage(out.after, 2)
    expect(back.amount).toBe('25.99') // 25.993334
    expect(back.after).toEqual({ stockNum: 13, taxPrice: '12.996667', taxAmount: '168.95' })
  })

  it('out to zero: the amount becomes 0 and the last unit cost is kept', () => {
    const s = receiveAtPrice(empty, 3, '3.33').after // 9.99
    const a = issueAtAverage(s, 2)
    expect(a.after).toEqual({ stockNum: 1, taxPrice: '3.330000', taxAmount: '3.33' })
    const b = issueAtAverage(a.after, 1)
    expect(b.amount).toBe('3.33')
    expect(b.after).toEqual({ stockNum: 0, taxPrice: '3.330000', taxAmount: '0.00' })
    // goods coming back at the average use the kept price
    expect(receiveAtAverage(b.after, 2).after).toEqual({ stockNum: 2, taxPrice: '3.330000', taxAmount: '6.66' })
  })

  it('an issue beyond the stock is a programming error (the ledger refuses it first)', () => {
    expect(() => issueAtAverage({ stockNum: 1, taxPrice: '1', taxAmount: '1' }, 2)).toThrow(RangeError)
    expect(() => issueAtAverage(empty, 0)).toThrow(RangeError)
    expect(() => receiveAtPrice(empty, 1.5, '1')).toThrow(RangeError)
  })

  it('purchase return at the purchase price recomputes the average', () => {
    const s = receiveAtPrice(receiveAtPrice(empty, 10, '10.00').after, 10, '12.00').after // 220.00 / 20 = 11
    const r = issueAtAmount(s, 5, '60.00') // returned at 12.00 each
    expect(r.amount).toBe('60.00')
    expect(r.after).toEqual({ stockNum: 15, taxPrice: '10.666667', taxAmount: '160.00' })
    const all = issueAtAmount(r.after, 15, '150.00')
    expect(all.after).toEqual({ stockNum: 0, taxPrice: '10.666667', taxAmount: '0.00' })
    // credited above the book value: the rest is worth 0, never a negative value or price
    const over = issueAtAmount({ stockNum: 2, taxPrice: '5.000000', taxAmount: '10.00' }, 1, '12.00')
    expect(over.after).toEqual({ stockNum: 1, taxPrice: '0.000000', taxAmount: '0.00' })
  })

  it('gifts received at 0 lower the average', () => {
    const s = receiveAtPrice(empty, 10, '9.00').after
    const g = receiveAtPrice(s, 2, '0')
    expect(g.amount).toBe('0.00')
    expect(g.after).toEqual({ stockNum: 12, taxPrice: '7.500000', taxAmount: '90.00' })
  })

  it('cost adjust sets the price to 6 places and revalues the stock', () => {
    const s = receiveAtPrice(empty, 3, '10.00').after
    const a = adjustCostPrice(s, '11.1234567')
    expect(a.after).toEqual({ stockNum: 3, taxPrice: '11.123457', taxAmount: '33.37' })
    expect(a.amount).toBe('3.37')
    expect(adjustCostPrice(a.after, '9').amount).toBe('-6.37')
  })
})
