import { describe, expect, it } from 'vitest'
import { regionCodes, regionPath, regions } from '../../src/shared/region/regions.js'
import { enumColor, fieldText } from '../../src/client/runtime/field-text.js'
import { describeRow, joinLabels, labelFieldOf, pickerDescription, pickerLabel } from '../../src/client/runtime/picker/picker-labels.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()

describe('region data', () => {
  it('covers the 31 mainland provinces', () => {
    expect(regions).toHaveLength(31)
  })

  it('shows the full path of a district code', () => {
    expect(regionPath('440305')).toBe('广东省/深圳市/南山区')
    expect(regionPath('110105', ' / ')).toBe('北京市 / 市辖区 / 朝阳区')
    expect(regionPath('4403')).toBe('广东省/深圳市')
  })

  it('gives the cascader the codes from the province down', () => {
    expect(regionCodes('440305')).toEqual(['44', '4403', '440305'])
  })

  it('answers nothing for unknown or empty codes', () => {
    expect(regionPath('999999')).toBe('')
    expect(regionPath(null)).toBe('')
    expect(regionCodes(undefined)).toEqual([])
  })
})

describe('list cells', () => {
  const supplier = meta.entity('supplier')
  const product = meta.entity('product')
  const field = (entity: typeof supplier, name: string) => entity.byName.get(name)!

  it('shows enum labels, status colours and region paths', () => {
    const row = { id: '1', settleType: 2, available: false, cityId: '440305' }
    expect(fieldText(field(supplier, 'settleType'), row, meta.enums)).toBe('货到付款')
    expect(fieldText(field(supplier, 'available'), row, meta.enums)).toBe('停用')
    expect(enumColor(field(supplier, 'available'), false, meta.enums)).toBe('red')
    expect(enumColor(field(supplier, 'available'), true, meta.enums)).toBe('green')
    expect(fieldText(field(supplier, 'cityId'), row, meta.enums)).toBe('广东省/深圳市/南山区')
  })

  it('shows the label property of refs instead of ids', () => {
    const row = { id: '1', categoryId: 'c1', categoryName: '饮料' }
    expect(fieldText(field(product, 'categoryId'), row, meta.enums)).toBe('饮料')
  })

  it('shows plain booleans as 是/否', () => {
    const lock = meta.entity('user').byName.get('lockStatus')!
    expect(fieldText(lock, { id: '1', lockStatus: true }, meta.enums)).toBe('是')
    expect(fieldText(lock, { id: '1', lockStatus: false }, meta.enums)).toBe('否')
  })
})

describe('picker labels', () => {
  it('shows the code (000 §9: single-pick label uses code) unless the picker names another field', () => {
    expect(labelFieldOf(meta.entity('productBrand'))).toBe('code')
    expect(labelFieldOf(meta.entity('user'))).toBe('name')
    expect(pickerLabel({ id: '1', code: 'B01', name: '品牌' }, 'code')).toBe('B01')
    expect(pickerLabel({ id: '1', code: 'B01' }, 'code')).toBe('B01')
    expect(pickerLabel({ id: '2', code: 'U01', name: '张三' }, 'name')).toBe('张三')
    // The name is the tooltip of a code and follows it where nothing can be hovered.
    expect(pickerDescription({ id: '1', code: 'B01', name: '品牌' }, 'code')).toBe('B01 品牌')
    expect(pickerDescription({ id: '2', code: 'U01', name: '张三' }, 'name')).toBe('张三')
  })

  it('joins multiple labels with a full-width comma', () => {
    expect(joinLabels(['B01', 'B02'])).toBe('B01，B02')
  })

  it('describes a chosen row by code and name', () => {
    expect(describeRow({ id: '1', code: 'B01', name: '品牌甲' })).toBe('B01 品牌甲')
  })
})
