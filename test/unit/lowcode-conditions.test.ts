import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { buildConditions, defaultRange, initialQueryValues, queryKey } from '../../src/client/lowcode/list-conditions.js'
import type { ListQueryParamConfig } from '../../src/shared/contracts/lowcode-wire.js'
import { buildTree } from '../../src/client/runtime/tree-rows.js'

const param = (p: Partial<ListQueryParamConfig>): ListQueryParamConfig => ({ tableAlias: 'p', columnName: 'code', name: '编号', viewType: 0, dataType: 0, queryType: 0, ...p })

describe('custom list conditions from query params', () => {
  it('drops inputs without a value and trims text', () => {
    const params = [param({ columnName: 'code', queryType: 10 }), param({ columnName: 'name', queryType: 10 }), param({ columnName: 'spec' })]
    const conditions = buildConditions(params, { [queryKey(0)]: '  P00 ', [queryKey(1)]: '', [queryKey(2)]: '   ' })
    expect(conditions).toEqual([{ tableAlias: 'p', columnName: 'code', queryType: 10, value: 'P00' }])
    expect(buildConditions(params, {})).toEqual([])
  })

  it('sends a date range on a date-time column from 00:00:00 to 23:59:59', () => {
    const params = [param({ columnName: 'create_time', viewType: 6, dataType: 6 })]
    const conditions = buildConditions(params, { q0: [dayjs('2026-03-01 15:20:00'), dayjs('2026-03-31 08:00:00')] })
    expect(conditions).toEqual([
      { tableAlias: 'p', columnName: 'create_time', queryType: 2, value: '2026-03-01 00:00:00' },
      { tableAlias: 'p', columnName: 'create_time', queryType: 4, value: '2026-03-31 23:59:59' },
    ])
  })

  it('sends a date range on a date column as plain dates, and only the ends that are set', () => {
    const params = [param({ columnName: 'biz_date', viewType: 6, dataType: 5 })]
    expect(buildConditions(params, { q0: [dayjs('2026-03-01'), null] })).toEqual([{ tableAlias: 'p', columnName: 'biz_date', queryType: 2, value: '2026-03-01' }])
  })

  it('sends IN and NOT IN as values, splitting text and dropping blanks', () => {
    const params = [param({ queryType: 6 }), param({ columnName: 'name', queryType: 7 }), param({ columnName: 'x', queryType: 6 })]
    expect(buildConditions(params, { q0: ['P001', '', 'P003'], q1: 'a, b,,', q2: [] })).toEqual([
      { tableAlias: 'p', columnName: 'code', queryType: 6, values: ['P001', 'P003'] },
      { tableAlias: 'p', columnName: 'name', queryType: 7, values: ['a', 'b'] },
    ])
  })

  it('sends booleans for status selects and nothing for 全部', () => {
    const params = [param({ columnName: 'available', dataType: 8, hasAvailableTag: true })]
    expect(buildConditions(params, { q0: 'true' })).toEqual([{ tableAlias: 'p', columnName: 'available', queryType: 0, value: true }])
    expect(buildConditions(params, { q0: 'false' })[0].value).toBe(false)
    expect(buildConditions(params, { q0: 'all' })).toEqual([])
  })

  it('starts from the defaults: text, IN lists, status and date ranges of the last N units', () => {
    const now = dayjs('2026-05-20 10:00:00')
    const params = [
      param({ defaultValue: 'P0' }),
      param({ queryType: 6, defaultValue: 'A,B' }),
      param({ hasAvailableTag: true, dataType: 8, defaultValue: 'true' }),
      param({ viewType: 6, dataType: 6, defaultValue: '{"type":1,"unit":"day","value":7}' }),
      param({ viewType: 6, dataType: 5, defaultValue: '{"type":2,"start":"2026-01-01","end":"2026-01-31"}' }),
      param({}),
    ]
    const values = initialQueryValues(params, now)
    expect(values.q0).toBe('P0')
    expect(values.q1).toEqual(['A', 'B'])
    expect(values.q2).toBe('true')
    expect(values.q5).toBeUndefined()
    const conditions = buildConditions(params, values)
    expect(conditions.filter((c) => c.queryType === 2 || c.queryType === 4).map((c) => c.value)).toEqual([
      '2026-05-13 00:00:00',
      '2026-05-20 23:59:59',
      '2026-01-01',
      '2026-01-31',
    ])
    expect(defaultRange('not a range')).toBeUndefined()
  })
})

describe('tree rows', () => {
  it('nests by parent column, keeps orphans and loops as roots', () => {
    const rows = [
      { c_id: 1, c_pid: null, c_name: '饮料' },
      { c_id: 2, c_pid: 1, c_name: '零食' },
      { c_id: '3', c_pid: '9', c_name: '孤儿' },
      { c_id: '4', c_pid: '5' },
      { c_id: '5', c_pid: '4' },
    ]
    // Ids of a custom list's integer columns are numbers.
    const tree = buildTree(rows, 'c_pid', 'c_id')
    expect(tree.map((r) => r.c_id)).toEqual([1, '3', '4', '5'])
    expect(tree[0].children?.map((r) => r.c_id)).toEqual([2])
  })
})
