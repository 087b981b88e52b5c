import { describe, expect, it } from 'vitest'
import { nextOccurrence, withNext } from '../../src/server/domain/crm/memorial.js'

describe('memorial days: the next day a memorial falls on', () => {
  it('a yearly day comes again this year or next', () => {
    expect(nextOccurrence('1985-04-12', true, '2026-04-01')).toBe('2026-04-12')
    expect(nextOccurrence('1985-04-12', true, '2026-04-12')).toBe('2026-04-12')
    expect(nextOccurrence('1985-04-12', true, '2026-04-13')).toBe('2027-04-12')
    expect(nextOccurrence('1985-12-31', true, '2026-12-31')).toBe('2026-12-31')
  })
  it('29 February is kept on 28 February in common years', () => {
    expect(nextOccurrence('2000-02-29', true, '2026-01-01')).toBe('2026-02-28')
    expect(nextOccurrence('2000-02-29', true, '2027-03-01')).toBe('2028-02-29')
  })
  it('a one-off day passes', () => {
    expect(nextOccurrence('2026-05-01', false, '2026-04-30')).toBe('2026-05-01')
    expect(nextOccurrence('2026-05-01', false, '2026-05-02')).toBeUndefined()
    expect(nextOccurrence('', true, '2026-05-02')).toBeUndefined()
  })
  it('days left count whole days across month and year ends', () => {
    const [a, b] = withNext([{ memorialDate: '1990-01-02', repeatYearly: true }, { memorialDate: '1990-12-30', repeatYearly: true }], '2026-12-30')
    expect([a.nextDate, a.daysLeft]).toEqual(['2027-01-02', 3])
    expect([b.nextDate, b.daysLeft]).toEqual(['2026-12-30', 0])
  })
})
