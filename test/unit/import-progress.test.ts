import { describe, expect, it } from 'vitest'
import { isExcelFile, progressView, successText, type ImportTask } from '../../src/client/components/import-progress.js'

const task = (p: Partial<ImportTask>): ImportTask => ({ process: 0, successProcess: 0, tipMsgs: [], hasError: false, finished: false, data: null, ...p })

describe('import dialog progress (000 §4: active while polling, exception if errors, 100% when finished)', () => {
  it('is active below 100% while the task runs', () => {
    expect(progressView(task({ process: 40 }))).toEqual({ percent: 40, status: 'active' })
    expect(progressView(task({ process: 100 }))).toEqual({ percent: 99, status: 'active' })
  })

  it('is 100% success when finished without errors, exception with errors', () => {
    expect(progressView(task({ process: 100, finished: true }))).toEqual({ percent: 100, status: 'success' })
    expect(progressView(task({ process: 100, finished: true, hasError: true, tipMsgs: ['第3行：请输入名称'] }))).toEqual({ percent: 100, status: 'exception' })
  })

  it('accepts only .xls and .xlsx and sums up a success', () => {
    expect(isExcelFile('供应商.XLSX')).toBe(true)
    expect(isExcelFile('a.xls')).toBe(true)
    expect(isExcelFile('a.csv')).toBe(false)
    expect(successText(task({ finished: true, data: { total: 3, created: 2, modified: 1 } }))).toBe('导入成功！共3条，新增2条，修改1条')
  })
})
