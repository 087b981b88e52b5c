import { describe, expect, it } from 'vitest'
import { statisChartOption } from '../../src/client/features/crm-reports/statis-chart-option.js'
import type { Statis } from '../../src/shared/contracts/crm-reports.js'

const statis = (rows: Statis['rows']): Statis =>
  ({
    reportType: 1,
    startDate: '2026-11-23',
    endDate: '2026-11-29',
    figures: [
      { key: 'reportNum', label: '提交报告', money: false, available: true },
      { key: 'contractAmount', label: '合同金额', money: true, available: true },
      { key: 'collectAmount', label: '回款金额', money: true, available: false },
    ],
    sources: {},
    rows,
    totals: {},
  }) as unknown as Statis

describe('work report chart', () => {
  const same = (s: string) => s

  it('puts people on the category axis and draws every figure as bars, money on the 元 axis', () => {
    const option = statisChartOption(statis([{ userId: 'a', userName: '张三', reportNum: 2, contractAmount: '1200.50' }, { userId: 'b', userName: '李四', reportNum: 1, contractAmount: '0.00' }]), same)
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['张三', '李四'] })
    expect(option.series.map((s) => [s.name, s.type, s.yAxisIndex, s.data])).toEqual([
      ['提交报告', 'bar', 0, [2, 1]],
      ['合同金额', 'bar', 1, [1200.5, 0]],
    ])
    expect(option.yAxis.map((a) => a.name)).toEqual(['数量', '金额(元)'])
  })

  it('draws one salesperson alone: their own figures', () => {
    const option = statisChartOption(statis([{ userId: 'a', userName: '王五', reportNum: 3, contractAmount: '10.00' }]), same)
    expect(option.xAxis.data).toEqual(['王五'])
    expect(option.series.every((s) => s.type === 'bar' && s.data.length === 1)).toBe(true)
  })
})
