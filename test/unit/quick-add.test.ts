import { describe, expect, it } from 'vitest'
import { addOrIncrement, quickMatch } from '../../src/client/runtime/document/quick-add.js'

describe('the quick-add box as a scanner uses it', () => {
  const a = { productId: '1', productCode: 'P1', skuCode: '690001' }
  const b = { productId: '2', productCode: 'P10', skuCode: '690002' }

  it('takes the single match, or the one whose code or SKU is exactly the text', () => {
    expect(quickMatch([a], 'p')).toBe(a)
    expect(quickMatch([a, b], ' p1 ')).toBe(a)
    expect(quickMatch([a, b], '690002')).toBe(b)
    expect(quickMatch([a, b], 'P')).toBeUndefined()
    expect(quickMatch([], 'P1')).toBeUndefined()
    expect(quickMatch([a], '  ')).toBeUndefined()
  })

  it('adds a new line at 1, then counts the same product up on its hand-added line', () => {
    const same = () => true
    let rows: Record<string, unknown>[] = addOrIncrement([], { productId: '1' }, 'orderNum', same)
    expect(rows).toEqual([{ productId: '1', orderNum: 1 }])
    rows = addOrIncrement(rows, { productId: '1' }, 'orderNum', same)
    rows = addOrIncrement(rows, { productId: '2' }, 'orderNum', same)
    expect(rows).toEqual([{ productId: '1', orderNum: 2 }, { productId: '2', orderNum: 1 }])
    // A line of another kind (from the source, a gift) is not counted up: a new line is added.
    expect(addOrIncrement(rows, { productId: '1' }, 'orderNum', () => false)).toHaveLength(3)
  })
})
