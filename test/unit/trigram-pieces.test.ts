import { describe, expect, it } from 'vitest'
import { keyParts, trigramPieces } from '../../src/server/db/search-index.js'

/** What a contains search asks PostgreSQL's trigram index for (search-index.ts trigramPieces). */
describe('trigramPieces', () => {
  const pieces = (text: string) => trigramPieces(keyParts(text) as string[])

  it('keeps the trigrams across characters and drops those spelling one character', () => {
    expect(keyParts('红色保温杯')?.join('')).toBe('p0iprmfrxlrdkfj')
    expect(pieces('红色保温杯')).toEqual(['0ipr', 'rmfr', 'rxlr', 'rdkf'])
    expect(pieces('保温杯 48')).toEqual(['rxlr', 'rdkf', 'fj00', '0w48'])
  })

  it('keeps a Latin key whole and a lone character its own trigram', () => {
    expect(pieces('S00012')).toEqual(['s00012'])
    expect(pieces('色')).toEqual(['prm'])
    expect(pieces('保温')).toEqual(['rxlr'])
  })

  it('asks for each piece once', () => {
    expect(pieces('哈哈哈哈')).toHaveLength(1)
  })

  it('covers every trigram of the key except the one-character ones, and only substrings of the key', () => {
    const alphabet = ['a', 'b', '7', ' ', '-', '色', '保', '😀', 'Z']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: 1 + (next() % 9) }, () => alphabet[next() % alphabet.length]).join('')
      const parts = keyParts(text) as string[]
      const key = parts.join('')
      if (key.length < 3) continue
      const got = trigramPieces(parts)
      for (const piece of got) expect(key, text).toContain(piece)
      const single = new Set<number>()
      parts.reduce((at, p) => (p.length === 3 && single.add(at), at + p.length), 0)
      const wanted = [...Array(key.length - 2).keys()].filter((i) => !single.has(i)).map((i) => key.slice(i, i + 3))
      for (const trigram of wanted) expect(got.some((piece) => piece.includes(trigram)), `${text}: ${trigram}`).toBe(true)
      if (!wanted.length) expect(got).toEqual([key])
    }
  })
})
