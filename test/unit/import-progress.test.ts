import { describe, expect, it } from 'vitest'
import { failureTitle, isExcelFile, progressView, successText } from '../../src/client/components/import-progress.js'
import type { ImportTask } from '../../src/shared/contracts/component.js'

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

describe('import dialog after issue 14', () => {
  it('says whether rows were kept', () => {
    expect(failureTitle(task({ finished: true, hasError: true, data: { total: 5, created: 2, modified: 1 } }))).toBe('部分数据未导入（已导入3条，其余见下方说明），请修改出错的行后重新上传这些行：')
    expect(failureTitle(task({ finished: true, hasError: true }))).toBe('导入未完成，未导入任何数据，请修改后重新上传：')
  })
})
