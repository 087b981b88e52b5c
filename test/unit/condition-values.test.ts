import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EnumsFile } from '../../src/shared/generated/enums.js'
import { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'
import { checkConditions, isCalendarText, readsAs, type ConditionField } from '../../src/server/engine/condition-values.js'

const enums = new EnumCatalog(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/enums.json'), 'utf8')) as EnumsFile)

describe('condition values: each kind reads its own grammar and nothing else', () => {
  it.each([
    ['2026-02-28', true],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-01-31 23:59:59', true],
    ['2026-01-31 25:00:00', false],
    ['2026-01-31 10:00', true],
    ['1', false],
    ['March 3', false],
    ['2026-01-31T10:00:00Z', false],
  ])('date-time %j reads %s', (text, ok) => expect(isCalendarText(text)).toBe(ok))

  it.each([
    ['enum', '1', 'PRODUCT_TYPE', true],
    ['enum', '99999', 'PRODUCT_TYPE', false],
    ['enum', '不存在', 'PRODUCT_TYPE', false],
    ['boolean', 'true', undefined, true],
    ['boolean', '0', undefined, true],
    ['boolean', 'maybe', undefined, false],
    ['date', '2026-02-29', undefined, false],
    ['date', '2028-02-29', undefined, true],
    ['integer', '12', undefined, true],
    ['integer', '1x', undefined, false],
    ['integer', '1e3', undefined, false],
    ['decimal', '1.50', undefined, true],
    ['decimal', 'abc', undefined, false],
    ['id', '0190a1b2c3d4e5f60718293a4b5c6d7e', undefined, true],
    ['id', '1000001', undefined, true],
    ['id', '不是编号 1', undefined, false],
    ['id', "1' or '1'='1", undefined, false],
  ] as const)('%s %j reads %s', (kind, value, enumName, ok) => expect(readsAs(kind, value, enums, enumName)).toBe(ok))

  it('refuses the first unreadable value naming its search item; empty values are no condition', () => {
    const fields: ConditionField[] = [
      { name: 'createTimeStart', label: '创建时间', kind: 'datetime' },
      { name: 'productType', label: '商品类型', kind: 'enum', enum: 'PRODUCT_TYPE' },
      { name: 'brandId', label: '品牌', kind: 'id', list: true },
    ]
    expect(() => checkConditions(fields, { createTimeStart: '', productType: null, brandId: [] }, enums)).not.toThrow()
    expect(() => checkConditions(fields, { brandId: 'a1,b2' }, enums)).not.toThrow()
    expect(() => checkConditions(fields, { createTimeStart: '2026-02-30' }, enums)).toThrow('查询条件“创建时间”格式不正确')
    expect(() => checkConditions(fields, { productType: '9' }, enums)).toThrow('查询条件“商品类型”格式不正确')
    expect(() => checkConditions(fields, { brandId: 'a1,b 2' }, enums)).toThrow('查询条件“品牌”格式不正确')
    expect(() => checkConditions(fields, { productType: { $gt: 1 } }, enums)).toThrow('查询条件“商品类型”格式不正确')
  })
})
