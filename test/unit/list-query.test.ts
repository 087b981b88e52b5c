import { describe, expect, it } from 'vitest'
import dayjs from 'dayjs'
import { cleanQuery } from '../../src/client/api/http.js'
import { ALL, initialSearchValues, lastMonthRange, searchItems, toWireQuery } from '../../src/client/runtime/query-params.js'
import { loadClientMeta } from './client-entities.js'
import { STOCK_LOT_PARAMS } from '../../src/shared/contracts/stock-lot-query.js'
import { registerCatalogues } from '../../src/shared/i18n/catalogue.js'
import { CATALOGUES } from '../../src/shared/i18n/all-catalogues.js'
import { setCurrentLocale } from '../../src/client/i18n/current-locale.js'

const meta = loadClientMeta()

function itemsOf(entityName: string, context: 'list' | 'picker') {
  const entity = meta.entity(entityName)
  const params = context === 'list' ? entity.file.views!.list!.query! : entity.file.views!.picker!.filters!
  return searchItems(entity, params, meta.enums, meta.lookup, context)
}

describe('search form of a list', () => {
  it('has one input per declared query param with the right control', () => {
    const items = itemsOf('supplier', 'list')
    expect(items.map((i) => [i.key, i.control])).toEqual([
      ['code', 'text'],
      ['name', 'text'],
      ['mnemonicCode', 'text'],
      ['manageType', 'select'],
      ['settleType', 'select'],
      ['available', 'select'],
    ])
    expect(items.find((i) => i.key === 'available')!.options!.map((o) => o.label)).toEqual(['全部', '启用', '停用'])
    expect(items.find((i) => i.key === 'settleType')!.options!.map((o) => o.label)).toEqual(['款到发货', '货到付款'])
  })

  it('sends only conditions with a value, text trimmed; 全部 sends nothing on a list', () => {
    const items = itemsOf('supplier', 'list')
    const values: Record<string, unknown> = { ...initialSearchValues(items), code: '  S0 ', settleType: 2 }
    expect(values.available).toBe(ALL)
    expect(cleanQuery(toWireQuery(items, values, 'list'))).toEqual({ code: 'S0', settleType: '2' })
    expect(cleanQuery(toWireQuery(items, { ...values, available: 'false' }, 'list'))).toMatchObject({ available: 'false' })
  })

  it('uses the picker input for tree and ref conditions', () => {
    const items = itemsOf('product', 'list')
    expect(items.find((i) => i.key === 'categoryId')).toMatchObject({ control: 'picker', pickerKind: 'category' })
    expect(items.find((i) => i.key === 'brandId')).toMatchObject({ control: 'picker', pickerKind: 'brand' })
    expect(items.find((i) => i.key === 'createTime')).toMatchObject({ control: 'dateRange', label: '创建日期' })
  })

  it('turns a date range of a date-time column into whole days {name}Start/{name}End', () => {
    const items = itemsOf('product', 'list')
    const wire = toWireQuery(items, { createTime: [dayjs('2026-03-05 13:14:15'), dayjs('2026-03-09 08:00:00')] }, 'list')
    expect(wire.createTimeStart).toBe('2026-03-05 00:00:00')
    expect(wire.createTimeEnd).toBe('2026-03-09 23:59:59')
  })

  it('defaults a lastMonth range to one month ago 00:00:00 through today 23:59:59', () => {
    const [start, end] = lastMonthRange(dayjs('2026-03-31 10:20:30'))
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-02-28 00:00:00')
    expect(end.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-03-31 23:59:59')
    const items = itemsOf('opLog', 'list')
    const wire = toWireQuery(items, initialSearchValues(items), 'list')
    expect(wire.createTimeStart).toBe(`${dayjs().subtract(1, 'month').format('YYYY-MM-DD')} 00:00:00`)
    expect(wire.createTimeEnd).toBe(`${dayjs().format('YYYY-MM-DD')} 23:59:59`)
  })
})

describe('search form in another language', () => {
  it('shows a label a param declares in code (no entity file localizes it) in the chosen language', () => {
    registerCatalogues('en-US', CATALOGUES['en-US'])
    setCurrentLocale('en-US')
    try {
      const items = searchItems(meta.entity('productStockLog'), STOCK_LOT_PARAMS, meta.enums, meta.lookup, 'list')
      const labels = Object.fromEntries(items.map((i) => [i.key, i.label]))
      expect(labels.lotCode).toBe(CATALOGUES['en-US'].terms['批次号'])
      expect(labels.createTime).toBe(CATALOGUES['en-US'].terms['入库时间'])
    } finally {
      setCurrentLocale('zh-CN')
    }
  })
})

describe('search form of a picker', () => {
  it('starts on enabled rows and sends available=all for 全部', () => {
    const items = itemsOf('supplier', 'picker')
    const initial = initialSearchValues(items)
    expect(initial.available).toBe('true')
    expect(cleanQuery(toWireQuery(items, initial, 'picker'))).toEqual({ available: 'true' })
    expect(cleanQuery(toWireQuery(items, { ...initial, available: ALL }, 'picker'))).toEqual({ available: 'all' })
    expect(cleanQuery(toWireQuery(items, { ...initial, available: 'false' }, 'picker'))).toEqual({ available: 'false' })
  })

  it('gives forced conditions no input (the server applies them)', () => {
    const items = itemsOf('customer', 'picker')
    expect(items.some((i) => i.key === 'customerType')).toBe(false)
  })
})
