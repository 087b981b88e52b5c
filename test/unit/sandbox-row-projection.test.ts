import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRow, rowFieldsRead } from '../../src/shared/sandbox/row-projection.js'
import { ScriptEngine } from '../../src/shared/sandbox/script-engine.js'
import { SCRIPT_PARAMS } from '../../src/shared/sandbox/script-kinds.js'

describe('formatter row projection', () => {
  it('finds the properties a formatter reads, in bodies and function expressions', () => {
    expect(rowFieldsRead('return row.available ? row.code : "停用"')).toEqual(['available', 'code'])
    expect(rowFieldsRead('(v, r) => r?.name + formatNumber(v, 2)')).toEqual(['name'])
    expect(rowFieldsRead('function (cellValue, item) { return item.a + item . b }')).toEqual(['a', 'b'])
    expect(rowFieldsRead('(v) => v * 2')).toEqual([])
    expect(rowFieldsRead('return cellValue + x.row')).toEqual([])
  })

  it('answers "the whole row" for any other use of it', () => {
    for (const source of [
      'return JSON.stringify(row)',
      '(v, r) => JSON.stringify({...r})',
      'return row["code"]',
      'const { code } = row; return code',
      'return arguments[1].code',
      'return [row].map(x => x.code)[0]',
      'return Object.keys(row).length',
      'row => row.code',
    ])
      expect(rowFieldsRead(source), source).toBeUndefined()
  })

  it('keeps only those properties of a plain-object row', () => {
    expect(projectRow({ a: 1, b: 2, c: 3 }, ['a', 'c', 'z'])).toEqual({ a: 1, c: 3 })
    expect(projectRow({ a: 1 }, undefined)).toEqual({ a: 1 })
    expect(projectRow([1, 2], ['a'])).toEqual([1, 2])
    expect(projectRow(null, ['a'])).toBeNull()
  })

  describe('gives the same text as the whole row', () => {
    let engine: ScriptEngine
    beforeAll(async () => {
      engine = await ScriptEngine.create()
    })
    afterAll(() => engine.dispose())
    const rows = [
      { code: 'P1', name: '商品1', available: true, amount: 1234.5, tags: ['a'] },
      { code: 'P2', name: '商品2', available: false, amount: 0, tags: [] },
    ]
    it.each([
      'return row.available ? row.code + " " + formatNumber(cellValue, 2) : "停用"',
      '(v, r) => `${r.name}/${r.tags.length}/${v}`',
      'return JSON.stringify(row)',
      '(v, r) => Object.keys(r).join(",")',
      'return row.missing === undefined ? "无" : "有"',
    ])('%s', (source) => {
      const id = engine.compile(source, { params: SCRIPT_PARAMS.formatter })
      const fields = rowFieldsRead(source)
      const whole = engine.callMany(id, rows.map((r) => [r.amount, r]))
      const projected = engine.callMany(id, rows.map((r) => [r.amount, projectRow(r, fields) as never]))
      expect(projected).toEqual(whole)
    })
  })
})
