import { describe, expect, it } from 'vitest'
import { MONTHLY, periodOf, WEEKLY } from '../../src/server/domain/crm/work-report.js'
import { linesTotal } from '../../src/client/features/crm-reports/claim-lines.js'

describe('work report periods', () => {
  it('puts every day of a week, Sunday included, into its Monday-to-Sunday week', () => {
    for (const day of ['2026-11-23', '2026-11-25', '2026-11-29']) expect(periodOf(WEEKLY, day)).toEqual({ startDate: '2026-11-23', endDate: '2026-11-29' })
    expect(periodOf(WEEKLY, '2026-11-30')).toEqual({ startDate: '2026-11-30', endDate: '2026-12-06' })
    // Across the year end.
    expect(periodOf(WEEKLY, '2027-01-01')).toEqual({ startDate: '2026-12-28', endDate: '2027-01-03' })
  })

  it('takes calendar months, leap February included', () => {
    expect(periodOf(MONTHLY, '2028-02-15')).toEqual({ startDate: '2028-02-01', endDate: '2028-02-29' })
    expect(periodOf(MONTHLY, '2026-02-28')).toEqual({ startDate: '2026-02-01', endDate: '2026-02-28' })
    expect(periodOf(MONTHLY, '2026-12-31 23:59:59')).toEqual({ startDate: '2026-12-01', endDate: '2026-12-31' })
  })

  it('refuses dates that do not exist', () => {
    for (const bad of ['2026-02-29', '2026-13-01', '26-1-1', 'abc']) expect(() => periodOf(WEEKLY, bad)).toThrow('报告日期格式不正确')
  })
})

describe('claim total on the form', () => {
  it('adds amounts exactly and skips lines without a valid amount', () => {
    expect(linesTotal([{ amount: '0.1' }, { amount: '0.2' }])).toBe('0.30')
    expect(linesTotal([{ amount: '9999999999.99' }, { amount: '0.01' }])).toBe('10000000000.00')
    expect(linesTotal([{ amount: '1.005' }, { amount: null }, {}, { amount: '2' }])).toBe('2.00')
  })
})
