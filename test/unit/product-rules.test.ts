import { describe, expect, it } from 'vitest'
import { bundlePriceError, bundleTotals } from '../../src/server/domain/product/bundle-price.js'
import { salePropGroupsError, skuItems, skuMatrix, skuName } from '../../src/server/domain/product/poly.js'
import {
  ancestorsOf,
  appliesTo,
  collapseToSingle,
  customValueError,
  propertyChangeError,
  topMostCategories,
} from '../../src/server/domain/product/property.js'

describe('bundle price rule', () => {
  const lines = [
    { productId: 'a', bundleNum: 3, salePrice: '0.10', retailPrice: '0.20' },
    { productId: 'b', bundleNum: 1, salePrice: '0.20', retailPrice: '0.10' },
  ]
  it('adds up in decimal, not binary floating point', () => {
    expect(0.1 * 3).not.toBe(0.3)
    expect(bundleTotals(lines).salePrice.toFixed(2)).toBe('0.50')
    expect(bundlePriceError({ salePrice: '0.50', retailPrice: '0.70' }, lines)).toBeUndefined()
    expect(bundlePriceError({ salePrice: '0.5', retailPrice: '0.7000' }, lines)).toBeUndefined()
  })
  it('answers the sale message first, then the retail one', () => {
    expect(bundlePriceError({ salePrice: '0.51', retailPrice: '0.71' }, lines)).toEqual({ message: '单品的销售价设置错误！', field: 'salePrice' })
    expect(bundlePriceError({ salePrice: '0.50', retailPrice: '0.71' }, lines)).toEqual({ message: '单品的零售价设置错误！', field: 'retailPrice' })
    expect(bundlePriceError({ salePrice: null, retailPrice: null }, lines)?.field).toBe('salePrice')
  })
})

describe('SPU sale properties', () => {
  const groupOf = new Map([
    ['red', 'color'],
    ['blue', 'color'],
    ['s', 'size'],
  ])
  it('allows at most two distinct groups', () => {
    expect(salePropGroupsError(['color', 'size'])).toBeUndefined()
    expect(salePropGroupsError(['color', 'size', 'stuff'])).toBe('销售属性数据有误！')
    expect(salePropGroupsError(['color', 'color'])).toBe('销售属性数据有误！')
  })
  it('takes one item of each group, in group order', () => {
    expect(skuItems({ salePropItem1Id: 'red', salePropItem2Id: 's' }, ['color', 'size'], groupOf)).toEqual({ items: ['red', 's'] })
    expect(skuItems({ salePropItem1Id: 's', salePropItem2Id: 'red' }, ['color', 'size'], groupOf)).toEqual({ error: '销售属性数据有误！' })
    expect(skuItems({ salePropItem1Id: 'red' }, ['color', 'size'], groupOf)).toEqual({ error: '销售属性数据有误！' })
    expect(skuItems({ salePropItem1Id: 'red', salePropItem2Id: 's' }, ['color'], groupOf)).toEqual({ error: '销售属性数据有误！' })
    expect(skuItems({}, [], groupOf)).toEqual({ items: [] })
  })
  it('names a SKU after the SPU and its items, and spans the matrix', () => {
    expect(skuName(' T恤 ', ['红色', 'XL'])).toBe('T恤 红色 XL')
    expect(skuMatrix([['r', 'b'], ['s', 'm', 'l']])).toHaveLength(6)
    expect(skuMatrix([])).toEqual([[]])
  })
})

describe('product property rules', () => {
  const custom = { columnType: 3, columnDataType: 3, propertyType: 1 }
  it('keeps CUSTOM as it is and refuses NONE for a scoped property', () => {
    expect(propertyChangeError(custom, { ...custom, columnType: 1 })).toBe('该属性的字段类型为“手动录入”，不允许修改！')
    expect(propertyChangeError(custom, { ...custom, columnDataType: null })).toBe('请选择数据类型！')
    expect(propertyChangeError(custom, { ...custom, columnDataType: 4 })).toBe('数据类型不允许修改！')
    expect(propertyChangeError(custom, { ...custom, propertyType: 2 })).toBe('该属性不允许修改属性类别！')
    expect(propertyChangeError({ columnType: 1, propertyType: 2 }, { columnType: 3, columnDataType: 1, propertyType: 2 })).toBe(
      '该属性不允许将字段类型修改为“手动录入”！',
    )
    expect(propertyChangeError({ columnType: 1, propertyType: 2 }, { columnType: 2, propertyType: 3 })).toBe(
      '该属性的属性类别为“指定类目属性”，不允许修改为“无”',
    )
    expect(propertyChangeError({ columnType: 1, propertyType: 3 }, { columnType: 2, propertyType: 1 })).toBeUndefined()
  })
  const parents = new Map<string, string | null>([
    ['root', null],
    ['child', 'root'],
    ['leaf', 'child'],
    ['other', null],
  ])
  it('keeps the top-most categories and finds what applies to a category', () => {
    expect(ancestorsOf('leaf', parents)).toEqual(['child', 'root'])
    expect(topMostCategories(['leaf', 'root', 'other', 'child'], parents)).toEqual(['root', 'other'])
    const chain = ['leaf', 'child', 'root']
    expect(appliesTo({ propertyType: 1 }, chain)).toBe(true)
    expect(appliesTo({ propertyType: 2, categoryIds: ['root'] }, chain)).toBe(true)
    expect(appliesTo({ propertyType: 2, categoryIds: ['other'] }, chain)).toBe(false)
    expect(appliesTo({ propertyType: 3 }, chain)).toBe(false)
  })
  it('checks typed values and collapses multiple values to the first', () => {
    expect(customValueError('重量', 1, '12')).toBeUndefined()
    expect(customValueError('重量', 1, '1.5')).toBe('重量必须为整数')
    expect(customValueError('重量', 2, '1.5')).toBeUndefined()
    expect(customValueError('日期', 4, '2024-13')).toBe('日期格式不正确')
    expect(
      collapseToSingle([
        { id: 'r1', productId: 'p', itemOrder: 2 },
        { id: 'r2', productId: 'p', itemOrder: 0 },
        { id: 'r3', productId: 'q', itemOrder: 1 },
      ]),
    ).toEqual(['r1'])
  })
})
