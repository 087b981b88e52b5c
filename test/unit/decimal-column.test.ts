import Decimal from 'decimal.js'
import { describe, expect, it } from 'vitest'
import { decimalColumn } from '../../src/server/engine/record-codec.js'

/** The codec's decimal column text equals decimal.js's toFixed for every shape, fast path or not. */
describe('decimalColumn (record-codec.ts)', () => {
  it('gives what new Decimal(v).toFixed(scale) gives', () => {
    const values = ['0', '0.5', '12', '12.5', '12.50', '12.505', '12.995', '007.1', '-1.2', '-0.001', '+3', '0.000', '0.0', '1.999',
      '123456789012345', '123456789012345.5', '1234567890123456.25', '99999999999999999999.99']
    for (const v of values) for (const scale of [0, 2, 4, 6]) expect(decimalColumn(v, scale), `${v} / ${scale}`).toBe(new Decimal(v).toFixed(scale))
    expect(decimalColumn(12.5, 2)).toBe('12.50')
  })
})
