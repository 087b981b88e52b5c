import { describe, expect, it } from 'vitest'
import { TextIndex } from '../../src/server/engine/text-index.js'

describe('text index', () => {
  it('answers what a Map answers, through growth, overwrites and texts of any script', () => {
    const index = new TextIndex()
    const map = new Map<string, number>()
    const texts = ['', ' ', 'a', 'A', '商品', '商品 ', 'BP0000001', '😀x']
    for (let i = 0; i < 200_000; i++) texts.push(i % 3 ? `BP${String(i).padStart(7, '0')}` : `编号-${(i * 7919) % 100_003}`)
    const wrong: string[] = []
    texts.forEach((t, i) => {
      if (map.has(t)) {
        if (index.get(t) !== map.get(t)) wrong.push(t)
        return
      }
      if (index.get(t) !== undefined) wrong.push(t)
      index.set(t, i)
      map.set(t, i)
    })
    expect(index.size).toBe(map.size)
    for (const [t, v] of map) if (index.get(t) !== v) wrong.push(t)
    expect(wrong).toEqual([])
    expect(index.get('BP9999999')).toBeUndefined()
    expect(index.get('商')).toBeUndefined()
    index.set('商品', 42)
    expect(index.get('商品')).toBe(42)
    expect(index.size).toBe(map.size)
  })
})
