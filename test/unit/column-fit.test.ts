import { describe, expect, it } from 'vitest'
import { fitColumns, fitListColumns, LIST_SHRINK_TO, SHRINK_TO } from '../../src/client/runtime/column-fit.js'
import { documentListColumns } from '../../src/client/runtime/document/document-list-columns.js'
import { lineProductIds } from '../../src/client/runtime/document/line-product-ids.js'

type Col = { key: string; width?: number; fixed?: 'left' | 'right'; input?: boolean }
const shows = (c: Col) => !c.fixed && !c.input
const keys = (cs: Col[]) => cs.map((c) => c.key)

/** The 结算单's line table: 序号, six shown columns, three inputs, 操作. */
const settleLines: Col[] = [
  { key: 'seq', width: 50, fixed: 'left' },
  { key: 'bizCode', width: 180 },
  { key: 'approveTime', width: 170 },
  ...['pay', 'payed', 'discounted', 'unpaid'].map((key) => ({ key, width: 120 })),
  { key: 'payAmount', width: 120, input: true },
  { key: 'discountAmount', width: 120, input: true },
  { key: 'description', width: 180, input: true },
  { key: 'actions', width: 80, fixed: 'right' },
]
const total = 50 + 180 + 170 + 4 * 120 + 2 * 120 + 180 + 80

describe('column widths fitted to the table', () => {
  it('keeps declared widths (no content-grown width) when they fit, and while the width is unknown', () => {
    for (const available of [0, total, 2000]) {
      const fitted = fitColumns(settleLines, available, shows)
      expect(fitted.columns).toEqual(settleLines)
      expect(fitted.x).toBe(total)
    }
    expect(fitColumns([{ key: 'a' }, { key: 'b', width: 30 }], 0, shows).x).toBe(130)
  })

  it('shrinks only the columns that show something, just enough, the right-fixed column staying right', () => {
    const available = total - 100
    const fitted = fitColumns(settleLines, available, shows)
    expect(fitted.x).toBeLessThanOrEqual(available)
    expect(fitted.x).toBeGreaterThan(available - settleLines.length)
    for (const [i, c] of fitted.columns.entries()) {
      expect(c.key).toBe(settleLines[i].key)
      if (shows(c)) expect(c.width).toBeLessThan(settleLines[i].width!)
      else expect(c).toEqual(settleLines[i])
    }
    expect(fitted.columns.at(-1)).toMatchObject({ key: 'actions', fixed: 'right' })
  })

  it('never shrinks a column below its share, and then moves the right-fixed columns beside the left-fixed ones', () => {
    const fitted = fitColumns(settleLines, 900, shows)
    expect(keys(fitted.columns)).toEqual(['seq', 'actions', 'bizCode', 'approveTime', 'pay', 'payed', 'discounted', 'unpaid', 'payAmount', 'discountAmount', 'description'])
    expect(fitted.columns[1]).toMatchObject({ fixed: 'left', width: 80 })
    expect(fitted.columns.find((c) => c.key === 'bizCode')!.width).toBe(180 * SHRINK_TO)
    expect(fitted.columns.find((c) => c.key === 'payAmount')!.width).toBe(120)
    expect(fitted.x).toBe(fitted.columns.reduce((n, c) => n + c.width!, 0))
    expect(fitted.x).toBeGreaterThan(900)
  })
})

describe('document list columns', () => {
  it('lead with the number, the state and the total, the rest in declared order', () => {
    const declared = ['scId', 'code', 'customerId', { field: 'scId', show: 'code' as const, title: '仓库编号' }, 'totalNum', 'totalAmount', 'status', 'createTime']
    expect(documentListColumns(declared)).toEqual(['code', 'status', 'totalAmount', 'scId', 'customerId', { field: 'scId', show: 'code', title: '仓库编号' }, 'totalNum', 'createTime'])
    // A document without a total (stock adjust) keeps what it has.
    expect(documentListColumns(['scId', 'code', 'status'])).toEqual(['code', 'status', 'scId'])
  })
})

describe('the products a line table asks stock for', () => {
  it('are distinct and sorted, so the same lines make the same request', () => {
    expect(lineProductIds([{ productId: 'b' }, { productId: 'a' }, { productId: 'b' }, { productId: '' }, { bizId: 'x' }])).toEqual(['a', 'b'])
  })
})

describe('list columns fitted to the card', () => {
  const list: Col[] = [
    { key: 'seq', width: 50, fixed: 'left' },
    { key: 'code', width: 140 },
    { key: 'name', width: 140 },
    { key: 'remark', width: 200 },
    { key: 'actions', width: 180, fixed: 'right' },
  ]
  const sum = 50 + 140 + 140 + 200 + 180

  it('fix nothing when the declared widths fit, whatever was declared fixed', () => {
    const fitted = fitListColumns(list, sum + 200)
    expect(fitted.x).toBe(sum)
    expect(fitted.columns.map((c) => c.fixed)).toEqual([undefined, undefined, undefined, undefined, undefined])
    expect(fitted.columns.map((c) => c.width)).toEqual(list.map((c) => c.width))
  })

  it('shrink what shows, and unfix once it fits', () => {
    const fitted = fitListColumns(list, sum - 60)
    expect(fitted.x).toBeLessThanOrEqual(sum - 60)
    expect(fitted.columns.find((c) => c.key === 'actions')).toMatchObject({ width: 180, fixed: undefined })
    expect(fitted.columns.find((c) => c.key === 'seq')!.width).toBe(50)
  })

  it('keep 序号 left and 操作 right while a list still overflows, and never cut a heading', () => {
    const heading = (c: Col) => (c.key === 'remark' ? 190 : c.key === 'name' ? 90 : 0)
    const fitted = fitListColumns(list, 500, heading)
    expect(keys(fitted.columns)).toEqual(keys(list))
    expect(fitted.columns[0].fixed).toBe('left')
    expect(fitted.columns.at(-1)!.fixed).toBe('right')
    expect(fitted.columns.find((c) => c.key === 'remark')!.width).toBe(190)
    expect(fitted.columns.find((c) => c.key === 'name')!.width).toBe(90)
    expect(fitted.columns.find((c) => c.key === 'code')!.width).toBe(140 * LIST_SHRINK_TO)
    expect(fitted.x).toBeGreaterThan(500)
  })

  it('keep declared widths and fixes while the width is unknown', () => {
    expect(fitListColumns(list, 0).columns).toEqual(list)
  })
})
